"""ERRANT annotation of whole files in batches (docs/metrics.md).

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
from typing import Any, Protocol

from ..nlp import import_spacy
from .edits import Edit


class LineCache(Protocol):
    """What annotation asks of the dataset's line cache (:class:`scoring.line_cache.LineCache`):
    declared here so that ERRANT's engine depends on no module above it."""

    @property
    def pipeline(self) -> Any: ...

    def edits(self, index: int, tokens: Sequence[str]) -> list[Edit] | None: ...

    def parse(self, token_lists: Sequence[Sequence[str]]) -> list: ...

    def add_edits(self, index: int, tokens: Sequence[str], edits: list[Edit]) -> None: ...


def annotate(
    sources: Sequence[Sequence[str]],
    corrections: Sequence[Sequence[str]],
    source_docs: Callable[[list[int]], Sequence],
    lines: LineCache,
) -> list[list[Edit]]:
    """Edits turning each source into its corrected token list.

    ``source_docs(indices)`` returns the parses of the sources at ``indices``; it is
    only asked for the sentences that need aligning, so an unchanged file needs none.
    The line cache's text pipeline parses the corrections and types the edits.
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
        import_spacy()  # before these import spaCy's modules: spaCy without torch (nlp.import_spacy)
        from .alignment import FastAlignment, side
        from .merger import rule_edits

        for i, src_doc, cor_doc in zip(todo, source_docs(todo), lines.parse([corrections[i] for i in todo])):
            alignment = FastAlignment(
                src_doc, cor_doc, orig_side=side(src_doc, sources[i]), cor_side=side(cor_doc, corrections[i])
            )
            found = rule_edits(alignment)
            pipeline = lines.pipeline
            edits[i] = [Edit(e.o_start, e.o_end, e.c_str, pipeline.classify(e), pipeline.errant_type(e)) for e in found]
            lines.add_edits(i, corrections[i], list(edits[i]))
    return edits
