"""Every URL of the site, with its parameters filled in: the security tests request them
all, so a page or endpoint added later is covered the day it is added. A new kind of
path parameter gets its values in ``fill`` (``values`` maps a parameter name to them)."""

from __future__ import annotations

import re

from django.urls import URLPattern, URLResolver, get_resolver

PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def patterns(resolver=None, prefix=""):
    """Every URL pattern of the site as a route string, admin left out (staff only)."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if route.startswith("admin/"):
            continue
        if isinstance(entry, URLResolver):
            yield from patterns(entry, route)
        elif isinstance(entry, URLPattern):
            yield route.replace("^", "").replace("$", "").replace("\\Z", "")


def fill(route: str, values: dict[str, list[str]]) -> list[str]:
    """``route`` with each ``<converter:name>`` replaced by each of ``values[name]`` (every
    combination); a parameter without values gets ``"1"`` for ints and ``"x"`` otherwise."""
    match = PARAMETER.search(route)
    if match is None:
        return ["/" + route]
    converter, name = match.groups()
    choices = values.get(name) or (["1"] if converter == "int" else ["x"])
    return [
        url for choice in choices for url in fill(route[: match.start()] + str(choice) + route[match.end() :], values)
    ]


def site_urls(values: dict[str, list[str]]) -> list[str]:
    return [url for route in patterns() for url in fill(route, values)]
