"""The pool's rows, read and written for :func:`.pool.sync_pool` at the cost of what changed.

- Members are keyed ``(member pk, submission id, joined_at as text)``: rows are written
  once and deleted on leaving, so comparing keys finds every change, including those of
  rolled-back transactions (SQLite may then reuse a pk; joined_at tells them apart). The
  time is read as text because parsing 1,000 datetimes costs more than the whole query.
- This process keeps each phase's members' outcomes (:class:`scoring.gotoscorer.Pool`)
  and brings them up to date with the keys it has not seen; a worker's first load reads
  every member's packed bits in one query (binary on PostgreSQL: no hex to decode) and
  builds the pool with :meth:`Pool.from_packed`, without a per-member loop.
- f_i moves in one UPDATE on the chunks whose count changed; scores go back in one
  UPDATE from one JSON object on PostgreSQL, keyed by submission id.
"""

from __future__ import annotations

import json

import numpy as np
from django.db import connection
from django.db.models import F, TextField
from django.db.models.functions import Cast

from scoring.gotoscorer import Outcomes
from scoring.gotoscorer import Pool as MemberOutcomes

from ...cursors import raw_cursor
from ...models import GoldChunk, MetricResult, Pool, PoolMember
from . import gotoscorer

UPDATE_BATCH = 5000  # chunk positions per UPDATE (keeps SQLite under its parameter limit)
REBUILD_AFTER = 16  # more unseen members than this: rebuild the process's copy at once

_outcomes: dict[int, MemberOutcomes] = {}  # phase id -> members' outcomes, keyed as member_keys()


def member_keys(pool: Pool, pks=None) -> set[tuple[int, int, str]]:
    """``{(member pk, submission id, joined_at text)}`` of the pool (or of ``pks``)."""
    return set(
        member_rows(pool, pks)
        .annotate(joined=Cast("joined_at", TextField()))
        .values_list("pk", "submission_id", "joined")
    )


def member_rows(pool: Pool, pks=None):
    """The pool's member rows, or those of ``pks``."""
    return PoolMember.objects.filter(pool=pool) if pks is None else PoolMember.objects.filter(pk__in=pks)


def member_outcomes(pool: Pool, n_chunks: int, stored: set[tuple]) -> MemberOutcomes:
    """The stored members' outcomes (``stored``: :func:`member_keys`), as this process
    last saw them plus what changed. Nothing in common, another chunk count or many
    unseen members: build them afresh from the database."""
    members = _outcomes.get(pool.phase_id)
    known = set(members.members) if members is not None else set()
    unseen = stored - known
    if members is None or len(members.n) != n_chunks or len(unseen) > REBUILD_AFTER or (known and not known & stored):
        keys, modified, correct = read_packed(pool, n_chunks)
        members = MemberOutcomes.from_packed(gold_modified(pool.phase_id, n_chunks), keys, modified, correct)
        _outcomes[pool.phase_id] = members
        return members
    for key in known - stored:
        members.remove(key)
    if unseen:
        keys, modified, correct = read_packed(pool, n_chunks, pks=[key[0] for key in unseen])
        for key, m, c in zip(keys, modified, correct, strict=True):
            members.add(key, Outcomes(gotoscorer.unpack(m, n_chunks), gotoscorer.unpack(c, n_chunks)))
    return members


def gold_modified(phase_id: int, n_chunks: int) -> np.ndarray:
    """The gold chunks' modified flags, from the positions of the modified ones (the few)."""
    flags = np.zeros(n_chunks, dtype=bool)
    flags[list(GoldChunk.objects.filter(phase_id=phase_id, modified=True).values_list("position", flat=True))] = True
    return flags


def read_packed(pool: Pool, n_chunks: int, pks=None) -> tuple[list, np.ndarray, np.ndarray]:
    """Members' keys and packed bits, ``(members, ceil(chunks / 8))`` uint8 each."""
    width = (n_chunks + 7) // 8
    if connection.vendor == "postgresql":
        where, params = ("pool_id = %s", [pool.pk]) if pks is None else ("id = ANY(%s)", [list(pks)])
        with raw_cursor() as cursor:  # binary results: the bits as they are stored, no hex to decode
            cursor.execute(
                "SELECT id, submission_id, CAST(joined_at AS text), modified, correct FROM "
                f"{PoolMember._meta.db_table} WHERE {where}",
                params,
                binary=True,
            )
            rows = cursor.fetchall()
    else:
        rows = list(
            member_rows(pool, pks)
            .annotate(joined=Cast("joined_at", TextField()))
            .values_list("pk", "submission_id", "joined", "modified", "correct")
        )
    return (
        [tuple(row[:3]) for row in rows],
        _matrix([row[3] for row in rows], width),
        _matrix([row[4] for row in rows], width),
    )


