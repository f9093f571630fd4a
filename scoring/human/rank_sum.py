"""The one-sided Wilcoxon rank-sum (Mann-Whitney U) test, in pure Python.

Direct assessment decides two things with it, as WMT and Appraise do: whether an
annotator rated the degraded copies lower than their originals (quality control), and
where one cluster of systems ends (a system's z-scores against the next one's). It gives
SciPy's ``mannwhitneyu(higher, lower, alternative="greater")`` p-value (method "auto"):
the exact distribution of U when either sample has at most 8 values and there are no
ties, else the normal approximation with the tie correction and a continuity correction.
Pure Python, so the library's ``--ratings`` path needs no SciPy; the cost is O(n log n),
and the exact path O(m^2 n) additions for samples of m <= 8 and n values (the counts of
U are the coefficients of the Gaussian binomial [m + n choose m]).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

EXACT_MAX = 8  # SciPy's bound for the exact distribution


def u_statistic(higher: Sequence[float], lower: Sequence[float]) -> float:
    """U of ``higher``: pairs where its value is larger, ties counting one half (by mid-ranks)."""
    values = sorted((v, i) for i, v in enumerate(list(higher) + list(lower)))
    ranks = [0.0] * len(values)
    start = 0
    while start < len(values):
        end = start
        while end + 1 < len(values) and values[end + 1][0] == values[start][0]:
            end += 1
        for k in range(start, end + 1):
            ranks[values[k][1]] = (start + end) / 2 + 1
        start = end + 1
    n1 = len(higher)
    return sum(ranks[:n1]) - n1 * (n1 + 1) / 2


@lru_cache(maxsize=256)
def u_counts(m: int, n: int) -> tuple[int, ...]:
    """How many orderings of m + n distinct values give U = 0, 1, ..., m n (symmetric in
    m and n): the product over i = 1..m of (1 - q^(n+i)) / (1 - q^i), in integers."""
    m, n = min(m, n), max(m, n)
    counts = [1] + [0] * (m * n)
    for i in range(1, m + 1):
        for k in range(len(counts) - 1, n + i - 1, -1):  # times (1 - q^(n+i))
            counts[k] -= counts[k - n - i]
        for k in range(i, len(counts)):  # divided by (1 - q^i)
            counts[k] += counts[k - i]
    return tuple(counts)


def arrangements(n1: int, n2: int, u: int) -> int:
    """How many orderings of n1 + n2 distinct values give the first sample U = u."""
    return u_counts(n1, n2)[u] if 0 <= u <= n1 * n2 else 0


def tie_sum(values: Sequence[float]) -> int:
    counts: dict[float, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return sum(t**3 - t for t in counts.values())


def rank_sum_p(higher: Sequence[float], lower: Sequence[float]) -> float:
    """P-value of "``higher`` tends to exceed ``lower``" (1.0 when either is empty or
    every value is the same: nothing tells them apart)."""
    n1, n2 = len(higher), len(lower)
    if n1 == 0 or n2 == 0:
        return 1.0
    u = u_statistic(higher, lower)
    ties = tie_sum(list(higher) + list(lower))
    if min(n1, n2) <= EXACT_MAX and ties == 0:
        at_least = sum(u_counts(n1, n2)[math.ceil(u) :])
        return at_least / math.comb(n1 + n2, n1)
    n = n1 + n2
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    z = (u - n1 * n2 / 2 - 0.5) / math.sqrt(variance)
    return 0.5 * math.erfc(z / math.sqrt(2))


def best_p(n: int) -> float:
    """The smallest p-value ``n`` originals against their ``n`` degraded copies can give
    (every original rated higher than every copy): below the threshold or nobody is trusted."""
    if n == 0:
        return 1.0
    return rank_sum_p([float(k + n) for k in range(n)], [float(k) for k in range(n)])


def neighbour_clusters(samples: dict[str, list[float]], alpha: float = 0.05) -> dict[str, int]:
    """``{system: cluster}``, 1 = best: systems by their mean, a new cluster after a system
    whose values significantly exceed the next one's (p < ``alpha``), as WMT's DA."""
    order = sorted(samples, key=lambda s: (-sum(samples[s]) / max(1, len(samples[s])), s))
    clusters, cluster = {}, 1
    for i, system in enumerate(order):
        if i and rank_sum_p(samples[order[i - 1]], samples[system]) < alpha:
            cluster += 1
        clusters[system] = cluster
    return clusters
