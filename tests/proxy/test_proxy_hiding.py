"""Hiding a phase reaches every poller within two seconds, through the proxy, under a crowd.

A crowd of open task pages polls the board's rows and the phase's version (and scripts
poll the API board): anonymous visitors, logged-in members, and pollers of both kinds that
hold the last ETag they were given and send it back (as a browser revalidates), while the
organizers reveal the phase and hide it again. A public phase's polls are answered from
files (services/boards/mirror.py) that the hide removes, and the API board from nginx's
one-second copy, never stale; every answer to a poll sent two seconds or more after the
hide must be free of the hidden scores and of the public version, and no ETag of a public
answer may be confirmed (304) by then."""

from __future__ import annotations

import threading
import time

import pytest

from leaderboard.board_version import board_version
from leaderboard.services.hosting.host import edit_phase
from tests.platform.served import PROXIED, get
from tests.proxy.test_proxy_secrecy import session_cookie, stack  # noqa: F401 - the served task

pytestmark = [*PROXIED, pytest.mark.django_db(transaction=True)]
ROWS = "/tasks/proxied/rows/?phase=dev"
VERSION = "/tasks/proxied/version/?phase=dev"
API = "/api/tasks/proxied/leaderboard/"
PAUSE = 0.05  # between one poll and the next: a crowd, not a flood of the test machine
BOUND = 2.0  # seconds after hiding from which no poll may see the public answer


class Crowd:
    """A thread per (path, visitor, holds ETags) polling one after another; each answer is
    kept with the time its request was sent and the ETag it sent."""

    def __init__(self, url: str, pollers: list[tuple[str, dict, bool]]):
        self.answers: list[tuple[float, str, int, dict, bytes, str | None]] = []
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self.poll, args=(url, *poller)) for poller in pollers]

    def poll(self, url: str, path: str, headers: dict, holds_etag: bool) -> None:
        etag = None
        while not self.stopping.is_set():
            sent = time.monotonic()
            status, answer_headers, body = get(url + path, {**headers, **({"If-None-Match": etag} if etag else {})})
            self.answers.append((sent, path, status, answer_headers, body, etag))
            if holds_etag and status == 200:
                etag = answer_headers.get("ETag") or etag
            time.sleep(PAUSE)

    def __enter__(self) -> Crowd:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=60)


def test_hiding_a_phase_reaches_every_poller_within_two_seconds(stack):  # noqa: F811
    phase = stack["phase"]
    edit_phase(phase, {"results_visibility": "organizers"})
    edit_phase(phase, {"results_visibility": "public"})  # revealed
    public_version = str(board_version(phase.pk)).encode()
    member = {"Cookie": session_cookie(stack["team"])}
    pollers = [(path, who, holds) for path in (ROWS, VERSION, API) for who in ({}, member) for holds in (False, True)]
    with Crowd(stack["url"], pollers) as crowd:
        time.sleep(3)  # the crowd sees the public board from the proxy's files and cache
        public_etags = {a[3].get("ETag") for a in crowd.answers if a[3].get("ETag")}
        edit_phase(phase, {"results_visibility": "organizers"})
        hidden_at = time.monotonic()
        time.sleep(BOUND + 4)
    before = [a for a in crowd.answers if a[0] < hidden_at]
    assert any(b"Careful" in body for _, path, _, _, body, _ in before if path == ROWS), "the board was never public"
    assert any(h.get("X-Live") == "file" for _, path, _, h, _, _ in before if path != API), "no file answered"
    assert any(h.get("X-Cache") == "HIT" for _, path, _, h, _, _ in before if path == API), "no copy answered"
    assert any(etag for *_, etag in before), "no poller sent an ETag back"
    late = [a for a in crowd.answers if a[0] >= hidden_at + BOUND]
    assert len(late) >= 2 * len(pollers), f"too few polls after hiding: {len(late)}"
    leaks = [
        (round(sent - hidden_at, 2), path, status, headers.get("X-Cache"), headers.get("X-Live"))
        for sent, path, status, headers, body, etag in late
        if (path == ROWS and b"Careful" in body)
        or (path == VERSION and body == public_version)
        or (path == API and (status == 200 or b"Careful" in body))
        or (status == 304 and etag in public_etags)
    ]
    assert not leaks, f"{len(leaks)} of {len(late)} polls after {BOUND} s still saw the public answer: {leaks[:5]}"
    edit_phase(phase, {"results_visibility": "public"})  # revealed again: the files are back at once
    assert get(stack["url"] + ROWS, member)[1].get("X-Live") == "file"
