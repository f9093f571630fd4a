"""What nginx may keep (docker/nginx/gec.conf.template), read from the config itself so a
location added later obeys the same rules without nginx on the machine: a kept answer is
never served once expired, and no request waits on a cache lock. Django's answer for a
phase just hidden is ``private`` and never stored, so a stale copy served while nginx asks
again would outlive the secret for as long as anyone polled; a lock makes every poller
whose copy expired wait for one request, re-checked every 500 ms (the proxied proofs are
tests/proxy/test_proxy_hiding.py and bench/crowd.py). What every open page polls is a
file web and workers write, removed when its phase is hidden (services/boards/mirror.py)."""

from __future__ import annotations

import re

from tests.conftest import ROOT

CONFIG = (ROOT / "docker" / "nginx" / "gec.conf.template").read_text(encoding="utf-8")


def locations() -> dict[str, str]:
    """``{location pattern: its directives}`` (a ``${PLACEHOLDER}`` is part of a directive)."""
    uncommented = "\n".join(line.split("#", 1)[0] for line in CONFIG.splitlines())
    return dict(re.findall(r"location\s+([^{]+?)\s*\{((?:[^{}]|\$\{\w+\})*)\}", uncommented))


def cached_locations() -> dict[str, str]:
    """``{location pattern: its directives}`` of every location that uses the cache."""
    return {name: body for name, body in locations().items() if re.search(r"\bproxy_cache\s+\w", body)}


def directive(body: str, name: str) -> str | None:
    found = re.search(rf"\b{name}\s+([^;]*);", body)
    return found.group(1).strip() if found else None


def test_the_polled_answers_are_cached():
    assert set(cached_locations()) == {"~ ^/api/tasks/[^/]+/leaderboard/$", "@gec_polled"}


def test_what_every_open_page_polls_is_a_file_else_django():
    """The version and the board: the public phase's file, or the uncached-when-private
    Django answer; only the plain ``?phase=<key>`` names a folder."""
    polled = {name: body for name, body in locations().items() if "/tasks/(?<gec_task>" in name}
    assert {name.split(")", 1)[1] for name in polled} == {"/version/$", "/rows/$"}
    for name, body in polled.items():
        target = directive(body, "try_files")
        assert target and target.startswith("/$gec_task/$gec_public_phase/") and target.endswith(" @gec_polled"), name
        assert directive(body, "root") == "${GEC_LIVE_ROOT}/public", name
        assert directive(body, "etag") == "off" and directive(body, "if_modified_since") == "off", name
    assert "~^phase=([-a-zA-Z0-9_]+)$ $1;" in CONFIG and 'default "~";' in CONFIG
    assert directive(locations()["/live/public/"], "return") == "404"  # never through the channels' folder


def test_no_request_waits_on_a_cache_lock():
    for name, body in cached_locations().items():
        assert directive(body, "proxy_cache_lock") in (None, "off"), name
    assert "proxy_cache_lock on" not in CONFIG


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
