"""Answers to access questions remembered for one request, never longer.

A page asks the same question many times (is this user an organizer of the task? which is
their team?): each navigation tag asks it again. :class:`RememberAnswers` opens a memo
for the life of a GET or HEAD request (reads write nothing, so an answer cannot change
under them) and drops it when the response is made; outside such a request (a POST, a
worker, a command, a test calling ``access`` directly) nothing is remembered. The answers
themselves stay decided in :mod:`leaderboard.access`."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")
_ANSWERS: ContextVar[dict | None] = ContextVar("request_answers", default=None)
READS = ("GET", "HEAD")


def remembered(key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, asked once per request for ``key`` (which names the user and the object)."""
    answers = _ANSWERS.get()
    if answers is None:
        return compute()
    if key not in answers:
        answers[key] = compute()
    return answers[key]


def remember(key: Hashable, answer: object) -> None:
    """Keep ``answer`` for ``key`` for the rest of the request: a read that answered two
    questions at once (a team, and who is in it) saves the second its query."""
    answers = _ANSWERS.get()
    if answers is not None:
        answers.setdefault(key, answer)


class RememberAnswers:
    """Middleware: a fresh memo for each read request, dropped at its end."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in READS:
            return self.get_response(request)
        token = _ANSWERS.set({})
        try:
            return self.get_response(request)
        finally:
            _ANSWERS.reset(token)
