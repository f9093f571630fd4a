"""One sentence's sufficient statistics: per annotator, m2scorer's counts and their types.

The lattice depends on the source and the hypothesis only, so it is built once and
searched once per annotator. Per error type, a correct edit and a missed one count under
the gold edit's type; a proposed edit that matches nothing counts under the type of the
annotator's gold edit on the same span, else under :data:`UNANNOTATED` (system edits carry
no type of their own).

A line whose lattice is over the budget (:mod:`.budget`) is scored in parts
(:mod:`.parts`) and marked ``capped``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

from .budget import OverBudget
from .compiled import build_lattice
from .lattice import Lattice
from .parts import edits_in_parts
from .search import GoldEdit, SystemEdit, matches_counted, system_edits

UNANNOTATED = "unannotated"


def type_counts(edits: list[SystemEdit], golds: list[GoldEdit], pairs: list[tuple[int, int]]) -> dict[str, list[int]]:
    """``{type: [tp, fp, fn]}`` for one annotator."""
    counts: dict[str, list[int]] = {}
    matched_edits = {e for e, _ in pairs}
    matched_golds = {g for _, g in pairs}
    for _, g in pairs:
        counts.setdefault(golds[g].type, [0, 0, 0])[0] += 1
    for g, gold in enumerate(golds):
        if g not in matched_golds:
            counts.setdefault(gold.type, [0, 0, 0])[2] += 1
    span_types: dict[tuple[int, int], str] = {}
    for gold in golds:
        span_types.setdefault((gold.start, gold.end), gold.type)
    for e, edit in enumerate(edits):
        if e not in matched_edits:
            counts.setdefault(span_types.get((edit.start, edit.end), UNANNOTATED), [0, 0, 0])[1] += 1
    return counts


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector: a long sentence allocates hundreds of thousands
    of small arcs (none in a cycle), and the collections they trigger cost ten times the
    search itself."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class LineCounts(NamedTuple):
    rows: list[list]  # per annotator [correct, proposed, gold, {type: [tp, fp, fn]}]
    capped: bool  # over the lattice budget: scored in parts


def line_counts(
    source: list[str],
    hypothesis: list[str],
    gold_sets: list[list[GoldEdit]],
    *,
    max_unchanged_words: int = 2,
    ignore_whitespace_casing: bool = False,
) -> LineCounts:
    """The line's counts per annotator, and whether it was scored in parts."""
    if source == hypothesis:  # the lattice is one diagonal of unchanged tokens: no edit, whatever the gold
        return LineCounts([counted([], golds) for golds in gold_sets], False)
    with collector_paused():
        try:
            lattice = build_lattice(source, hypothesis, max_unchanged_words)
        except OverBudget:
            found = edits_in_parts(source, hypothesis, gold_sets, max_unchanged_words, ignore_whitespace_casing)
            return LineCounts([counted(edits, golds) for edits, golds in zip(found, gold_sets)], True)
        return LineCounts(annotator_rows(lattice, gold_sets, ignore_whitespace_casing), False)


def sentence_counts(
    source: list[str],
    hypothesis: list[str],
    gold_sets: list[list[GoldEdit]],
    *,
    max_unchanged_words: int = 2,
    ignore_whitespace_casing: bool = False,
) -> list[list]:
    """Per annotator ``[correct, proposed, gold, {type: [tp, fp, fn]}]``."""
    return line_counts(
        source,
        hypothesis,
        gold_sets,
        max_unchanged_words=max_unchanged_words,
        ignore_whitespace_casing=ignore_whitespace_casing,
    ).rows


def counted(edits: list[SystemEdit], golds: list[GoldEdit]) -> list:
    """m2scorer's ``[correct, proposed, gold, {type: [tp, fp, fn]}]`` of one annotator."""
    pairs = matches_counted(edits, golds)
    return [len(pairs), len(edits), len(golds), type_counts(edits, golds, pairs)]


def annotator_rows(lattice: Lattice, gold_sets: list[list[GoldEdit]], ignore_whitespace_casing: bool) -> list[list]:
    """:func:`line_counts` on a built lattice (Python or compiled), closed after use.
    A function of its own so that a Python lattice is freed before the collector resumes:
    otherwise the collector's next run traverses all its arcs, which costs a fifth of the
    sentence."""
    try:
        return [counted(system_edits(lattice, golds, ignore_whitespace_casing), golds) for golds in gold_sets]
    finally:
        lattice.close()
