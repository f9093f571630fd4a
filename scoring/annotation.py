"""ERRANT annotation of whole files in batches (METRICS.md section 0).

A corrected sentence is parsed with ``nlp.pipe`` in batches, then aligned, merged and
classified against its already-parsed source exactly as ``errant_parallel`` does
(merging by :mod:`.merger`, errant's rules in bounded time).
Sentences equal to their source are neither parsed nor aligned: ERRANT writes a noop
for them without looking further. A sentence the dataset's :class:`LineCache` has seen
against the same source (a reference's line, another system's) takes the edits found
then, and a line parsed before is not parsed again.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from .alignment import FastAlignment
from .edits import Edit
from .line_cache import LineCache
from .merger import rule_edits
from .nlp import load_annotator


def annotate(sources: Sequence[Sequence[str]], corrections: Sequence[Sequence[str]], source_docs: Callable[[], Sequence], lines: LineCache) -> list[list[Edit]]:
    """Edits turning each source into its corrected token list.

    ``source_docs`` returns the sources' parses; it is only called when some sentence
    needs aligning, so an unchanged file never needs them.
    """
    edits: list[list[Edit]] = [[] for _ in corrections]
    todo = []
    for i, (src, cor) in enumerate(zip(sources, corrections)):
        if list(src) != list(cor):
            known = lines.edits(i, cor)
            if known is None:
                todo.append(i)
            else:
                edits[i] = list(known)
    if todo:
        annotator = load_annotator()
        docs = source_docs()
        for i, cor_doc in zip(todo, lines.parse([corrections[i] for i in todo])):
            found = rule_edits(FastAlignment(docs[i], cor_doc))
            for edit in found:
                annotator.classify(edit)
            edits[i] = [Edit(e.o_start, e.o_end, e.c_str, e.type) for e in found]
            lines.add_edits(i, corrections[i], list(edits[i]))
    return edits
