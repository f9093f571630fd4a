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

from ..edits import Edit
from .chunks import Chunk, sentence_chunks
from .matching import judge_sentence

ONE = ord("1")


@dataclass(frozen=True)
class Outcomes:
    """``modified[i]``: the system changed gold chunk i; ``correct[i]``: it got it right."""

    modified: np.ndarray  # bool, one per gold chunk, corpus order
    correct: np.ndarray


def system_outcomes(gold: Sequence[Sequence[Chunk]], sources: Sequence[Sequence[str]], edit_lists: Sequence[Sequence[Edit] | None]) -> list[list[tuple[bool, bool]]]:
    """Per sentence, ``(modified, correct)`` on each gold chunk for one system's edits."""
    return [
        judge_sentence(gold_sentence, sentence_chunks(tokens, edits))
        for gold_sentence, tokens, edits in zip(gold, sources, edit_lists, strict=True)
    ]


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
