"""Each board row's bootstrap-sampled scores, computed once across all processes.

A tie refresh pairs every row with the row above it (:mod:`.ties`). The expensive part
is not the pairing but each system's half: parsing its stored statistics (an ERRANT
row is ~800 KB of JSON) and multiplying the draw's sentence frequencies by its counts.
That half depends on the submission, the path, its scoring (``scored_at``, options) and
the draw (samples, seed) only, so it is kept in
:class:`~leaderboard.models.SampledScores`, a memo of stored results like a cache: a
refresh reads ~8 KB a row in one query and computes, from the statistics, only rows
never sampled before (a new or rescored submission). Pool metrics are not kept here:
their weights change with the pool. This module only reads the memo; the worker writes
it (:mod:`leaderboard.services.boards.sampled`).
"""

from __future__ import annotations

import hashlib

import numpy as np

from scoring import known_metric_of, metric_of, resampling
from scoring.bootstrap import DEFAULT_SAMPLES, DEFAULT_SEED, SampledScores, sampled_scores

from ..models import MetricResult
from ..models import SampledScores as StoredSampledScores


def sampled_key(scored_at, options, samples: int, seed: int) -> str:
    """The digest naming one vector of a submission and path (``scored_at`` as a board row
    gives it, ISO 8601, or the datetime it is made from)."""
    when = scored_at.isoformat() if hasattr(scored_at, "isoformat") else scored_at
    return hashlib.sha256(repr((when, repr(options), samples, seed)).encode()).hexdigest()


def board_sampled_scores(
    rows: list[dict], path: str, options, *, samples: int, seed: int
) -> dict[int, SampledScores | None]:
    """``{submission_id: SampledScores}`` for the rows with a value (None: their statistics
    cannot give ``path``): the kept ones, and the missing ones computed here and not kept
    (the worker keeps them first: :func:`leaderboard.services.boards.sampled.keep_board_vectors`)."""
    keys = board_keys(rows, options, samples, seed)
    found = stored(keys, path)
    missing = {sid: key for sid, key in keys.items() if sid not in found}
    if missing:
        found.update(computed(missing, path, options, samples, seed))
    return found


def board_keys(rows: list[dict], options, samples: int, seed: int) -> dict[int, str]:
    """``{submission_id: key}`` of the rows with a value."""
    return {
        r["submission_id"]: sampled_key(r.get("scored_at"), options, samples, seed)
        for r in rows
        if r["value"] is not None
    }


def fresh_vector(path: str, statistics: dict, options) -> SampledScores | None:
    """A just-scored submission's vector of ``path`` from the statistics still in memory
    (``{metric: statistics}``), so the worker that scored it keeps it (:func:`keep`) and no
    refresh ever parses them back: None for a pool metric or a path they cannot give."""
    metric = metric_of(path)
    if metric is None or metric.pooled or metric.name not in statistics:
        return None
    found = resampling(path, statistics[metric.name], options)
    return None if found is None else sampled_scores(found, path, samples=DEFAULT_SAMPLES, seed=DEFAULT_SEED)


def stored(keys: dict[int, str], path: str) -> dict[int, SampledScores | None]:
    """The kept vectors of these submissions under these keys, in one query."""
    if not keys:
        return {}
    rows = StoredSampledScores.objects.filter(submission_id__in=list(keys), path=path, key__in=set(keys.values()))
    return {
        sid: None if observed is None else SampledScores(observed, np.frombuffer(values, dtype=np.float64))
        for sid, key, observed, values in rows.values_list("submission_id", "key", "observed", "values")
        if keys[sid] == key
    }


def computed(keys: dict[int, str], path: str, options, samples: int, seed: int) -> dict[int, SampledScores | None]:
    """The vectors of these submissions, from their stored statistics (the costly read);
    a submission without statistics of the metric gets none and is not kept."""
    statistics = MetricResult.objects.filter(
        submission_id__in=list(keys), metric=known_metric_of(path).name
    ).values_list("submission_id", "statistics")
    made = {}
    for sid, stats in statistics:
        found = resampling(path, stats, options)
        made[sid] = None if found is None else sampled_scores(found, path, samples=samples, seed=seed)
    return made
