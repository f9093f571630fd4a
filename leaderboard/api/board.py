"""The polled leaderboard read path, ``GET /api/tasks/<slug>/leaderboard/``, kept cheap.

Every open browser tab and script polls this URL, so it is a plain Django view rather
than a DRF one: one hand-written SQL query (the task's phases, their task's metric list
and the pool version; compiling the equivalent ORM query cost more than running it),
then the body built once per (phase, pool version, metric) from the cache
(:func:`leaderboard.ranking.leaderboard_body`). A public phase needs no user, so the
session is only read for hidden ones; token and session authentication answer as DRF's
classes would, a bad token being a 401 even on a public board.

Who may see the board is decided on every request, from the phase row just read, before
the cache is asked; only then does a client get the body, gzipped if it accepts that, or
a 304 if it already holds this version (``If-None-Match``). A public board is the same
for everyone: ``Cache-Control: public, max-age=0, s-maxage=1`` lets a shared cache (the
proxy in front, docker/nginx) answer it for one second while browsers ask again each
time (a 304 when nothing changed), so a phase hidden or a score landing shows a second
or two later to anonymous pollers (nginx counts whole seconds). A hidden phase's board
is ``private, no-cache``: no shared cache may keep it.
"""

from __future__ import annotations

import datetime as dt
import json
import re

from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from .. import access, params
from ..insights.paths import metric_paths
from ..models import Phase, Pool, SharedTask
from ..models.tasks import current_of
from ..ranking import BoardBody, headline_metric, leaderboard_body

# The fields the read path needs, in each model's concrete-field order (``Model.from_db``
# takes the values in that order; the other fields stay deferred, loaded if ever read).
PHASE_FIELDS = [
    f.attname
    for f in Phase._meta.concrete_fields
    if f.name in ("id", "task", "kind", "starts_at", "ends_at", "results_visibility", "revealed", "frozen_at")
]
TASK_FIELDS = [
    f.attname for f in SharedTask._meta.concrete_fields if f.name in ("id", "slug", "metrics", "headline_metric")
]
DATETIMES = [k for k, name in enumerate(PHASE_FIELDS) if name in ("starts_at", "ends_at")]
METRICS = TASK_FIELDS.index("metrics")
ANONYMOUS = AnonymousUser()
ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # as django.middleware.gzip reads Accept-Encoding
SHARED_CACHE_SECONDS = 1  # how long a proxy may answer a public board without asking


def phases_sql(by_kind: bool) -> str:
    phase, task, pool = Phase._meta.db_table, SharedTask._meta.db_table, Pool._meta.db_table
    columns = [f"p.{Phase._meta.get_field(name).column}" for name in PHASE_FIELDS]
    columns += [f"t.{SharedTask._meta.get_field(name).column}" for name in TASK_FIELDS]
    pool_phase, parent = Pool._meta.get_field("phase").column, Phase._meta.get_field("parent").column
    # a phase of several corpora: its version is the sum over its corpora's pools too (ranking.pool_version)
    corpora = (
        f"(SELECT SUM(cv.version) FROM {pool} cv JOIN {phase} c ON cv.{pool_phase} = c.id WHERE c.{parent} = p.id)"
    )
    return (
        f"SELECT {', '.join(columns)}, CAST(COALESCE(v.version, 0) + COALESCE({corpora}, 0) AS BIGINT) FROM {phase} p"
        f" JOIN {task} t ON t.id = p.{Phase._meta.get_field('task').column}"
        f" LEFT JOIN {pool} v ON v.{pool_phase} = p.id"
        f" WHERE t.slug = %s{' AND p.kind = %s' if by_kind else f' AND p.{parent} IS NULL'} ORDER BY p.starts_at, p.id"
    )


SQL = {False: phases_sql(False), True: phases_sql(True)}


class Prepared:
    """A psycopg cursor with server-side binding whose statements are prepared.

    Planning the three-table join took ~4x as long as running it (about 0.5 ms against
    0.13 ms prepared). Django turns psycopg's automatic preparing off for every query
    (``prepare_threshold=None``, for transaction-mode connection poolers); this one
    statement asks for it: it is prepared once per persistent connection
    (``CONN_MAX_AGE``). A pooler in transaction mode in front of PostgreSQL would need
    this off.
    """

    def __init__(self, cursor):
        self.cursor = cursor

    def execute(self, sql, params):
        # psycopg ignores prepare=True while the connection's threshold is None: lift
        # it for this one statement (a Django connection belongs to one thread)
        connection = self.cursor.connection
        threshold = connection.prepare_threshold
        connection.prepare_threshold = 5 if threshold is None else threshold
        try:
            return self.cursor.execute(sql, params, prepare=True)
        finally:
            connection.prepare_threshold = threshold

    def __getattr__(self, name):
        return getattr(self.cursor, name)


def phases_cursor():
    """Django's cursor wrapper (query logging, execute wrappers, error translation) around
    a prepared-statement cursor on PostgreSQL, else Django's plain cursor."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    import psycopg

    connection.ensure_connection()
    raw = Prepared(psycopg.Cursor(connection.connection))
    return connection.make_debug_cursor(raw) if connection.queries_logged else connection.make_cursor(raw)


def aware(value):
    """Datetimes as the ORM gives them: SQLite returns them naive (stored in UTC)."""
    return value.replace(tzinfo=dt.UTC) if value is not None and value.tzinfo is None else value


def task_phases(slug: str, kind: str | None) -> list[Phase]:
    """The task's phases (only ``kind`` if given), in (starts_at, pk) order, each with
    ``.task`` (id, slug, metrics) and ``.version`` (its pool's version, 0 without one)."""
    with phases_cursor() as cursor:
        cursor.execute(SQL[bool(kind)], [slug, kind] if kind else [slug])
        rows = cursor.fetchall()
    phases = []
    for row in rows:
        values, task_values, version = list(row[: len(PHASE_FIELDS)]), list(row[len(PHASE_FIELDS) : -1]), row[-1]
        for k in DATETIMES:
            values[k] = aware(values[k])
        if isinstance(task_values[METRICS], str | bytes):  # PostgreSQL's jsonb arrives as text
            task_values[METRICS] = json.loads(task_values[METRICS])
        phase = Phase.from_db(connection.alias, PHASE_FIELDS, values)
        phase.task = SharedTask.from_db(connection.alias, TASK_FIELDS, task_values)
        phase.version = version
        phases.append(phase)
    return phases


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
    phase = current_of(task_phases(slug, kind))
    if phase is None:
        return detail(f"task {slug} has no phase {kind}".strip(), 404)
    hidden = not phase.results_public()
    if not access.may_see_results(phase, token[0] if token else request.user):
        response = detail("the results of this phase are not public yet", 403)
    else:
        response = board_response(request, phase, private=hidden)
    if hidden:  # the answer depends on who asks
        patch_vary_headers(response, ("Authorization", "Cookie"))
    return response


def board_response(request, phase: Phase, *, private: bool) -> HttpResponse:
    metric = params.metric(request.GET, lambda: metric_paths(phase), headline_metric(phase.task))
    return body_response(request, leaderboard_body(phase, metric, phase.version), private=private)


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
