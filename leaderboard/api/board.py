"""The polled leaderboard read path, ``GET /api/tasks/<slug>/leaderboard/``, kept cheap.

Every open browser tab and script polls this URL, so it is a plain Django view rather
than a DRF one: one hand-written SQL query (:func:`leaderboard.selectors.board.task_phases`:
the task's phases, their task's metric list and the pool version),
then the body built once per (phase, pool version, metric) from the cache
(:func:`leaderboard.standings.leaderboard_body`). A public phase needs no user, so the
session is only read for hidden ones; token and session authentication answer as DRF's
classes would, a bad token being a 401 even on a public board.

Who may see the board is decided on every request, from the phase row just read, before
the cache is asked; only then does a client get the body, gzipped if it accepts that, or
a 304 if it already holds this version (``If-None-Match``). A public board is the same
for everyone: ``Cache-Control: public, max-age=0, s-maxage=1`` lets a shared cache (the
proxy in front, docker/nginx) answer it for one second while browsers ask again each
time (a 304 when nothing changed), so a phase hidden or a score landing shows a second
or two later to anonymous pollers (nginx counts whole seconds). The copy's end is fixed
from when the phase was read, not when the proxy got the answer (``X-Accel-Expires:
@<the second after the read's>``, which nginx obeys before Cache-Control): an answer
that was slow to arrive under load never outlives a hide by more than two seconds. A
hidden phase's board is ``private, no-cache``: no shared cache may keep it.
"""

from __future__ import annotations

import json
import re
import time

from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from .. import access, params
from ..insights.board_pages import board_page
from ..insights.paths import metric_paths
from ..models import Phase
from ..models.shared_tasks import current_of
from ..selectors.board import task_phases
from ..standings import BoardBody, headline_metric, leaderboard_body

ANONYMOUS = AnonymousUser()
ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as django.middleware.gzip reads Accept-Encoding
SHARED_CACHE_SECONDS = 1  # how long a proxy may answer a public board without asking
MAX_PAGE = 1000  # rows of one page (opt-in ``limit``; without it, every row)


def detail(message: str, status: int, **headers) -> HttpResponse:
    """DRF's error shape, ``{"detail": ...}``."""
    return HttpResponse(
        json.dumps({"detail": message}), status=status, content_type="application/json", headers=headers
    )


def leaderboard_response(request, slug: str) -> HttpResponse:
    try:
        token = TokenAuthentication().authenticate(request)
    except AuthenticationFailed as error:
        return detail(str(error.detail), 401, **{"WWW-Authenticate": "Token"})
    kind = params.phase_key(request.GET)
    read_at = time.time()  # before the phase is read: a proxy's copy ends from here
    phase = current_of(task_phases(slug, kind))
    if phase is None:
        return detail(f"task {slug} has no phase {kind}".strip(), 404)
    hidden = not phase.results_public()
    if not access.may_see_results(phase, token[0] if token else request.user):
        response = detail("the results of this phase are not public yet", 403)
    else:
        response = board_response(request, phase, private=hidden)
        if not hidden:
            response["X-Accel-Expires"] = f"@{int(read_at) + SHARED_CACHE_SECONDS}"
    if hidden:  # the answer depends on who asks
        patch_vary_headers(response, ("Authorization", "Cookie"))
    return response


def board_response(request, phase: Phase, *, private: bool) -> HttpResponse:
    metric = params.metric(request.GET, lambda: metric_paths(phase), headline_metric(phase.task))
    limit = params.number(request.GET, "limit", default=0, minimum=1, maximum=MAX_PAGE)
    offset = params.number(request.GET, "offset", default=0)
    body = leaderboard_body(phase, metric, phase.version)
    return body_response(request, board_page(body, offset, limit) if limit else body, private=private)


def body_response(request, body: BoardBody, *, private: bool) -> HttpResponse:
    """A 304 to a client holding this body, else the body, gzipped when accepted."""
    response = get_conditional_response(request, etag=body.etag)
    if response is None:
        gzipped = bool(ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))
        response = HttpResponse(body.gzip if gzipped else body.json, content_type="application/json")
        if gzipped:
            response["Content-Encoding"] = "gzip"
    response["ETag"] = body.etag
    response["Cache-Control"] = (
        "private, no-cache" if private else f"public, max-age=0, s-maxage={SHARED_CACHE_SECONDS}"
    )
    patch_vary_headers(response, ("Accept-Encoding",))
    return response
