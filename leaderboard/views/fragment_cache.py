"""Live pages at constant cost: fragments rendered once per phase, audience
and version, shared by every viewer; the version a page watches is
:func:`.pages.task_version`.

A page learns of a change by asking ``/tasks/<slug>/version/?phase=<key>`` (the one
client module, ``static/leaderboard/live.js``, with backoff and never while its tab is
hidden). For a phase whose results are public the answer is the same for everyone and
says so (``Cache-Control: public, s-maxage=1``, an ETag); it and the board are written as
files the proxy serves to every poll, with or without a session cookie
(services/boards/mirror.py, docker/nginx/gec.conf.template), so a crowd of open pages
costs Django nothing. Otherwise it is the viewer's own version (:func:`.pages.shown_version`,
``private``), which never reveals a hidden pool's.

Only when the version changes does a page fetch its fragment, and what is the same for
many viewers is rendered once per (phase, version, query, what they may see) and kept in
the ``fragments`` cache (Redis when there is a broker, so every web process shares it):
the board is one piece for everyone who may see the results. A new version is a new key,
so a result that lands invalidates every copy at once. What is a viewer's own (their
team's rows, an upload's status) is not asked of Django: it is their team's live channel
(services/boards/channels.py), a file the proxy serves.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import caches
from django.http import HttpResponse

log = logging.getLogger(__name__)
T = TypeVar("T")
RENDER_WAIT = 0.3  # seconds a request waits for another process's render before answering the latest copy
KEPT = 300  # seconds a rendered fragment is kept (a new version is a new key anyway)


def shared_body(parts: tuple, version, render: Callable[[], bytes]) -> bytes:
    """The rendered piece ``parts`` names (phase, who may see what, query) at ``version``,
    rendered by the first request that needs it while the others wait for it (so a crowd
    that sees a new version at once costs one render, not one each)."""
    return shared_body_of(parts, version, render)[1]


def shared_body_of(parts: tuple, version, render: Callable[[], bytes]) -> tuple[object, bytes]:
    """(the version it is of, :func:`shared_body`): ``version`` but when another process
    renders it and is slower than :data:`RENDER_WAIT`, then the latest copy's own, which a
    polled fragment must be labelled with (a page shown an older board under the new
    version's label would never ask again)."""
    key = "fragment-" + hashlib.sha256(repr((parts, version)).encode()).hexdigest()[:32]
    latest = "fragment-latest-of-" + hashlib.sha256(repr(parts).encode()).hexdigest()[:32]  # (version, body) of any
    body = _cache("get", key)
    if body is None:
        return _render_once(key, latest, version, render)
    return version, body


def shared_value(parts: tuple, version, compute: Callable[[], T]) -> T:
    """What ``compute()`` returns for ``parts`` at ``version``, computed by the first request
    that needs it and kept as the fragments are (:data:`KEPT`). Unlike a rendered fragment,
    never another version's copy: a page reads its version beside it."""
    key = "value-" + hashlib.sha256(repr((parts, version)).encode()).hexdigest()[:32]
    value = _cache("get", key)
    if value is None:
        value = compute()
        _cache("set", key, value, timeout=KEPT)
    return value


def shared_fragment(parts: tuple, version, render: Callable[[], bytes]) -> HttpResponse:
    """:func:`shared_body` as the response."""
    return HttpResponse(shared_body(parts, version, render))


def _render_once(key: str, latest: str, version, render: Callable[[], bytes]) -> tuple[object, bytes]:
    """Render unless another process is rendering this fragment: then wait for it, and
    past :data:`RENDER_WAIT` answer the latest copy of any version, with that version (its
    page sees the new one at its next poll and asks again), rather than render it twice."""
    lock = key + "-rendering"
    if _cache("add", lock, 1, timeout=60) is not False:  # ours (or no cache)
        try:
            body = render()
            _cache("set_many", {key: body, latest: (version, body)}, timeout=KEPT)
            return version, body
        finally:
            _cache("delete", lock)
    deadline = time.monotonic() + RENDER_WAIT
    while time.monotonic() < deadline:
        time.sleep(0.02)
        body = _cache("get", key)
        if body is not None:
            return version, body
    copy = _cache("get", latest)
    return copy if copy is not None else (version, render())


def _cache(operation: str, *args, **kwargs):
    """One operation on the fragments cache; None when the cache is down (then every
    request renders its own, as before: slower, never an error)."""
    try:
        return getattr(caches["fragments"], operation)(*args, **kwargs)
    except Exception:
        log.warning("the fragments cache did not answer %s", operation, exc_info=True)
        return None
