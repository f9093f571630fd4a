"""The system's edit set against one annotator: m2scorer 3.2's weighted shortest path.

Dahlmeier & Ng (2012, section 3) give lattice edges that match a gold edit a large
negative weight and every other edit a small extra cost, so that the shortest path
through the lattice is the edit sequence that matches the gold standard most, and among
those the one with the fewest edits. m2scorer weighs a matched arc ``-len(E)`` (the
length of its edge list), adds 0.001 to an unmatched arc once per entry in that list,
matches insertions at one offset with a two-pointer walk of its own (reproduced in
:func:`insertion_weights`), and runs Bellman-Ford over the edge list.

Here only the arcs of gold spans get weights of their own (:func:`gold_weights`); the
lattice, Python (:class:`.lattice.Lattice`, searched by :mod:`.path`) or compiled
(:class:`.compiled.CompiledLattice`), finds the path with the same tie-breaking.
"""

from __future__ import annotations

from dataclasses import dataclass

from .lattice import EPSILON, Lattice


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


def insertion_weights(
    lattice: Lattice,
    span: tuple[int, int],
    entries: list[tuple[int, int]],
    golds: list[GoldEdit],
    weights: dict[tuple[int, int], float],
) -> None:
    """m2scorer's weights for the arcs of one insertion offset: entries are taken from both
    ends in turn, each matched against the gold insertions still open on its side, and a
    match skips (and penalises) the entries that cannot follow it."""
    size = lattice.size
    for u, w in entries:
        weights[(u, w)] = float(lattice.length(u, w))
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
        left, right, current = _next_entry(entries, weights, left, right, current, matched)


def _next_entry(
    entries: list[tuple[int, int]],
    weights: dict[tuple[int, int], float],
    left: int,
    right: int,
    current: int,
    matched: bool,
) -> tuple[int, int, int]:
    """(left, right, current) after one entry: a match skips and penalises the entries that
    cannot follow it on its side; otherwise the other end takes its turn."""
    if matched and current == left:
        left += 1
        while left < len(entries) and entries[left][0] != entries[current][1]:
            weights[entries[left]] += EPSILON
            left += 1
        return left, right, left
    if matched:
        right -= 1
        while right >= 0 and entries[right][1] != entries[current][0]:
            weights[entries[right]] += EPSILON
            right -= 1
        return left, right, right
    if current == left:
        return left + 1, right, right
    return left, right - 1, left


def gold_weights(lattice: Lattice, golds: list[GoldEdit]) -> dict[tuple[int, int], float]:
    """``{(u, w): weight}`` for the arcs whose weight differs from their default for this
    annotator (the arcs of gold spans)."""
    by_span: dict[tuple[int, int], list[GoldEdit]] = {}
    for gold in golds:
        by_span.setdefault((gold.start, gold.end), []).append(gold)
    weights: dict[tuple[int, int], float] = {}
    if not by_span:
        return weights
    for span, entries in lattice.span_arcs(set(by_span)).items():
        if span[0] == span[1]:
            insertion_weights(lattice, span, entries, by_span[span], weights)
            continue
        for u, w in dict.fromkeys(entries):
            if any(matches(lattice, u, w, span, gold) for gold in by_span[span]):
                weights[(u, w)] = -lattice.size
    return weights


def system_edits(lattice: Lattice, golds: list[GoldEdit], ignore_whitespace_casing: bool = False) -> list[SystemEdit]:
    """The edits on m2scorer's chosen path, in sentence order."""
    if lattice.empty:
        return []
    edits = []
    for u, w in lattice.edit_arcs(gold_weights(lattice, golds)):
        original, correction = lattice.tokens(u, w)
        edits.append(SystemEdit(lattice.start(u, w), lattice.end_of(u, w), original, correction))
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
            if (edit.start, edit.end, edit.original) == (
                gold.start,
                gold.end,
                gold.original,
            ) and edit.correction in gold.corrections:
                pairs.append((e, g))
                last = g + 1
    return pairs
