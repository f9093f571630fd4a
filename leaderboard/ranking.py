"""Read paths: the leaderboard of a phase, ranked by one metric path, cached per version.

A leaderboard is the phase's pool (the same systems GoToScorer weighs against each
other), each with its stored scores. The table only changes when the pool's version
does, so it is built once per (version, metric) and served from the cache after that:
that is what keeps the polled endpoint cheap.
"""
from __future__ import annotations

import gzip
import hashlib
import json
from typing import NamedTuple

from django.core.cache import cache
from django.db.models import F, Func, JSONField

# What to rank by, and the number at a path, are the metric registry's answers.
from scoring import TABLE_PREFIX
from scoring import default_path as default_metric  # noqa: F401  (re-exported for the views)
from scoring import value_at as metric_value
from scoring import without_tables as summary

from .models import MetricResult, Phase, Pool, Submission


def headline_metric(task) -> str:
    """The path the task's board ranks by and its "best" counting rule means."""
    return task.headline_metric or default_metric(task.metric_names())


class ScoresWithoutTables(Func):
    """A result's ``scores`` without its top-level per-type tables, dropped by PostgreSQL:
    they are nearly all of an ERRANT result's bytes (38 of 39 KB on CoNLL-14), and decoding
    them for every member was most of the time a board took to build, which every web
    process pays on each new pool version. :func:`summary` still drops nested tables (and
    all of them on SQLite)."""

    template = "%(expressions)s"
    output_field = JSONField()

    def __init__(self):
        super().__init__(F("scores"))

    def as_postgresql(self, compiler, connection, **extra):
        tables = f"ARRAY(SELECT k FROM jsonb_object_keys(%(expressions)s) k WHERE starts_with(k, '{TABLE_PREFIX}'))"
        return self.as_sql(compiler, connection, template=f"%(expressions)s - {tables}", **extra)


def board_rows(phase_id: int, metric: str) -> list[dict]:
    members = list(
        Submission.objects.filter(phase_id=phase_id, pool_membership__isnull=False)
        .select_related("team")
        .only("pk", "system_name", "is_baseline", "scored_at", "team__name")
    )
    scores: dict[int, dict] = {s.pk: {} for s in members}
    results = MetricResult.objects.filter(submission__in=members).annotate(summary=ScoresWithoutTables())
    for submission_id, name, value in results.values_list("submission_id", "metric", "summary"):
        scores[submission_id][name] = summary(value)
    rows = [
        {
            "team": s.team.name,
            "system_name": s.system_name,
            "submission_id": s.pk,
            "baseline": s.is_baseline,
            "scored_at": s.scored_at.isoformat() if s.scored_at else None,
            "value": metric_value(scores[s.pk], metric),
            "scores": scores[s.pk],
        }
        for s in members
    ]
    rows.sort(key=lambda r: (r["value"] is None, -(r["value"] or 0.0), r["submission_id"]))
    return ranked(rows)


def ranked(rows: list[dict]) -> list[dict]:
    """Ranks 1.. over the teams' rows (already in board order); equal values share a rank.
    Organizers' baselines keep their place among them, unranked (``rank`` None): they are
    reference points (and GoToScorer pool members), not entrants."""
    previous, rank, position, result = object(), 0, 0, []
    for row in rows:
        if row.get("baseline"):
            result.append({**row, "rank": None})
            continue
        position += 1
        if row["value"] != previous:
            rank, previous = position, row["value"]
        result.append({**row, "rank": rank})
    return result


SMALL_POOL = 3  # below this many systems, GoToScorer's difficulty weights say little


def gotoscorer_pool(metric_names: list[str], size: int) -> dict | None:
    """What the board says about GoToScorer's pool of ``size`` systems (baselines
    included); None when the task does not score GoToScorer.

    A chunk's weight is 1 - n_i / N (Gotou et al., 2020): with N = 1 every chunk the lone
    system gets right weighs 0, so its F is 0 whatever it does; with N = 2 a weight is
    0, 0.5 or 1. The note says so until the pool has :data:`SMALL_POOL` systems."""
    if "gotoscorer" not in metric_names:
        return None
    if size >= SMALL_POOL:
        note = ""
    elif size <= 1:
        note = (f"GoToScorer's pool has N = {size} system: a chunk's weight is 1 - n/N, so every chunk it corrects weighs 0 "
                "and its GoToScorer scores are 0 whatever it does. The weights mean something from "
                f"N = {SMALL_POOL} systems on (organizers' baselines count).")
    else:
        note = (f"GoToScorer's pool has N = {size} systems: each chunk's difficulty weight (1 - n/N) can only be "
                f"{', '.join(f'{1 - k / size:g}' for k in range(size + 1))}, so GoToScorer says little yet. The weights "
                f"mean something from N = {SMALL_POOL} systems on (organizers' baselines count).")
    return {"size": size, "small": size < SMALL_POOL, "note": note}


class BoardBody(NamedTuple):
    """The API's body of one board as served: compact JSON, the same gzipped once for the
    clients that accept it (browsers do; a tenth of the bytes to write on every poll), and
    a weak ETag of the JSON, so a client holding this version gets a 304 without a body."""

    json: bytes
    gzip: bytes
    etag: str


def leaderboard_body(phase: Phase, metric: str, version: int) -> BoardBody:
    """``{"metric", "phase", "version", "rows"[, "gotoscorer_pool"]}``, built once per (phase, kind, version, metric).

    The body is the same for everyone allowed to see it (the rows are the pool, which has
    no per-viewer part); who may see it is asked of :mod:`leaderboard.access` on every
    request before this is called, so the cache never decides visibility. The pool's
    version is bumped by every change of what the body shows (a score landing, a pool
    join or leave, a phase edit, a team renamed), so a new version is a new key."""
    key = f"leaderboard:{phase.pk}:{phase.kind}:{version}:{metric}"
    cached = cache.get(key)
    if cached is not None:
        return BoardBody(*cached)
    rows = board_rows(phase.pk, metric)
    content = {"metric": metric, "phase": phase.kind, "version": version, "rows": rows}
    pool = gotoscorer_pool(phase.task.metric_names(), len(rows))
    if pool is not None:
        content["gotoscorer_pool"] = pool
    body = json.dumps(content, separators=(",", ":")).encode()
    built = BoardBody(body, gzip.compress(body, compresslevel=6, mtime=0), f'W/"{hashlib.blake2b(body, digest_size=12).hexdigest()}"')
    cache.set(key, tuple(built), timeout=3600)
    return built


def pool_version(phase_id: int) -> int:
    return Pool.objects.filter(phase_id=phase_id).values_list("version", flat=True).first() or 0
