"""The platform's side of GoToScorer (``scoring.gotoscorer``): gold chunks in the
database, members' outcomes as packed bits, scores from the n_i stored there.

n_i lives in PostgreSQL (as N - f_i, one row per gold chunk); the scores come from the
library's :class:`scoring.gotoscorer.Pool` (``services.pool``), so they equal a
from-scratch pool computation exactly.
"""

from __future__ import annotations

import numpy as np
from django.db import connection

from scoring.gotoscorer import Outcomes, decode, gold_chunks

from ...cursors import copy_rows
from ...models import GoldChunk

NAME = "gotoscorer"
CHUNK_FIELDS = ("phase", "position", "sentence", "start", "end", "correction", "error_type", "modified", "failures")


def create_gold_chunks(phase, dataset, ref_id: int) -> int:
    """One row per gold chunk of reference ``ref_id``, in corpus order, f_i = 0; on
    PostgreSQL by COPY (these INSERTs were 40% of preparing a 20,000-sentence task)."""
    rows = (
        (phase.pk, position, c.sentence, c.start, c.end, c.correction, c.type, c.modified, 0)
        for position, c in enumerate(gold_chunks(dataset, ref_id))
    )
    if connection.vendor == "postgresql":
        return copy_rows(GoldChunk, CHUNK_FIELDS, rows)
    instances = [GoldChunk(**dict(zip(CHUNK_FIELDS[1:], row[1:], strict=True)), phase=phase) for row in rows]
    GoldChunk.objects.bulk_create(instances, batch_size=2000)
    return len(instances)


def outcomes(statistics: dict) -> Outcomes:
    """A member's (modified, correct) bits on every gold chunk, from its statistics."""
    return decode(statistics)[1]


def pack(bits: np.ndarray) -> bytes:
    return np.packbits(np.asarray(bits, dtype=bool)).tobytes()


def unpack(data: bytes, length: int) -> np.ndarray:
    return np.unpackbits(np.frombuffer(bytes(data), dtype=np.uint8), count=length).astype(bool)
