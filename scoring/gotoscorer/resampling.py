"""GoToScorer on a sample of sentences: per-sentence sums, and the scores of summed rows.

A member's scores depend only on, per class X (TP, FP, FN, TN, all chunks), the count
|X| and the integer S_X = sum of n_i over X (:mod:`.scores`). Both are sums over gold
chunks, so they split by sentence: one row of 10 integers per sentence, and a bootstrap
sample's scores are those of its summed rows. n_i and N are the whole pool's (a sample
draws sentences; the pool's systems, which set the weights, stay), so the rows of every
sentence summed give the member's published scores to the last bit
(:func:`.scores.score_table` turns summed rows into scores).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .scores import class_masks

COLUMNS = 10  # |TP| |FP| |FN| |TN| |all|, then S_TP S_FP S_FN S_TN S_all


def sentence_ids(gold: Sequence[str]) -> np.ndarray:
    """The sentence of every gold chunk, from the per-sentence bit strings of the statistics."""
    return np.repeat(np.arange(len(gold)), [len(bits) for bits in gold])


def sentence_rows(
    sentences: np.ndarray,
    n_sentences: int,
    gold_modified: np.ndarray,
    modified: np.ndarray,
    correct: np.ndarray,
    n: np.ndarray,
) -> np.ndarray:
    """(sentences, COLUMNS) integer sums; a sentence without chunks gets a row of zeros."""
    masks = np.vstack([class_masks(gold_modified, modified, correct), np.ones((1, len(n)), dtype=bool)])
    n = np.asarray(n, dtype=np.int64)
    rows = np.zeros((n_sentences, COLUMNS), dtype=np.int64)
    for k, mask in enumerate(masks):
        rows[:, k] = np.bincount(sentences[mask], minlength=n_sentences)
        rows[:, 5 + k] = np.bincount(sentences[mask], weights=n[mask], minlength=n_sentences).astype(np.int64)
    return rows
