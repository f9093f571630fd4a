"""Gold edit sets per annotator, as m2scorer reads them from an M2 file.

From an M2 file: each annotator of a block is one gold set (annotators in ascending id,
as m2scorer's dictionary yields them); a noop annotation is an empty set, alternatives
``a||b`` are accepted corrections, ``-NONE-`` is the empty correction, and a block
without any ``A`` line is scored against one empty set of annotator 0.

From reference texts there are no gold edits to read, so each reference's edits are the
ERRANT edits of its alignment to the source (the dataset already holds them, Bryant et
al., 2017): one correction per edit, and edits that change nothing are left out. This is
what ``errant_parallel`` would write into an M2 file for m2scorer.
"""

from __future__ import annotations

from ..dataset import Dataset
from ..errant.edits import Edit
from .search import GoldEdit

NONE = "-NONE-"


def alternatives(correction: str) -> tuple[str, ...]:
    return tuple("" if c.strip() == NONE else c.strip() for c in correction.split("||"))


def gold_edit(source: list[str], edit: Edit, from_m2: bool) -> GoldEdit:
    corrections = alternatives(edit.correction) if from_m2 else (edit.correction,)
    return GoldEdit(edit.start, edit.end, " ".join(source[edit.start : edit.end]), corrections, edit.type)


def gold_sets(dataset: Dataset, i: int) -> list[tuple[int, list[GoldEdit]]]:
    """``[(annotator, gold edits)]`` for sentence ``i``, in the order m2scorer tries them."""
    source = dataset.sources[i]
    from_m2 = dataset.reference_order is not None
    annotators = sorted(dataset.references_in(i))
    if not annotators:
        return [(0, [])]
    sets = []
    for k in annotators:
        golds = [gold_edit(source, e, from_m2) for e in dataset.references[k].edits[i] or []]
        if not from_m2:
            golds = [g for g in golds if (g.original,) != g.corrections]
        sets.append((k, golds))
    return sets
