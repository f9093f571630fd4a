"""The Python engine's path search: m2scorer 3.2's Bellman-Ford path, replayed in one pass.

Bellman-Ford is the slow part of m2scorer (rounds over every arc). Here the distances come
from one pass in topological order, which gives the same floating-point values, since
each is the minimum over in-arcs of the same sums. Which predecessor Bellman-Ford keeps
when two arcs offer the same distance depends on *when* it saw each offer (its round and
the arc's place in the edge list); only offers of the final distance can be kept, so
that timing is replayed on the arcs that offer it (:func:`best_predecessors`).
``lattice_kernel.c`` runs the same steps compiled.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import compress

import numpy as np

from .arcs import POSITIONS, WEIGHT

TIE = 1e-6  # distinct path costs differ by at least EPSILON; equal ones by rounding only


def best_predecessors(lattice, weights: dict[int, dict[int, float]]) -> dict[int, int]:
    """The predecessor of each vertex on the path Bellman-Ford keeps (m2scorer's ``path``),
    given ``{w: {u: weight}}`` for the arcs whose weight is not their default.

    Distances are exact minima in topological order. Among in-arcs offering the final
    distance (up to rounding of equal costs), Bellman-Ford keeps the last strict
    improvement, i.e. the first offer of the final value in its scan order: round r,
    entry q of the edge list. An offer along u -> w happens at the first scan of one of
    the arc's entries after u last improved; the history of improvements is replayed per
    vertex over those arcs.
    """
    arcs = lattice.arcs
    scan = lattice.size + 1  # time = round * scan + entry position
    last_time = max(len(lattice.vertices) - 1, 0) * scan + scan - 1  # m2scorer runs |V| - 1 rounds
    distance = {0: 0.0}
    gathered = np.zeros(lattice.end + 1)  # the same distances, by cell, for the wide vertices' gathers
    wide = lattice.wide_in_arcs
    history: dict[int, list[tuple[int, float, int]]] = {0: [(scan - 1, 0.0, -1)]}
    for w in lattice.vertices[1:]:
        into = arcs[w]
        special = weights.get(w)
        if w in wide:
            best, offering = wide_offers(wide[w], gathered, special)
        else:
            if special is None:
                offers = [distance[u] + arc[WEIGHT] for u, arc in into.items()]
            else:
                offers = [distance[u] + special.get(u, arc[WEIGHT]) for u, arc in into.items()]
            best = min(offers)
            offering = list(compress(into, map((best + TIE).__ge__, offers)))
        distance[w] = gathered[w] = best
        timed = []
        for u in offering:
            arc = into[u]
            weight = arc[WEIGHT] if special is None else special.get(u, arc[WEIGHT])
            positions = arc[POSITIONS]
            for time_u, value_u, _ in history[u]:
                position_u = time_u % scan
                start = time_u - position_u
                after = bisect_right(positions, position_u)  # positions ascend: the next entry is the first scanned
                time = start + positions[after] if after < len(positions) else start + scan + positions[0]
                if time <= last_time:
                    timed.append((time, value_u + weight, u))
        if len(timed) > 1:
            timed.sort()
            kept = []
            current = float("inf")
            for step in timed:
                if step[1] < current:
                    kept.append(step)
                    current = step[1]
            timed = kept
        history[w] = timed
    return {w: steps[-1][2] for w, steps in history.items() if w != 0}


def wide_offers(in_arcs: tuple, gathered: np.ndarray, special: dict | None) -> tuple[float, list[int]]:
    """The best distance offered to a vertex with many in-arcs, and the sources u that
    offer it up to TIE: one numpy gather and sum (the same float additions) instead of a
    Python loop over hundreds of arcs."""
    sources, cells, default = in_arcs
    weights = default
    if special is not None:
        weights = default.copy()
        for u, weight in special.items():
            weights[sources.index(u)] = weight
    offers = gathered[cells] + weights
    best = float(offers.min())
    return best, [sources[k] for k in np.flatnonzero(offers <= best + TIE)]


def shortest_path(lattice, weights: dict[tuple[int, int], float]) -> list[tuple[int, int]]:
    """The arcs (u, w) of the path Bellman-Ford keeps through ``lattice`` (a
    :class:`.lattice.Lattice`), first to last, given the weights that differ from the
    arcs' defaults."""
    by_target: dict[int, dict[int, float]] = {}
    for (u, w), weight in weights.items():
        by_target.setdefault(w, {})[u] = weight
    predecessor = best_predecessors(lattice, by_target)
    path = []
    w = lattice.end
    while w in predecessor:
        u = predecessor[w]
        path.append((u, w))
        w = u
    path.reverse()
    return path
