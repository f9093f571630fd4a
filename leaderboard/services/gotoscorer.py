"""The platform's side of GoToScorer (``scoring.gotoscorer``): gold chunks in the
database, members' outcomes as packed bits, scores from the n_i stored there.

The library's :class:`scoring.gotoscorer.Pool` keeps n in memory; here n lives in
PostgreSQL (one row per gold chunk), so the platform uses the same integer pieces the
Pool is made of: :func:`outcome_sums` (|X| and the sum of n_i over each class X) and
:func:`scores_from_sums`. Scores therefore equal a from-scratch pool computation exactly.
"""
from __future__ import annotations

import numpy as np

from scoring.gotoscorer import Outcomes, decode, gold_chunks, outcome_sums
from scoring.metrics.gotoscorer import GoToScorer

from ..models import GoldChunk

NAME = "gotoscorer"


def create_gold_chunks(phase, dataset, ref_id: int) -> int:
    """One row per gold chunk of reference ``ref_id``, in corpus order, n_i = 0."""
    rows = [
        GoldChunk(
            phase=phase, position=position, sentence=c.sentence, start=c.start, end=c.end,
            correction=c.correction, error_type=c.type, modified=c.modified, n=0,
        )
        for position, c in enumerate(gold_chunks(dataset, ref_id))
    ]
    GoldChunk.objects.bulk_create(rows, batch_size=2000)
    return len(rows)


def outcomes(statistics: dict) -> Outcomes:
    """A member's (modified, correct) bits on every gold chunk, from its statistics."""
    return decode(statistics)[1]


def pack(bits: np.ndarray) -> bytes:
    return np.packbits(np.asarray(bits, dtype=bool)).tobytes()


def unpack(data: bytes, length: int) -> np.ndarray:
    return np.unpackbits(np.frombuffer(bytes(data), dtype=np.uint8), count=length).astype(bool)


def member_scores(gold_modified: np.ndarray, member: Outcomes, n: np.ndarray, size: int, options, ref: int) -> dict:
    """The member's ``gotoscorer`` object, exactly as the metric's ``score_pool`` makes it."""
    sums = outcome_sums(gold_modified, member.modified, member.correct, n)
    return GoToScorer(options).member_result(sums, size, ref)