def _matrix(values: list, width: int) -> np.ndarray:
    """Packed rows as one ``(rows, width)`` array. A row of another length (bits stored
    before the phase had its gold chunks) is cut or padded with zero bits, as
    :func:`.gotoscorer.unpack` reads it."""
    if any(len(value) != width for value in values):
        values = [bytes(value)[:width].ljust(width, b"\0") for value in values]
    data = b"".join(map(bytes, values))
    return np.frombuffer(data, dtype=np.uint8).reshape(len(values), width)


def add_members(pool: Pool, submission_ids: list[int], n_chunks: int) -> list[tuple[tuple, Outcomes]]:
    """Member rows for the joiners, from their stored GoToScorer statistics: their keys
    and outcomes, in ``submission_ids`` order."""
    if not submission_ids:
        return []
    if n_chunks:
        statistics = dict(
            MetricResult.objects.filter(submission_id__in=submission_ids, metric=gotoscorer.NAME).values_list(
                "submission_id", "statistics"
            )
        )
        outcomes = {
            sid: gotoscorer.outcomes(statistics[sid]) if sid in statistics else _missing(sid) for sid in submission_ids
        }
    else:  # GoToScorer is not scored in this task: the pool only counts N
        outcomes = {sid: Outcomes(np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)) for sid in submission_ids}
    for sid, o in outcomes.items():
        if len(o.correct) != n_chunks:
            raise ValueError(f"submission {sid} has outcomes for {len(o.correct)} chunks, the phase has {n_chunks}")
    rows = PoolMember.objects.bulk_create(
        [
            PoolMember(
                pool=pool, submission_id=sid, modified=gotoscorer.pack(o.modified), correct=gotoscorer.pack(o.correct)
            )
            for sid, o in outcomes.items()
        ]
    )
    keys = {key[1]: key for key in member_keys(pool, pks=[row.pk for row in rows])}
    return [
        (keys[sid], Outcomes(np.asarray(o.modified, dtype=bool), np.asarray(o.correct, dtype=bool)))
        for sid, o in outcomes.items()
    ]


def _missing(submission_id: int):
    raise MetricResult.DoesNotExist(f"submission {submission_id} has no {gotoscorer.NAME} result")


def add_to_failures(phase_id: int, delta: np.ndarray) -> None:
    """``failures = failures + delta[position]`` on the chunks where delta is not 0: one
    statement on PostgreSQL (a constant delta, the usual single join or leave, as
    ``position = ANY(array)``), batches under SQLite's parameter limit elsewhere."""
    positions = np.flatnonzero(delta)
    if not len(positions):
        return
    table = GoldChunk._meta.db_table
    steps = np.unique(delta[positions])
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            if len(steps) == 1:
                cursor.execute(
                    f"UPDATE {table} SET failures = failures + %s WHERE phase_id = %s AND position = ANY(%s::int[])",
                    [int(steps[0]), phase_id, _int_array(positions)],
                )
            else:
                cursor.execute(
                    f"UPDATE {table} AS g SET failures = g.failures + v.d FROM unnest(%s::int[], %s::int[]) AS v(p, d) "
                    "WHERE g.phase_id = %s AND g.position = v.p",
                    [_int_array(positions), _int_array(delta[positions]), phase_id],
                )
        return
    for step in steps.tolist():
        chosen = positions[delta[positions] == step].tolist()
        for i in range(0, len(chosen), UPDATE_BATCH):
            GoldChunk.objects.filter(phase_id=phase_id, position__in=chosen[i : i + UPDATE_BATCH]).update(
                failures=F("failures") + step
            )


def _int_array(values: np.ndarray) -> str:
    """A PostgreSQL array literal: one text parameter is quicker to send than a list."""
    return "{" + ",".join(map(str, values.tolist())) + "}"


def write_scores(metric: str, payload: str) -> None:
    """Set ``MetricResult.scores`` of ``metric`` from ``payload``, a JSON object
    ``{submission id: scores}``: on PostgreSQL one UPDATE with the text as a bound
    parameter (not a literal the server must lex first), Django's bulk_update elsewhere."""
    if connection.vendor == "postgresql":
        with raw_cursor() as cursor:
            cursor.execute(
                f"UPDATE {MetricResult._meta.db_table} AS r SET scores = v.scores "
                "FROM jsonb_each(%s::jsonb) AS v(sid, scores) WHERE r.submission_id = v.sid::bigint AND r.metric = %s",
                [payload, metric],
            )
        return
    scores = {int(sid): s for sid, s in json.loads(payload).items()}
    ids = dict(
        MetricResult.objects.filter(submission_id__in=list(scores), metric=metric).values_list("submission_id", "pk")
    )
    MetricResult.objects.bulk_update(
        [MetricResult(pk=ids[sid], scores=s) for sid, s in scores.items()], ["scores"], batch_size=500
    )
