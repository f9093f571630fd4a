"""What nginx may keep (docker/nginx/gec.conf.template), read from the config itself so a
location added later obeys the same rules without nginx on the machine: a kept answer is
never served once expired. Django's answer for a phase just hidden is ``private`` and never
stored, so a stale copy served while nginx asks again would outlive the secret for as long
as anyone polled (the proxied proof is tests/proxy/test_proxy_hiding.py)."""

from __future__ import annotations

import re

from tests.conftest import ROOT

CONFIG = (ROOT / "docker" / "nginx" / "gec.conf.template").read_text(encoding="utf-8")


def cached_locations() -> dict[str, str]:
    """``{location pattern: its directives}`` of every location that uses the cache."""
    uncommented = "\n".join(line.split("#", 1)[0] for line in CONFIG.splitlines())
    blocks = dict(re.findall(r"location\s+([^{]+?)\s*\{([^}]*)\}", uncommented))
    return {name: body for name, body in blocks.items() if re.search(r"\bproxy_cache\s+\w", body)}


def directive(body: str, name: str) -> str | None:
    found = re.search(rf"\b{name}\s+([^;]*);", body)
    return found.group(1).strip() if found else None


def test_the_polled_answers_are_cached():
    assert set(cached_locations()) == {
        "~ ^/api/tasks/[^/]+/leaderboard/$",
        "~ ^/tasks/[^/]+/rows/$",
        "~ ^/tasks/[^/]+/version/$",
    }


def test_no_cached_location_serves_an_expired_copy():
    for name, body in cached_locations().items():
        assert directive(body, "proxy_cache_use_stale") == "off", name
        assert directive(body, "proxy_cache_background_update") in (None, "off"), name
        assert "proxy_cache_use_stale" not in CONFIG.split("server {", 1)[0], "a server-wide default would apply"


def test_no_cached_copy_lives_past_a_second():
    """``s-maxage=1`` from Django, and ``1s`` where nginx decides alone: nginx counts whole
    seconds, so a copy made just before a phase is hidden is gone within two."""
    for name, body in cached_locations().items():
        assert directive(body, "proxy_cache_valid") == "200 1s", name
        assert directive(body, "proxy_ignore_headers") is None, name  # Django's "private" is obeyed
