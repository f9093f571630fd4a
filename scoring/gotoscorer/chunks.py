"""Chunks: the units GoToScorer weights (Gotou et al., COLING 2020, section 3.1).

A sentence is cut into *chunks*: one per edit, one per source token no edit touches, and
an empty *insertion slot* (dummy) between them, so that every place a system could
change is a chunk of its own. Gold chunks come from one reference annotator; system
chunks are built the same way from a system's edits. This follows GTS's
``scripts/chunker.py`` (``make_erroneous_chunks``, ``add_basic_chunks``,
``add_insert_chunks``) step by step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..dataset import Dataset
from ..errant.edits import NOOP, UNK, Edit
from ..readers import problem

UNCORRECTABLE = "Um"  # NUCLE's "unclear meaning": an error nobody corrects
DROPPED_TYPES = frozenset({NOOP, UNK, UNCORRECTABLE})  # GTS skips these edits


class Chunk(NamedTuple):
    """A span of source tokens and what it should read (``correction``).

    ``modified`` is True for a chunk made from an edit; an unmodified chunk's correction
    is its own source text and its type is ''. An insertion slot has start == end.
    """

    start: int
    end: int
    source: str
    correction: str
    type: str
    modified: bool

    @property
    def is_insertion(self) -> bool:
        return self.start == self.end


class GoldChunk(NamedTuple):
    """A gold chunk with its place in the corpus: the record the platform stores."""

    sentence: int
    index: int  # type: ignore[assignment]  # position within its sentence's chunk list (shadows tuple.index)
    start: int
    end: int
    source: str
    correction: str
    type: str
    modified: bool


def sentence_chunks(tokens: Sequence[str], edits: Sequence[Edit] | None) -> list[Chunk]:
    """The chunks of one sentence under ``edits`` (None = no edits), as GTS cuts them.

    Edits are taken in the order given (GTS does not sort them); noop, UNK and Um edits
    are dropped. A slot goes before every chunk unless that chunk or the one before it
    is an insertion, and a final slot at ``len(tokens)`` unless the last chunk is one.
    (GTS's two passes, basic chunks then slots, done in one: this runs for every gold
    and system sentence.)
    """
    new = tuple.__new__
    chunks: list[Chunk] = []
    append = chunks.append
    after_insertion = False  # whether the last chunk so far is an insertion
    cursor = 0
    for e in edits or ():
        if e.type in DROPPED_TYPES:
            continue
        start, end = e.start, e.end
        for i in range(cursor, start):
            if not after_insertion:
                append(new(Chunk, (i, i, "", "", "", False)))
            token = tokens[i]
            append(new(Chunk, (i, i + 1, token, token, "", False)))
            after_insertion = False
        insertion = start == end
        if not insertion and not after_insertion:
            append(new(Chunk, (start, start, "", "", "", False)))
        append(new(Chunk, (start, end, " ".join(tokens[start:end]), e.correction, e.type, True)))
        after_insertion = insertion
        cursor = end
    for i in range(cursor, len(tokens)):
        if not after_insertion:
            append(new(Chunk, (i, i, "", "", "", False)))
        token = tokens[i]
        append(new(Chunk, (i, i + 1, token, token, "", False)))
        after_insertion = False
    # GTS fails on an empty sentence without edits; we give it its one slot instead.
    if not after_insertion:
        append(new(Chunk, (len(tokens), len(tokens), "", "", "", False)))
    return chunks


def corpus_chunks(sources: Sequence[Sequence[str]], edit_lists: Sequence[Sequence[Edit] | None]) -> list[list[Chunk]]:
    """:func:`sentence_chunks` of every sentence."""
    return [sentence_chunks(tokens, edits) for tokens, edits in zip(sources, edit_lists, strict=True)]


def flatten(chunks: Sequence[Sequence[Chunk]]) -> list[GoldChunk]:
    """Number per-sentence chunks into corpus records (sentence index, chunk index)."""
    return [GoldChunk(i, k, *chunk) for i, sentence in enumerate(chunks) for k, chunk in enumerate(sentence)]


def reference_edits(dataset: Dataset, ref_id: int) -> list[list[Edit] | None]:
    """Reference ``ref_id``'s edits per sentence; an :class:`InputError` if there is none."""
    if not 0 <= ref_id < dataset.n_references:
        raise problem(
            0,
            f"GoToScorer reference {ref_id} does not exist: the dataset has {dataset.n_references} "
            "reference(s), numbered from 0",
        )
    return dataset.references[ref_id].edits


def gold_chunks(dataset: Dataset, ref_id: int = 0) -> list[GoldChunk]:
    """Every gold chunk of the dataset under reference ``ref_id``, in corpus order."""
    return flatten(corpus_chunks(dataset.sources, reference_edits(dataset, ref_id)))
