"""The raw psycopg cursors of the two hot paths (the board's phase read in
``selectors/board.py``, the pool's bit arrays in ``services/pool/store.py``), under one
prepared-statement policy: ``settings.GEC_PREPARED_STATEMENTS``.

Django runs every query unprepared (psycopg's ``prepare_threshold=None``), which a
transaction-mode pooler such as PgBouncer needs: its connections change server under
the client between transactions, and a statement prepared on one server is unknown on
the next. With a direct connection (or a session-mode pooler) preparing is safe and the
board's three-table join plans once per connection instead of on every poll (planning
took ~4x as long as running it). The setting says which deployment this is
(docs/deployment.md); both paths follow it, so no statement prepares behind its back.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.conf import settings
from django.db import connection


def prepared() -> bool:
    """Whether raw statements are prepared on the server (off behind a transaction pooler)."""
    return bool(settings.GEC_PREPARED_STATEMENTS)


class PolicyCursor:
    """A psycopg cursor whose ``execute`` prepares exactly when the policy says so."""

    def __init__(self, cursor: Any):
        self.cursor = cursor

    def execute(self, sql: str, params: Any = None, **kwargs: Any) -> Any:
        if not prepared():
            return self.cursor.execute(sql, params, prepare=False, **kwargs)
        # psycopg ignores prepare=True while the connection's threshold is None (Django's
        # setting): lift it for this one statement (a Django connection belongs to one thread)
        raw = self.cursor.connection
        threshold = raw.prepare_threshold
        raw.prepare_threshold = 5 if threshold is None else threshold
        try:
            return self.cursor.execute(sql, params, prepare=True, **kwargs)
        finally:
            raw.prepare_threshold = threshold

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cursor, name)


@contextlib.contextmanager
def raw_cursor() -> Iterator[PolicyCursor]:
    """A psycopg cursor with server-side binding on Django's connection (same transaction),
    ``execute`` taking psycopg's arguments (``binary=True``); its errors come out as
    Django's, which the Celery tasks retry on. PostgreSQL only."""
    import psycopg

    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        yield PolicyCursor(cursor)


def copy_rows(model: Any, fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Write ``rows`` (values of ``fields``, in that order) into ``model``'s table with
    PostgreSQL's COPY, in this transaction: a task's million gold chunks without building a
    model instance or an INSERT's text for each. Returns how many. PostgreSQL only."""
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(model._meta.get_field(name).column) for name in fields)
    count = 0
    with raw_cursor() as cursor, cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def django_cursor() -> Any:
    """Django's cursor wrapper (query logging, execute wrappers, error translation) around a
    policy cursor on PostgreSQL, else Django's plain cursor."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    import psycopg

    connection.ensure_connection()
    raw = PolicyCursor(psycopg.Cursor(connection.connection))
    # Django wraps the raw DB-API cursor it is given; django-stubs names the wrapper as the argument
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)  # type: ignore[arg-type]
    return connection.make_cursor(raw)  # type: ignore[arg-type]
