"""Clusters of rated systems by WMT23's rule (Appraise's ``ComputeWMT23Results``).

1. Systems ordered by their mean z-score, best first (ties by name).
2. Each system's score on a segment (an item) is the average of its raw ratings there,
   over every annotator and repeat, so several annotators of one item give one value,
   not several independent ones.
3. System A (above) beats system B (below) when a one-sided Mann-Whitney U test on their
   segment averages over the segments both were rated on gives p < ``alpha``
   (:func:`scoring.human.rank_sum.rank_sum_p`: SciPy's exact/asymptotic switch).
4. Walking down the order, a cluster ends after the system where the fewest wins of the
   cluster's members (systems below each that it beats) equal the number of systems left
   below: every member then beats all of them.

``neighbour_clusters`` (:mod:`.rank_sum`), the rule used before, tests only neighbours on
every rating as if independent; it stays available under the name ``neighbours``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .rank_sum import rank_sum_p

WMT23, NEIGHBOURS = "wmt23", "neighbours"
CLUSTER_RULES = (WMT23, NEIGHBOURS)


def segment_means(rows: Sequence[tuple[str, str, float]]) -> dict[str, dict[str, float]]:
    """``{system: {item: mean raw rating}}`` of ``(system, item, value)`` rows."""
    sums: dict[str, dict[str, list[float]]] = {}
    for system, item, value in rows:
        entry = sums.setdefault(system, {}).setdefault(item, [0.0, 0.0])
        entry[0] += value
        entry[1] += 1
    return {s: {item: total / n for item, (total, n) in items.items()} for s, items in sums.items()}


def beats(upper: Mapping[str, float], lower: Mapping[str, float], alpha: float) -> bool:
    """Whether ``upper``'s segment averages exceed ``lower``'s on the segments both share."""
    shared = sorted(set(upper) & set(lower))
    if not shared:
        return False
    return rank_sum_p([upper[i] for i in shared], [lower[i] for i in shared]) < alpha


def wins_below(order: Sequence[str], segments: Mapping[str, Mapping[str, float]], alpha: float) -> dict[str, int]:
    """Per system, how many systems below it in ``order`` it beats."""
    return {
        system: sum(beats(segments[system], segments[other], alpha) for other in order[i + 1 :])
        for i, system in enumerate(order)
    }


def wmt23_clusters(
    order: Sequence[str], segments: Mapping[str, Mapping[str, float]], alpha: float = 0.05
) -> dict[str, int]:
    """``{system: cluster}``, 1 = best, for systems in ``order`` (best first by mean z)."""
    wins = wins_below(order, segments, alpha)
    clusters: dict[str, int] = {}
    cluster, members = 1, []
    for i, system in enumerate(order):
        members.append(system)
        clusters[system] = cluster
        if min(wins[m] for m in members) == len(order) - i - 1:
            cluster, members = cluster + 1, []
    return clusters
