"""Statistical ties on a leaderboard: paired bootstrap of each system against the one above.

Koehn (2004) paired bootstrap resampling over sentences, on the per-sentence statistics
stored for the metric ranked by (``scoring.bootstrap``): each system is compared with the
system ranked directly above it, and a system whose difference is not significant
(p >= alpha) joins that system's group. A path can be resampled when its metric declares
it (``Metric.resampled``); choices made on the whole corpus (ERRANT's greedy reference,
GLEU's drawn references) stay fixed inside the samples, and so do a pool metric's
weights (GoToScorer: the phase's n_i and N, given as ``pool``).
"""

from __future__ import annotations

from collections.abc import Callable

from scoring import PoolCounts, Resampling, ScoringOptions, can_resample, resampling
from scoring.bootstrap import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    SampledScores,
    paired_bootstrap_of,
    paired_bootstrap_of_sampled,
)

ALPHA = 0.05


def can_bootstrap(path: str) -> bool:
    return can_resample(path)


def tie_groups(
    rows: list[dict],
    statistics: dict[int, dict],
    path: str,
    options: ScoringOptions,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    alpha: float = ALPHA,
    pool: PoolCounts | None = None,
    sampled: Callable[[int], SampledScores | None] | None = None,
) -> dict[int, dict]:
    """``{submission_id: {"group", "p_value", "delta"}}`` for ranked ``rows``.

    ``statistics`` maps submission ids to their stored statistics of the metric of
    ``path``. Rows without a value or without statistics that give ``path`` get no
    group. Groups are numbered from 1 down the board. ``sampled``, when given, gives a
    submission's :class:`~scoring.bootstrap.SampledScores` of ``samples`` and ``seed``
    instead (``statistics`` unused): the same test, from each system's half computed once.
    """
    result: dict[int, dict] = {}
    above: SampledScores | Resampling | None = None
    current: SampledScores | Resampling | None
    group = 0
    for row in rows:
        sid = row["submission_id"]
        if row.get("value") is None:
            current = None
        elif sampled is not None:
            current = sampled(sid)
        else:
            current = resampling(path, statistics[sid], options, pool) if sid in statistics else None
        if current is None:
            continue
        if above is None:
            group += 1
            result[sid] = {"group": group, "p_value": None, "delta": None}
        else:
            if isinstance(above, SampledScores) and isinstance(current, SampledScores):  # given sampled
                test = paired_bootstrap_of_sampled(above, current, samples=samples, seed=seed)
            else:
                test = paired_bootstrap_of(above, current, path, samples=samples, seed=seed)
            if test.p_value < alpha:
                group += 1
            result[sid] = {"group": group, "p_value": test.p_value, "delta": test.delta}
        above = current
    return result
