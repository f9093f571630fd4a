"""CLEME and CLEME2.0: chunk partition, chunk outcomes, length weighting, aggregation."""

from .aggregate import (
    candidates,
    cleme2_choice,
    cleme2_corpus,
    cleme2_sentence,
    cleme_choice,
    cleme_corpus,
    cleme_of_totals,
    cleme_sentence,
    heuo_of_totals,
)
from .matching import (
    CHANGED,
    CHUNK_FIELDS,
    FN,
    FP_NE,
    FP_UN,
    OUTCOMES,
    TN,
    TP,
    chunk_outcome_rows,
    chunk_statistics,
    kept_references,
    record_length,
    shared_chunk_statistics,
)
from .partition import Partition, partition, target_tokens
from .weighting import SETTINGS, length_weight

ASSUMPTIONS = ("dependent", "independent")
LEVELS = ("corpus", "sentence")

__all__ = [
    "CHANGED",
    "chunk_outcome_rows",
    "ASSUMPTIONS",
    "LEVELS",
    "CHUNK_FIELDS",
    "OUTCOMES",
    "TP",
    "FP_NE",
    "FP_UN",
    "FN",
    "TN",
    "Partition",
    "SETTINGS",
    "candidates",
    "chunk_statistics",
    "shared_chunk_statistics",
    "cleme_corpus",
    "cleme_sentence",
    "cleme2_corpus",
    "cleme2_sentence",
    "cleme_choice",
    "cleme2_choice",
    "cleme_of_totals",
    "heuo_of_totals",
    "kept_references",
    "length_weight",
    "partition",
    "record_length",
    "target_tokens",
]
