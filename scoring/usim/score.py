"""USIM of one sentence pair (Choshen and Abend, 2018, section 3; ``align.fully_aligned_distance``).

R is the share of the source's units matched in the output, P the share of the output's
units matched in the source, USIM = 2PR/(P+R). The reference's special cases are kept:
an empty normalised source scores 1 against an empty output and 0 otherwise; an empty
output scores 0; and a graph without units (a one-word sentence) scores 0, even against
an identical sentence (``two_sided_f`` returns 0 on an empty sum).
"""

from __future__ import annotations

from typing import NamedTuple

from .align import align_words, matched_units, unit_f1
from .graph import SemanticGraph
from .normalise import is_empty


class SentenceScore(NamedTuple):
    p: float
    r: float
    f: float


NO_MATCH = SentenceScore(0.0, 0.0, 0.0)
BOTH_EMPTY = SentenceScore(1.0, 1.0, 1.0)


def usim(source: SemanticGraph, output: SemanticGraph) -> SentenceScore:
    """How faithfully ``output`` keeps the semantic units of ``source``."""
    if is_empty(source.words):
        return BOTH_EMPTY if is_empty(output.words) else NO_MATCH
    if is_empty(output.words) or not len(source.units) or not len(output.units):
        return NO_MATCH
    aligned = align_words(source.words, output.words)
    f1 = unit_f1(source, output, aligned)
    compatible = source.labels[:, None] == output.labels[None, :]
    recall = matched_units(f1, compatible) / len(source.units)
    precision = matched_units(f1.T, compatible.T) / len(output.units)
    f = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return SentenceScore(precision, recall, f)
