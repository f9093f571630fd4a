"""One sentence's sufficient statistics: per annotator, m2scorer's counts and their types.

The lattice depends on the source and the hypothesis only, so it is built once and
searched once per annotator. Per error type, a correct edit and a missed one count under
the gold edit's type; a proposed edit that matches nothing counts under the type of the
annotator's gold edit on the same span, else under :data:`UNANNOTATED` (system edits carry
no type of their own).
"""
from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from .compiled import build_lattice
from .lattice import Lattice
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


def sentence_counts(source: list[str], hypothesis: list[str], gold_sets: list[list[GoldEdit]], *, max_unchanged_words: int = 2, ignore_whitespace_casing: bool = False) -> list[list]:
    """Per annotator ``[correct, proposed, gold, {type: [tp, fp, fn]}]``."""
    if source == hypothesis:  # the lattice is one diagonal of unchanged tokens: no edit, whatever the gold
        return [[0, 0, len(golds), type_counts([], golds, [])] for golds in gold_sets]
    with collector_paused():
        return annotator_rows(build_lattice(source, hypothesis, max_unchanged_words), gold_sets, ignore_whitespace_casing)


def annotator_rows(lattice: Lattice, gold_sets: list[list[GoldEdit]], ignore_whitespace_casing: bool) -> list[list]:
    """:func:`sentence_counts` on a built lattice (Python or compiled), closed after use.
    A function of its own so that a Python lattice is freed before the collector resumes:
    otherwise the collector's next run traverses all its arcs, which costs a fifth of the
    sentence."""
    rows = []
    try:
        for golds in gold_sets:
            edits = system_edits(lattice, golds, ignore_whitespace_casing)
            pairs = matches_counted(edits, golds)
            rows.append([len(pairs), len(edits), len(golds), type_counts(edits, golds, pairs)])
    finally:
        lattice.close()
    return rows
