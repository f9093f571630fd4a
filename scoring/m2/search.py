"""The system's edit set against one annotator: m2scorer 3.2's weighted shortest path.

Dahlmeier & Ng (2012, section 3) give lattice edges that match a gold edit a large
negative weight and every other edit a small extra cost, so that the shortest path
through the lattice is the edit sequence that matches the gold standard most, and among
those the one with the fewest edits. m2scorer weighs a matched arc ``-len(E)`` (the
length of its edge list), adds 0.001 to an unmatched arc once per entry in that list,
matches insertions at one offset with a two-pointer walk of its own (reproduced in
:func:`insertion_weights`), and runs Bellman-Ford over the edge list.

Bellman-Ford is the slow part there (rounds over every arc). Here the distances come
from one pass in topological order, which gives the same floating-point values, since
each is the minimum over in-arcs of the same sums. Which predecessor Bellman-Ford keeps
when two arcs offer the same distance depends on *when* it saw each offer (its round and
the arc's place in the edge list); only offers of the final distance can be kept, so
that timing is replayed on the arcs that offer it (:func:`best_predecessors`).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import compress

import numpy as np

from .lattice import EPSILON, LENGTH, POSITIONS, START, WEIGHT, Lattice, edit_end

TIE = 1e-6  # distinct path costs differ by at least EPSILON; equal ones by rounding only


@dataclass(frozen=True)
class GoldEdit:
    """One annotator's edit as m2scorer reads it: span, original text, accepted corrections."""

    start: int
    end: int
    original: str
    corrections: tuple[str, ...]
    type: str


@dataclass(frozen=True)
class SystemEdit:
    start: int
    end: int
    original: str
    correction: str


def matches(lattice: Lattice, u: int, w: int, span: tuple[int, int], gold: GoldEdit) -> bool:
    if span != (gold.start, gold.end):
        return False
    original, correction = lattice.tokens(u, w)
    return original == gold.original and correction in gold.corrections


def arcs_by_span(lattice: Lattice, spans: set[tuple[int, int]]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """The arcs whose edit has one of ``spans``, each listed once per entry, sorted (m2scorer's ``M``)."""
    ends = {end for _, end in spans}
    found: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for w in lattice.vertices:
        end = edit_end(w, lattice.width)
        if end not in ends:
            continue
        for u, arc in lattice.arcs[w].items():
            span = (arc[START], end)
            if span in spans:
                found.setdefault(span, []).extend([(u, w)] * len(arc[POSITIONS]))
    for entries in found.values():
        entries.sort()
    return found


def insertion_weights(lattice: Lattice, span: tuple[int, int], entries: list[tuple[int, int]], golds: list[GoldEdit], weights: dict[tuple[int, int], float]) -> None:
    """m2scorer's weights for the arcs of one insertion offset: entries are taken from both
    ends in turn, each matched against the gold insertions still open on its side, and a
    match skips (and penalises) the entries that cannot follow it."""
    size = lattice.size
    for u, w in entries:
        weights[(u, w)] = float(lattice.arcs[w][u][LENGTH])
    left, right, current = 0, len(entries) - 1, 0
    gold_left, gold_right = 0, len(golds) - 1
    while left <= right:
        u, w = entries[current]
        order = range(gold_left, gold_right + 1) if current == left else range(gold_right, gold_left - 1, -1)
        matched = False
        for g in order:
            if matches(lattice, u, w, span, golds[g]):
                matched = True
                weights[(u, w)] = -size
                if current == left:
                    gold_left = g + 1
                else:
                    gold_right = g - 1
                break
        if not matched and lattice.changes(u, w):
            weights[(u, w)] += EPSILON
        if matched and current == left:
            left += 1
            while left < len(entries) and entries[left][0] != entries[current][1]:
                weights[entries[left]] += EPSILON
                left += 1
            current = left
        elif matched:
            right -= 1
            while right >= 0 and entries[right][1] != entries[current][0]:
                weights[entries[right]] += EPSILON
                right -= 1
            current = right
        elif current == left:
            left += 1
            current = right
        else:
            right -= 1
            current = left


def gold_weights(lattice: Lattice, golds: list[GoldEdit]) -> dict[int, dict[int, float]]:
    """``{w: {u: weight}}`` for the arcs whose weight differs from their default for this
    annotator (the arcs of gold spans)."""
    by_span: dict[tuple[int, int], list[GoldEdit]] = {}
    for gold in golds:
        by_span.setdefault((gold.start, gold.end), []).append(gold)
    weights: dict[tuple[int, int], float] = {}
    for span, entries in arcs_by_span(lattice, set(by_span)).items():
        if span[0] == span[1]:
            insertion_weights(lattice, span, entries, by_span[span], weights)
            continue
        for u, w in dict.fromkeys(entries):
            if any(matches(lattice, u, w, span, gold) for gold in by_span[span]):
                weights[(u, w)] = -lattice.size
    by_target: dict[int, dict[int, float]] = {}
    for (u, w), weight in weights.items():
        by_target.setdefault(w, {})[u] = weight
    return by_target


def best_predecessors(lattice: Lattice, weights: dict) -> dict[int, int]:
    """The predecessor of each vertex on the path Bellman-Ford keeps (m2scorer's ``path``).

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
            offering = compress(into, map((best + TIE).__ge__, offers))
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


def system_edits(lattice: Lattice, golds: list[GoldEdit], ignore_whitespace_casing: bool = False) -> list[SystemEdit]:
    """The edits on m2scorer's chosen path, in sentence order."""
    if lattice.end == 0 or not lattice.vertices:
        return []
    predecessor = best_predecessors(lattice, gold_weights(lattice, golds))
    edits = []
    w = lattice.end
    while w in predecessor:
        u = predecessor[w]
        if lattice.changes(u, w):
            original, correction = lattice.tokens(u, w)
            edits.append(SystemEdit(lattice.arcs[w][u][START], edit_end(w, lattice.width), original, correction))
        w = u
    edits.reverse()
    if ignore_whitespace_casing:
        edits = [e for e in edits if not same_ignoring_whitespace_casing(e.original, e.correction)]
    return edits


def same_ignoring_whitespace_casing(a: str, b: str) -> bool:
    return a.replace(" ", "").lower() == b.replace(" ", "").lower()


def matches_counted(edits: list[SystemEdit], golds: list[GoldEdit]) -> list[tuple[int, int]]:
    """(system edit, gold edit) index pairs counted correct, as m2scorer's ``matchSeq``
    counts them: system edits in sentence order against gold edits in file order, never
    looking back (a gold edit listed twice can be counted twice for one system edit)."""
    pairs = []
    last = 0
    for e, edit in enumerate(edits):
        for g in range(last, len(golds)):
            gold = golds[g]
            if (edit.start, edit.end, edit.original) == (gold.start, gold.end, gold.original) and edit.correction in gold.corrections:
                pairs.append((e, g))
                last = g + 1
    return pairs
