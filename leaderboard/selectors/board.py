"""The board's read (``GET /api/tasks/<slug>/leaderboard/``, leaderboard/api/board.py): one
hand-written SQL query for the task's phases, their task's metric list and the board
version (:func:`leaderboard.board_version.version_sql`), since compiling the equivalent
ORM query cost more than running it. It runs on the prepared-statement policy of
:mod:`leaderboard.cursors` (``GEC_PREPARED_STATEMENTS``)."""

from __future__ import annotations

import datetime as dt
import json

from django.db import connection, models

from ..board_version import version_sql
from ..cursors import django_cursor
from ..models import Phase, SharedTask

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


def column_of(model: type[models.Model], name: str) -> str:
    """The column of a concrete field (``get_field`` may also name a reverse relation, which has none)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or field.column is None:
        raise ValueError(f"{model.__name__}.{name} is a relation from another model, not a column")
    return field.column


def phases_sql(by_kind: bool) -> str:
    phase, task = Phase._meta.db_table, SharedTask._meta.db_table
    columns = [f"p.{column_of(Phase, name)}" for name in PHASE_FIELDS]
    columns += [f"t.{column_of(SharedTask, name)}" for name in TASK_FIELDS]
    parent = Phase._meta.get_field("parent").column
    return (
        f"SELECT {', '.join(columns)}, {version_sql('p')} FROM {phase} p"
        f" JOIN {task} t ON t.id = p.{Phase._meta.get_field('task').column}"
        f" WHERE t.slug = %s{' AND p.kind = %s' if by_kind else f' AND p.{parent} IS NULL'} ORDER BY p.starts_at, p.id"
    )


SQL = {False: phases_sql(False), True: phases_sql(True)}


def aware(value):
    """Datetimes as the ORM gives them: SQLite returns them naive (stored in UTC)."""
    return value.replace(tzinfo=dt.UTC) if value is not None and value.tzinfo is None else value


def task_phases(slug: str, kind: str | None) -> list[Phase]:
    """The task's phases (only ``kind`` if given), in (starts_at, pk) order, each with
    ``.task`` (id, slug, metrics) and ``.version`` (its board version, 0 without a pool)."""
    with django_cursor() as cursor:
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
