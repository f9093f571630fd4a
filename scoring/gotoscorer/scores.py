"""Difficulty weights and weighted scores (Gotou et al., 2020, section 3.2, eqs. 1-5).

Weight of gold chunk i in a pool of N systems, n_i of which got it right (GTS's
``ChunkInfo.weight_f``)::

    w_i = a - (n_i + b) / (N + c)        defaults a = 1, b = c = 0:  w_i = 1 - n_i / N

A system's outcome on chunk i puts the chunk in one of GTS's classes
(``gotoscorer.update_scores``): TP = modified and correct, FP = modified and wrong,
FN = wrong and (gold-modified or not modified), TN = not modified and correct; a chunk
that is modified, wrong and gold-modified counts as both FP and FN. Then
P = TP / (TP + FP), R = TP / (TP + FN), F_beta, and Acc = (TP + TN) / all, each class
summed with weights (0 when a denominator is 0).

Because the weights are affine in n_i, the weighted sum over any set X of chunks is
``a|X| - (sum_X n_i + b|X|) / (N + c)``: it needs only |X| and the integer sum of n_i
over X. We compute it as ``(a(N + c)|X| - S_X - b|X|) / (N + c)``: with the default
weights that is ``(N|X| - S_X) / N``, integers divided once, so each class total is
correctly rounded (GTS adds per-chunk floats and differs from it around 1e-13).
Keeping those integers makes every score an exact function of (counts, sums, N), so a
live pool and a fresh computation agree to the last bit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

CLASSES = ("tp", "fp", "fn", "tn")


@dataclass(frozen=True)
class WeightParams:
    """GTS's ``-a -b -c``: w = a - (n + b) / (N + c)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0


DEFAULT_PARAMS = WeightParams()


def difficulty_weights(n: np.ndarray, pool_size: int, params: WeightParams = DEFAULT_PARAMS) -> np.ndarray:
    """w_i for every gold chunk from the success counts n_i."""
    return params.a - (np.asarray(n, dtype=np.int64) + params.b) / (pool_size + params.c)


def class_masks(gold_modified: np.ndarray, modified: np.ndarray, correct: np.ndarray) -> np.ndarray:
    """A (4, chunks) bool array: membership of each chunk in TP, FP, FN, TN."""
    wrong = ~correct
    return np.stack([modified & correct, modified & wrong, wrong & (gold_modified | ~modified), ~modified & correct])


class OutcomeSums(NamedTuple):
    """Per class (TP, FP, FN, TN, then all chunks): how many chunks, and their sum of n_i."""

    counts: tuple[int, ...]
    n_sums: tuple[int, ...]


def outcome_sums(gold_modified: np.ndarray, modified: np.ndarray, correct: np.ndarray, n: np.ndarray) -> OutcomeSums:
    """The integers a member's scores depend on, from its outcome vectors and n."""
    masks = class_masks(gold_modified, modified, correct)
    n = np.asarray(n, dtype=np.int64)
    counts = [int(k) for k in masks.sum(axis=1)] + [len(n)]
    n_sums = [int(s) for s in masks.astype(np.int64) @ n] + [int(n.sum())]
    return OutcomeSums(tuple(counts), tuple(n_sums))


def class_totals(
    sums: OutcomeSums, pool_size: int, *, weighted: bool = True, params: WeightParams = DEFAULT_PARAMS
) -> list[float]:
    """TP, FP, FN, TN, all: weighted sums ``a|X| - (S_X + b|X|) / (N + c)``, or counts."""
    if not weighted:
        return list(sums.counts)
    denominator = pool_size + params.c
    return [
        (params.a * denominator * count - n_sum - params.b * count) / denominator
        for count, n_sum in zip(sums.counts, sums.n_sums)
    ]


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else 0.0


def scores_from_sums(
    sums: OutcomeSums,
    pool_size: int,
    *,
    weighted: bool = True,
    beta: float = 0.5,
    params: WeightParams = DEFAULT_PARAMS,
) -> dict:
    """``{"p", "r", "f", "accuracy", "tp", "fp", "fn", "tn"}`` as GTS's ``Score.get_PRFA``.

    ``f`` is F_beta; with beta = 0.5 it is GTS's F0.5 expression, ``1.25PR / (0.25P + R)``.
    """
    tp, fp, fn, tn, total = class_totals(sums, pool_size, weighted=weighted, params=params)
    p = _ratio(tp, tp + fp)
    r = _ratio(tp, tp + fn)
    b2 = beta * beta
    f = _ratio((1 + b2) * p * r, b2 * p + r)
    return {"p": p, "r": r, "f": f, "accuracy": _ratio(tp + tn, total), "tp": tp, "fp": fp, "fn": fn, "tn": tn}


def score_table(
    counts: np.ndarray,
    n_sums: np.ndarray,
    pool_size: int,
    *,
    weighted: bool = True,
    beta: float = 0.5,
    params: WeightParams = DEFAULT_PARAMS,
) -> dict[str, np.ndarray]:
    """:func:`scores_from_sums` for many members at once: ``counts`` and ``n_sums`` are
    ``(members, 5)`` integer arrays (TP, FP, FN, TN, all); one array per score key.

    The same IEEE operations in the same order as the scalar path, element by element,
    so every value is bit-identical to it (tests/scoring/test_gotoscorer_score_table.py);
    unweighted class totals stay integers, as there.
    """
    counts = np.asarray(counts, dtype=np.int64)
    if weighted:
        denominator = pool_size + params.c
        scale = params.a * denominator
        c = counts.astype(np.float64)
        totals = (scale * c - np.asarray(n_sums, dtype=np.int64) - params.b * c) / denominator
    else:
        totals = counts
    tp, fp, fn, tn, total = totals.T
    p = _ratios(tp, tp + fp)
    r = _ratios(tp, tp + fn)
    b2 = beta * beta
    f = _ratios((1 + b2) * p * r, b2 * p + r)
    return {"p": p, "r": r, "f": f, "accuracy": _ratios(tp + tn, total), "tp": tp, "fp": fp, "fn": fn, "tn": tn}


def _ratios(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """:func:`_ratio` elementwise: 0.0 where the denominator is 0 (or -0.0)."""
    out = np.zeros(len(numerator), dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def member_scores(
    gold_modified: np.ndarray,
    modified: np.ndarray,
    correct: np.ndarray,
    n: np.ndarray,
    pool_size: int,
    *,
    weighted: bool = True,
    beta: float = 0.5,
    params: WeightParams = DEFAULT_PARAMS,
) -> dict:
    """One pool member's scores from its outcome vectors, the success counts n and N."""
    return scores_from_sums(
        outcome_sums(gold_modified, modified, correct, n), pool_size, weighted=weighted, beta=beta, params=params
    )


def success_counts(correct_vectors) -> np.ndarray:
    """n_i: how many of the given systems got each gold chunk right."""
    vectors = list(correct_vectors)
    if not vectors:
        raise ValueError("a GoToScorer pool needs at least one system")
    return np.asarray(np.sum(np.stack(vectors), axis=0, dtype=np.int64))


def pool_scores(
    gold_modified: np.ndarray,
    members: dict,
    *,
    weighted: bool = True,
    beta: float = 0.5,
    params: WeightParams = DEFAULT_PARAMS,
) -> dict[str, dict]:
    """From scratch: every member's scores, ``members`` = ``{name: Outcomes}``."""
    n = success_counts(o.correct for o in members.values())
    return {
        name: member_scores(
            gold_modified, o.modified, o.correct, n, len(members), weighted=weighted, beta=beta, params=params
        )
        for name, o in members.items()
    }
