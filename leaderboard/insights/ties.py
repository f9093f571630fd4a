"""Statistical ties on a leaderboard: paired bootstrap of each system against the one above.

Koehn (2004) paired bootstrap resampling over sentences, on the per-sentence counts
stored for ERRANT (``scoring.bootstrap``): each system is compared with the system
ranked directly above it, and a system whose difference is not significant (p >= alpha)
joins that system's group. Only ERRANT P/R/F paths can be resampled from the stored
counts alone; the reference choice is ERRANT's greedy corpus choice, kept fixed inside
the samples (``scoring.bootstrap``'s module note).
"""
from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from scoring.bootstrap import DEFAULT_SAMPLES, DEFAULT_SEED, paired_bootstrap, prf_of_counts
from scoring.metrics.errant import chosen_counts

ALPHA = 0.05
BOOTSTRAPPABLE = re.compile(r"^errant\.(cs|ds|dt|cse)\.(p|r|f)$")


def can_bootstrap(path: str) -> bool:
    return bool(BOOTSTRAPPABLE.match(path))


def score_function(path: str, beta: float) -> Callable[[np.ndarray], np.ndarray]:
    """Vectorised P, R or F-beta of summed (tp, fp, fn) rows, ERRANT's 0/0 conventions."""
    column = "prf".index(BOOTSTRAPPABLE.match(path).group(2))
    return lambda totals: prf_of_counts(totals, beta)[column]


def sentence_counts(statistics: dict, path: str, beta: float) -> np.ndarray:
    """(sentences, 3) matrix of tp, fp, fn under the greedy corpus reference choice."""
    mode = BOOTSTRAPPABLE.match(path).group(1)
    return np.asarray(chosen_counts(statistics, mode, beta), dtype=float).reshape(-1, 3)


def tie_groups(
    rows: list[dict],
    statistics: dict[int, dict],
    path: str,
    beta: float,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED,
    alpha: float = ALPHA,
) -> dict[int, dict]:
    """``{submission_id: {"group", "p_value", "delta"}}`` for ranked ``rows``.

    ``statistics`` maps submission ids to their stored ERRANT statistics. Rows without a
    value or without statistics get no group. Groups are numbered from 1 down the board.
    """
    score = score_function(path, beta)
    result: dict[int, dict] = {}
    above, group = None, 0
    for row in rows:
        sid = row["submission_id"]
        if row.get("value") is None or sid not in statistics:
            continue
        counts = sentence_counts(statistics[sid], path, beta)
        if above is None:
            group += 1
            result[sid] = {"group": group, "p_value": None, "delta": None}
        else:
            test = paired_bootstrap(above, counts, score, samples=samples, seed=seed)
            if test.p_value < alpha:
                group += 1
            result[sid] = {"group": group, "p_value": test.p_value, "delta": test.delta}
        above = counts
    return result
