"""The platform's side of GoToScorer: gold chunks in the database, outcomes as bits.

Everything GoToScorer-specific the platform needs from ``scoring.gotoscorer`` goes
through this module: the gold chunks of a dataset, a member's per-chunk outcomes from its
stored statistics, and a member's scores from its outcomes, n_i and N.
"""
from __future__ import annotations

import numpy as np

from ..models import GoldChunk

NAME = "gotoscorer"


def create_gold_chunks(phase, dataset, ref_id: int) -> int:
    from scoring.gotoscorer.chunks import gold_chunks

    rows = [
        GoldChunk(
            phase=phase, position=position, sentence=c.sentence, start=c.start, end=c.end,
            correction=c.correction, error_type=c.type, modified=c.modified, n=0,
        )
        for position, c in enumerate(gold_chunks(dataset, ref_id))
    ]
    GoldChunk.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def pack(bits) -> bytes:
    return np.packbits(np.asarray(bits, dtype=bool)).tobytes()


def unpack(data: bytes, length: int) -> np.ndarray:
    return np.unpackbits(np.frombuffer(bytes(data), dtype=np.uint8), count=length).astype(bool)


def outcomes(statistics: dict) -> tuple[list[bool], list[bool]]:
    """``(modified, correct)`` per gold chunk, in corpus order, from stored statistics."""
    return statistics["modified"], statistics["correct"]


def member_scores(modified: np.ndarray, correct: np.ndarray, gold_modified: np.ndarray, n: np.ndarray, size: int, *, beta: float, weighted: bool) -> dict:
    """P, R, F-beta and accuracy with w_i = 1 - n_i / N (METRICS.md section 2)."""
    weights = 1.0 - n / size if weighted and size else np.ones(len(n))

    def w(mask):
        return float(weights[mask].sum())

    hit = w(modified & correct)
    p = hit / w(modified) if w(modified) else 0.0
    r = hit / w(gold_modified) if w(gold_modified) else 0.0
    f = (1 + beta**2) * p * r / (beta**2 * p + r) if p + r else 0.0
    accuracy = w(correct) / w(np.ones(len(n), dtype=bool)) if len(n) else 0.0
    return {"p": p, "r": r, "f": f, "accuracy": accuracy}
