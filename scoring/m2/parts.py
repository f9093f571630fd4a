"""A line over the M2 budget (:mod:`.budget`), scored by m2scorer's method part by part.

Each part is scored exactly as m2scorer scores a sentence (the lattice of its optimal
alignments, merged edits, the gold-weighted shortest path and its tie rules); only the
line is cut first. The cuts follow one optimal alignment of the whole line
(:func:`.compiled.alignment_path`): a part over the budget is cut in two at a cell of that
alignment in its middle half, preferring a cell inside no gold edit of any annotator,
then one between unchanged tokens (:func:`cut`), then the middle. So a system edit never
crosses a cut, and a gold edit that crosses one cannot be matched (it counts as missed);
the edits found are then counted against the whole line's gold edits as for any line.
Each part shrinks by a quarter at least, so a line of n + m tokens costs at most about
log(n + m) / log(4/3) rounds of attempts, none of them over the budget.
"""

from __future__ import annotations

import dataclasses

from .budget import OverBudget
from .compiled import alignment_path, build_lattice
from .search import GoldEdit, SystemEdit, system_edits

Cell = tuple[int, int]


def edits_in_parts(
    source: list[str],
    target: list[str],
    gold_sets: list[list[GoldEdit]],
    max_unchanged_words: int,
    ignore_whitespace_casing: bool,
) -> list[list[SystemEdit]]:
    """Per annotator, the system edits of the line, in sentence order."""
    path = alignment_path(source, target)
    crossed = [False] * (len(source) + 1)  # crossed[i]: a gold edit spans offset i (start < i < end)
    for golds in gold_sets:
        for gold in golds:
            crossed[gold.start + 1 : gold.end] = [True] * max(gold.end - gold.start - 1, 0)
    found: list[list[SystemEdit]] = [[] for _ in gold_sets]

    def score(a: int, b: int, sets: list[list[GoldEdit]]) -> None:
        (i0, j0), (i1, j1) = path[a], path[b]
        if source[i0:i1] == target[j0:j1]:
            return
        try:
            lattice = build_lattice(source[i0:i1], target[j0:j1], max_unchanged_words, j0 if i0 == 0 else None)
        except OverBudget:
            c = cut(path, a, b, source, target, crossed)
            halves = [divided(golds, path, c) for golds in sets]
            score(a, c, [left for left, _ in halves])
            score(c, b, [right for _, right in halves])
            return
        try:
            for k, golds in enumerate(sets):
                local = [dataclasses.replace(g, start=g.start - i0, end=g.end - i0) for g in golds]
                found[k].extend(
                    dataclasses.replace(e, start=e.start + i0, end=e.end + i0)
                    for e in system_edits(lattice, local, ignore_whitespace_casing)
                )
        finally:
            lattice.close()

    score(0, len(path) - 1, gold_sets)
    return found


def cut(path: list[Cell], a: int, b: int, source: list[str], target: list[str], crossed: list[bool]) -> int:
    """Where the part from ``path[a]`` to ``path[b]`` is cut (an index into ``path``).

    Best is a cell with two unchanged tokens on either side: an arc across it would hold
    at least three, more than m2scorer merges, so the cut changes no edit there."""
    quarter = max((b - a) // 4, 1)
    middle = (a + b) / 2

    def unchanged(c: int) -> bool:
        """The step from ``path[c - 1]`` to ``path[c]`` passes an unchanged token."""
        (i, j) = path[c]
        return path[c - 1] == (i - 1, j - 1) and source[i - 1] == target[j - 1]

    def badness(c: int) -> tuple:
        before = sum(1 for k in (c, c - 1) if k > a and unchanged(k))
        after = sum(1 for k in (c + 1, c + 2) if k <= b and unchanged(k))
        return crossed[path[c][0]], -min(before, after), -(before + after), abs(c - middle)

    return min(range(a + quarter, b - quarter + 1), key=badness)


def divided(golds: list[GoldEdit], path: list[Cell], c: int) -> tuple[list[GoldEdit], list[GoldEdit]]:
    """The gold edits of either side of the cut at ``path[c]``; one that crosses it is in
    neither. An insertion at the cut's offset goes where the row of that offset lies: to
    the left when the alignment reaches the cut by an insertion, else to the right."""
    at = path[c][0]
    by_insertion = path[c - 1][0] == at
    left, right = [], []
    for gold in golds:
        insertion_here = gold.start == gold.end == at
        if gold.end < at or (gold.end == at and (not insertion_here or by_insertion)):
            left.append(gold)
        elif gold.start > at or (gold.start == at and not (insertion_here and by_insertion)):
            right.append(gold)
    return left, right
