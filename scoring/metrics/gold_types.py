"""ERRANT's error types for gold edits that an M2 file types in its own scheme.

CoNLL-2014's gold carries NUCLE's 28 types (``ArtOrDet``, ``Vt``, ``Wci``, ...), while
ERRANT types every system edit with its own classifier (``R:DET``, ``M:PREP``, ...).
Counting matched gold edits under NUCLE types and false positives under ERRANT types
gives rows with P = 100 or R = 100 that mean nothing. ``errant_compare -cat`` is meant
to be run on gold re-typed by ERRANT (``errant_m2 -gold``: each gold span classified
against the corrected sentence, after minimising it); the ERRANT per-type table does
the same here: spans and corrections stay the annotators' (so overall counts are those
of ``errant_compare -ref``), only the type a gold edit is counted under is ERRANT's.
The annotators' own types remain available as a recall-only view (systems' edits have
no such type, so precision is undefined there).
"""

from __future__ import annotations

from ..dataset import Dataset
from ..errant.edits import NOOP, UNK, Edit

TABLE_KEY = "errant.gold_types"

# ERRANT 3's categories (Bryant et al., 2017, table 2), after the M:/R:/U: operation prefix.
ERRANT_CATEGORIES = frozenset(
    {
        "ADJ",
        "ADJ:FORM",
        "ADV",
        "CONJ",
        "CONTR",
        "DET",
        "MORPH",
        "NOUN",
        "NOUN:INFL",
        "NOUN:NUM",
        "NOUN:POSS",
        "ORTH",
        "OTHER",
        "PART",
        "PREP",
        "PRON",
        "PUNCT",
        "SPELL",
        "VERB",
        "VERB:FORM",
        "VERB:INFL",
        "VERB:SVA",
        "VERB:TENSE",
        "WO",
    }
)


def is_errant_type(etype: str) -> bool:
    return etype in (UNK, NOOP) or (etype[:2] in ("M:", "R:", "U:") and etype[2:] in ERRANT_CATEGORIES)


def has_foreign_types(dataset: Dataset) -> bool:
    """Whether some gold edit is typed outside ERRANT's scheme (only M2 gold can be)."""
    if dataset.annotated_references:
        return False
    return any(
        not is_errant_type(edit.type)
        for reference in dataset.references
        for edits in reference.edits
        if edits
        for edit in edits
    )


def corrected_spans(edits: list[Edit]) -> dict[int, tuple[int, int]]:
    """Where each applied edit (by index in ``edits``) lands in the corrected sentence, as
    :func:`scoring.errant.edits.apply_edits` builds it; skipped edits (noop, UNK, overlapping) are absent."""
    spans: dict[int, tuple[int, int]] = {}
    offset, cursor = 0, 0
    for k in sorted(range(len(edits)), key=lambda k: (edits[k].start, edits[k].end)):
        start, end, correction, etype = edits[k].start, edits[k].end, edits[k].correction, edits[k].type
        if etype in (NOOP, UNK) or start < 0 or start < cursor:
            continue
        width = len(correction.split())
        spans[k] = (start + offset, start + offset + width)
        offset += width - (end - start)
        cursor = end
    return spans


def fallback_type(edit: Edit) -> str:
    """An edit the corrected sentence does not show (it overlaps an earlier one)."""
    operation = "M" if edit.start == edit.end else "U" if not edit.correction else "R"
    return f"{operation}:OTHER"


def errant_gold_types(dataset: Dataset) -> list[list[list[str] | None]] | None:
    """Per reference and sentence, the ERRANT type of each gold edit (parallel to
    ``reference.edits[i]``); None when the gold is typed by ERRANT already. Made once and
    kept in ``dataset.tables`` (saved with a prepared dataset)."""
    if TABLE_KEY not in dataset.tables:
        if not dataset.remembered("errant.foreign_types", lambda: has_foreign_types(dataset)):
            return None
        dataset.tables[TABLE_KEY] = classify_gold(dataset)
    return dataset.tables[TABLE_KEY]


def classify_gold(dataset: Dataset) -> list[list[list[str] | None]]:
    """ERRANT's classifier on every gold edit, as ``errant_m2 -gold`` runs it: against
    the sentence the annotator's edits make, the edit minimised first."""
    from ..nlp import load_annotator

    annotator = load_annotator()
    wanted = [
        (r, i)
        for r, reference in enumerate(dataset.references)
        for i, edits in enumerate(reference.edits)
        if edits and any(e.type not in (NOOP, UNK) for e in edits)
    ]
    corrected = dataset.lines.parse([dataset.references[r].tokens[i] for r, i in wanted])
    sources = dataset.source_parses(sorted({i for _, i in wanted}))
    source_of = dict(zip(sorted({i for _, i in wanted}), sources))
    types: list[list[list[str] | None]] = [
        [None if e is None else [x.type for x in e] for e in ref.edits] for ref in dataset.references
    ]
    for (r, i), cor_doc in zip(wanted, corrected):
        edits = dataset.references[r].edits[i]
        row = types[r][i]
        assert edits is not None and row is not None  # wanted: lines with edits
        spans = corrected_spans(edits)
        for k, edit in enumerate(edits):
            if edit.type in (NOOP, UNK):
                continue
            if k not in spans:
                row[k] = fallback_type(edit)
                continue
            imported = annotator.import_edit(source_of[i], cor_doc, [edit.start, edit.end, *spans[k]], min=True)
            row[k] = imported.type
    return types
