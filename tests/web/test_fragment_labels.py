"""A polled board is labelled with the version it is of: while another process renders the
new version, a request answers the latest copy under that copy's own version, so its page
asks again at its next poll instead of keeping an old board under the new label."""

import hashlib

import pytest
from django.core.cache import caches

from leaderboard.views import fragment_cache
from leaderboard.views.fragment_cache import shared_body_of

pytestmark = pytest.mark.django_db


def test_a_fresh_render_is_of_the_version_asked():
    assert shared_body_of(("piece",), 7, lambda: b"seven") == (7, b"seven")
    assert shared_body_of(("piece",), 7, lambda: b"never rendered") == (7, b"seven")  # the kept copy


def test_an_older_copy_comes_with_its_own_version(monkeypatch):
    monkeypatch.setattr(fragment_cache, "RENDER_WAIT", 0.05)
    assert shared_body_of(("piece",), 7, lambda: b"seven") == (7, b"seven")
    rendering = "fragment-" + hashlib.sha256(repr((("piece",), 8)).encode()).hexdigest()[:32] + "-rendering"
    caches["fragments"].add(rendering, 1, timeout=60)  # another process renders version 8
    assert shared_body_of(("piece",), 8, lambda: b"eight") == (7, b"seven")
    caches["fragments"].delete(rendering)
    assert shared_body_of(("piece",), 8, lambda: b"eight") == (8, b"eight")


def test_the_polled_rows_carry_the_copys_version(insight_task, client, monkeypatch):
    monkeypatch.setattr(
        "leaderboard.views.pages.shared_body_of", lambda parts, version, render: ("older-1", b"<table></table>")
    )
    body = client.get("/tasks/insight/rows/").content.decode()
    assert body.startswith('<div data-version="older-1">')
