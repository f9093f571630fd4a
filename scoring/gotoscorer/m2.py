"""Several systems in one M2 file, one coder id each: GTS's ``-hyp`` input."""

from __future__ import annotations

from ..errant.edits import Edit
from ..readers import M2Corpus


def coder_edits(corpus: M2Corpus) -> list[list[list[Edit]]]:
    """Per system (coder 0, 1, ...), per sentence, its edits.

    Like GTS (``chunker.generate_system_chunks``), systems are coders 0, 1, 2, ... up to
    the first id with no ``A`` line anywhere (a noop line counts as one); a sentence
    without a line for a coder means no edits.
    """
    present = set(corpus.annotator_ids)
    systems: list[list[list]] = []
    while len(systems) in present:
        coder = len(systems)
        systems.append([block.get(coder) or [] for block in corpus.annotations])
    return systems
