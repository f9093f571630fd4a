"""A system's outcome on every gold chunk: two bit vectors, ``modified`` and ``correct``.

These are GoToScorer's sufficient statistics (Gotou et al., 2020, section 3: the
per-chunk success/failure of each system, written B^(s) in GTS's comments): weights and
scores are sums over them, so they are computed once per system and stored. In JSON
they are per-sentence strings of '0'/'1', one character per gold chunk, so that a
sentence's outcomes stay together (bootstrap resampling works per sentence).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errant.edits import Edit
from .chunks import DROPPED_TYPES, Chunk, sentence_chunks
from .matching import judge_sentence

ONE = ord("1")


@dataclass(frozen=True)
class Outcomes:
    """``modified[i]``: the system changed gold chunk i; ``correct[i]``: it got it right."""

    modified: np.ndarray  # bool, one per gold chunk, corpus order
    correct: np.ndarray


def system_outcomes(
    gold: Sequence[Sequence[Chunk]], sources: Sequence[Sequence[str]], edit_lists: Sequence[Sequence[Edit] | None]
) -> list[list[tuple[bool, bool]]]:
    """Per sentence, ``(modified, correct)`` on each gold chunk for one system's edits."""
    return [
        judge_sentence(gold_sentence, sentence_chunks(tokens, edits))
        for gold_sentence, tokens, edits in zip(gold, sources, edit_lists, strict=True)
    ]


def system_key(edits: Sequence[Edit] | None) -> tuple:
    """What a system's chunks of one sentence depend on for judging: its kept edits'
    (start, end, correction), in the order given."""
    return tuple((e.start, e.end, e.correction) for e in edits or () if e.type not in DROPPED_TYPES)


def unedited_bits(gold_sentence: Sequence[Chunk], tokens: Sequence[str]) -> tuple[str, str] | None:
    """``(modified, correct)`` bits of a system leaving the sentence as it is, without
    building its chunks; None when some gold chunk lies outside the sentence.

    That system has a slot at every position and a chunk per token, none modified, so
    a gold chunk is equal to one of them when it is a slot reading "" or a one-token
    chunk reading its own token (every unmodified gold chunk is); any other gold chunk
    meets the slot at its start, so it is judged wrong (:func:`judge_sentence`).
    """
    n = len(tokens)
    correct = []
    for g in gold_sentence:
        if not 0 <= g.start <= g.end <= n:
            return None
        equal = g.correction == "" if g.start == g.end else (g.end == g.start + 1 and g.correction == tokens[g.start])
        correct.append("1" if equal else "0")
    return "0" * len(gold_sentence), "".join(correct)


MAX_MEMO = 100_000  # (sentence, edits) outcomes kept per dataset and reference


def outcome_bits(
    gold: Sequence[Sequence[Chunk]],
    sources: Sequence[Sequence[str]],
    edit_lists: Sequence[Sequence[Edit] | None],
    memo: dict | None = None,
) -> tuple[list[str], list[str]]:
    """Per sentence, the ``modified`` and ``correct`` bit strings of :func:`encode`.

    ``memo`` (one per dataset and reference) keeps each sentence's bits by the
    system's :func:`system_key`: a later system with the same edits there (every
    system's unchanged sentences, shared corrections) is not judged again.
    """
    memo = {} if memo is None else memo
    if len(memo) > MAX_MEMO:
        memo.clear()
    modified, correct = [], []
    for i, (gold_sentence, tokens, edits) in enumerate(zip(gold, sources, edit_lists, strict=True)):
        key = (i, system_key(edits))
        found = memo.get(key)
        if found is None:
            found = unedited_bits(gold_sentence, tokens) if not key[1] else None
            if found is None:
                judged = judge_sentence(gold_sentence, sentence_chunks(tokens, edits))
                found = (bits(m for m, _ in judged), bits(c for _, c in judged))
            memo[key] = found
        modified.append(found[0])
        correct.append(found[1])
    return modified, correct


def bits(flags) -> str:
    return "".join("1" if flag else "0" for flag in flags)


def from_bits(strings: Sequence[str]) -> np.ndarray:
    """Per-sentence '0'/'1' strings as one flat bool array."""
    return np.frombuffer("".join(strings).encode("ascii"), dtype=np.uint8) == ONE


def encode(gold: Sequence[Sequence[Chunk]], per_sentence: Sequence[Sequence[tuple[bool, bool]]]) -> dict:
    """JSON statistics: gold-modified, modified and correct bits per sentence."""
    return {
        "gold": [bits(c.modified for c in sentence) for sentence in gold],
        "modified": [bits(m for m, _ in sentence) for sentence in per_sentence],
        "correct": [bits(c for _, c in sentence) for sentence in per_sentence],
    }


def decode(statistics: dict) -> tuple[np.ndarray, Outcomes]:
    """(gold-modified flags, outcomes) as flat bool arrays from :func:`encode`'s JSON."""
    return from_bits(statistics["gold"]), Outcomes(from_bits(statistics["modified"]), from_bits(statistics["correct"]))
