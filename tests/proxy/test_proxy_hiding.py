"""Hiding a phase reaches every poller within two seconds, through the proxy, under a crowd.

A crowd of open task pages polls the board's rows and the phase's version (and scripts
the API board), logged in or not, while the organizers reveal the phase and hide it
again. nginx keeps a public answer a second; once the phase is hidden Django's answer is
``private`` and never stored, so a copy that nginx went on serving while it asked again
(stale-while-updating) would outlive the secret for as long as anyone polled. Every
answer to a poll sent two seconds or more after the phase was hidden must be free of the
hidden scores and of the public version."""

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
POLLERS = 6
PAUSE = 0.05  # between one poll and the next: a crowd, not a flood of the test machine
BOUND = 2.0  # seconds after hiding from which no poll may see the public answer


class Crowd:
    """Threads polling ``paths`` one after another; each answer is kept with the time its
    request was sent."""

    def __init__(self, url: str, paths: list[str], headers: list[dict]):
        self.answers: list[tuple[float, str, int, dict, bytes]] = []
        self.stopping = threading.Event()
        self.threads = [
            threading.Thread(target=self.poll, args=(url, paths[i % len(paths)], headers[i % len(headers)]))
            for i in range(POLLERS)
        ]

    def poll(self, url: str, path: str, headers: dict) -> None:
        while not self.stopping.is_set():
            sent = time.monotonic()
            status, answer_headers, body = get(url + path, headers)
            self.answers.append((sent, path, status, answer_headers, body))
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
    visitors = [{}, {"Cookie": session_cookie(stack["team"])}]
    with Crowd(stack["url"], [ROWS, VERSION, API], visitors) as crowd:
        time.sleep(3)  # the crowd sees the public board from the proxy's cache
        edit_phase(phase, {"results_visibility": "organizers"})
        hidden_at = time.monotonic()
        time.sleep(BOUND + 4)
    before = [a for a in crowd.answers if a[0] < hidden_at]
    assert any(b"Careful" in body for _, path, _, _, body in before if path == ROWS), "the board was never public"
    assert any(headers.get("X-Cache") == "HIT" for *_, headers, _ in before), "the proxy never answered itself"
    late = [a for a in crowd.answers if a[0] >= hidden_at + BOUND]
    assert len(late) >= 2 * POLLERS, f"too few polls after hiding: {len(late)}"
    leaks = [
        (round(sent - hidden_at, 2), path, status, headers.get("X-Cache"))
        for sent, path, status, headers, body in late
        if (path == ROWS and b"Careful" in body)
        or (path == VERSION and body == public_version)
        or (path == API and (status == 200 or b"Careful" in body))
    ]
    assert not leaks, f"{len(leaks)} of {len(late)} polls after {BOUND} s still saw the public answer: {leaks[:5]}"
