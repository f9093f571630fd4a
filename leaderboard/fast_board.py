"""The polled public leaderboard, answered before Django's middleware chain and URL routing.

Every open board tab and every script polls ``GET /api/tasks/<slug>/leaderboard/``. The
answer itself is cheap (one prepared query, then a cached body: :mod:`.api.board`), but
on the way Django spent about half of a request's CPU on routing and middleware that a
public board does not need. :class:`PublicBoardFirst` wraps the WSGI application: a
plain ``GET`` of that URL without credentials is answered by
:func:`.api.board.public_leaderboard_response`, the same function the full path uses,
with the header-setting middleware applied as Django would (``AROUND``) and Django's
request signals sent. Anything else, and every answer that depends on who asks or is an
error (a hidden phase, no such task or phase, a malformed parameter, a host not allowed,
a plain-HTTP request to be redirected), goes to Django unchanged.
``tests/platform/test_public_board_first.py`` checks that both give the same status,
headers and body in every state and visibility of a phase, and that every other
middleware in ``settings.MIDDLEWARE`` has nothing to do with such a request.

A web process keeps the task's phase rows it read (with their pool version) for
``GEC_BOARD_PHASES_SECONDS`` (0.1 s): the one query left was the largest part of what
remained of a request's CPU, and at hundreds of requests a second a process then reads
them about ten times a second. Who may see the board is still decided on every request,
from rows at most that old: a phase hidden, or a score landing, shows that much later,
as if the request had arrived that much earlier. Everything Django answers reads them
fresh.
"""
from __future__ import annotations

import re
import time

from django.conf import settings
from django.core import signals
from django.core.exceptions import DisallowedHost, PermissionDenied
from django.core.handlers.wsgi import WSGIRequest, get_script_name
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.security import SecurityMiddleware
from django.urls import set_script_prefix
from django.utils.module_loading import import_string

from .api.board import public_leaderboard_response, task_phases

# Django's <slug:> converter, inside the URL the API's URLconf gives the board
BOARD_PATH = re.compile(r"/api/tasks/(?P<slug>[-a-zA-Z0-9_]+)/leaderboard/")
# The middleware that acts on a public board's GET, in settings.MIDDLEWARE order.
AROUND = (SecurityMiddleware, CommonMiddleware, XFrameOptionsMiddleware)


class RecentPhases:
    """``task_phases`` remembered per (slug, kind) for ``seconds``; a few hundred keys at most
    (a client asking for many slugs that do not exist only ever empties it)."""

    LIMIT = 256

    def __init__(self, seconds: float):
        self.seconds, self.read = seconds, {}

    def __call__(self, slug: str, kind: str):
        now = time.monotonic()
        hit = self.read.get((slug, kind))
        if hit is not None and now - hit[0] < self.seconds:
            return hit[1]
        phases = task_phases(slug, kind)
        if len(self.read) >= self.LIMIT:
            self.read.clear()
        self.read[(slug, kind)] = (now, phases)
        return phases


def unused(request):
    raise AssertionError("PublicBoardFirst calls the middleware's hooks itself")


class PublicBoardFirst:
    """WSGI middleware: public boards first, everything else to ``application``."""

    def __init__(self, application):
        self.application = application
        self.around = [kind(unused) for kind in map(import_string, settings.MIDDLEWARE) if kind in AROUND]
        self.phases = RecentPhases(settings.GEC_BOARD_PHASES_SECONDS)

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "GET" or "HTTP_AUTHORIZATION" in environ:
            return self.application(environ, start_response)
        match = BOARD_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None:
            return self.application(environ, start_response)
        set_script_prefix(get_script_name(environ))
        signals.request_started.send(sender=self.__class__, environ=environ)
        response = self.answer(WSGIRequest(environ), match["slug"])
        if response is None:
            signals.request_finished.send(sender=self.__class__)
            return self.application(environ, start_response)
        cookies = [("Set-Cookie", cookie.output(header="")) for cookie in response.cookies.values()]
        start_response(f"{response.status_code} {response.reason_phrase}", [*response.items(), *cookies])
        return response  # its close() sends request_finished, as Django's handler's does

    def answer(self, request, slug: str):
        """The board as the full path would answer it, or None to leave it to Django."""
        for middleware in self.around:
            try:
                if hasattr(middleware, "process_request") and middleware.process_request(request) is not None:  # e.g. the HTTPS redirect
                    return None
            except (DisallowedHost, PermissionDenied):
                return None
        try:
            response = public_leaderboard_response(request, slug, self.phases)
        except Exception:  # noqa: BLE001 -- a 400 or a failure: Django answers, and logs it as it logs any
            return None
        if response is None:
            return None
        for middleware in reversed(self.around):
            response = middleware.process_response(request, response)
        return response
