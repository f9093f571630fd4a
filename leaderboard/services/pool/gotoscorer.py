"""The platform's side of GoToScorer (``scoring.gotoscorer``): gold chunks in the
database, members' outcomes as packed bits, scores from the n_i stored there.

n_i lives in PostgreSQL (as N - f_i, one row per gold chunk); the scores come from the
library's :class:`scoring.gotoscorer.Pool` (``services.pool``), so they equal a
from-scratch pool computation exactly.
"""

from __future__ import annotations

import numpy as np

from scoring.gotoscorer import Outcomes, decode, gold_chunks

from ...models import GoldChunk

NAME = "gotoscorer"


def create_gold_chunks(phase, dataset, ref_id: int) -> int:
    """One row per gold chunk of reference ``ref_id``, in corpus order, f_i = 0."""
    rows = [
        GoldChunk(
            phase=phase,
            position=position,
            sentence=c.sentence,
            start=c.start,
            end=c.end,
            correction=c.correction,
            error_type=c.type,
            modified=c.modified,
            failures=0,
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
