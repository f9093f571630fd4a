"""ERRANT annotation of whole files in batches (METRICS.md section 0).

A corrected sentence is parsed with ``nlp.pipe`` in batches, then aligned, merged and
classified against its already-parsed source exactly as ``errant_parallel`` does
(merging by :mod:`.merger`, errant's rules in bounded time).
Sentences equal to their source are neither parsed nor aligned: ERRANT writes a noop
for them without looking further.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .alignment import FastAlignment
from .edits import Edit
from .merger import rule_edits
from .nlp import load_annotator, parse_tokens


@dataclass
class Annotated:
    """One corrected file against its sources: edits per sentence and the parses made."""

    edits: list[list[Edit]]
    docs: list  # spaCy Doc per sentence, or None where the sentence equals its source


def annotate(sources: Sequence[Sequence[str]], corrections: Sequence[Sequence[str]], source_docs: Callable[[], Sequence]) -> Annotated:
    """Edits turning each source into its corrected token list.

    ``source_docs`` returns the sources' parses; it is only called when some sentence
    changed, so an unchanged file never needs them.
    """
    annotator = load_annotator()
    todo = [i for i, (src, cor) in enumerate(zip(sources, corrections)) if list(src) != list(cor)]
    if not todo:
        return Annotated([[] for _ in corrections], [None] * len(corrections))
    source_docs = source_docs()
    parsed = parse_tokens(corrections[i] for i in todo)
    edits: list[list[Edit]] = [[] for _ in corrections]
    docs: list = [None] * len(corrections)
    for i, cor_doc in zip(todo, parsed):
        found = rule_edits(FastAlignment(source_docs[i], cor_doc))
        for edit in found:
            annotator.classify(edit)
        edits[i] = [Edit(e.o_start, e.o_end, e.c_str, e.type) for e in found]
        docs[i] = cor_doc
    return Annotated(edits, docs)
