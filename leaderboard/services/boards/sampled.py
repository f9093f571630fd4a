"""The memo of bootstrap-sampled scores (:mod:`leaderboard.insights.sampled` reads it),
written by the worker: the one that scores a submission keeps its vector from the
statistics still in memory (:func:`keep`), and a tie refresh keeps the vectors a board
still lacks (:func:`keep_board_vectors`) before it ranks, so no request ever writes it.
"""

from __future__ import annotations

import numpy as np
from django.db.models import Q

from scoring import metric_of
from scoring.bootstrap import DEFAULT_SAMPLES, DEFAULT_SEED, SampledScores

from ...insights.sampled import board_keys, computed, sampled_key, stored
from ...models import SampledScores as StoredSampledScores


def keep(submission_id: int, scored_at, path: str, options, vector: SampledScores) -> None:
    """Store the vector a refresh of a board ranked by ``path`` will look for."""
    key = {submission_id: sampled_key(scored_at, options, DEFAULT_SAMPLES, DEFAULT_SEED)}
    store({submission_id: vector}, key, path)


def keep_board_vectors(phase, rows: list[dict], path: str) -> int:
    """Compute and keep the vectors of the board's rows not kept yet (a new or rescored
    submission; none for a pool metric, whose weights change with the pool). Returns how
    many were made."""
    metric = metric_of(path)
    if metric is None or metric.pooled:
        return 0
    options = phase.scoring_options()
    keys = board_keys(rows, options, DEFAULT_SAMPLES, DEFAULT_SEED)
    found = stored(keys, path)
    missing = {sid: key for sid, key in keys.items() if sid not in found}
    if missing:
        store(computed(missing, path, options, DEFAULT_SAMPLES, DEFAULT_SEED), missing, path)
    return len(missing)


def store(made: dict[int, SampledScores | None], keys: dict[int, str], path: str) -> None:
    """Keep ``made`` (another process may have kept the same: ignored) and drop the same
    submissions' vectors of this path under other keys (rescored), so rows stay bounded."""
    if not made:
        return
    StoredSampledScores.objects.bulk_create(
        [
            StoredSampledScores(
                submission_id=sid,
                path=path,
                key=keys[sid],
                observed=None if found is None else found.observed,
                values=b"" if found is None else np.ascontiguousarray(found.values, dtype=np.float64).tobytes(),
            )
            for sid, found in made.items()
        ],
        ignore_conflicts=True,
    )
    stale = Q()
    for sid in made:
        stale |= Q(submission_id=sid) & ~Q(key=keys[sid])
    StoredSampledScores.objects.filter(stale, path=path).delete()
