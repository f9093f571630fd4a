"""Every pool member's bootstrap samples at once: one matrix product for the whole board.

A member's :class:`scoring.metrics.base.Resampling` (:mod:`.resampling`) has, per
sentence, its class counts |X| and sums S_X of n_i (X in TP, FP, FN, TN, all); a sample
of sentence frequencies times those rows gives the sample's scores. Built member by
member, that is 10 bincounts over every gold chunk and a (samples x sentences) product
per member, twice per board row (once against the row above, once below).

Here the rows of all members come from the sparse classes only: TP, FP and FN are the
few chunks a system changed or missed, and ``wrong`` (FP or FN) gives TN as
all - wrong - TP, since a chunk is correct (TP or TN) or wrong. S_X is written
N|X| - F_X with F_X the sum of f_i = N - n_i (the members that failed chunk i) over X:
integers small enough that a float32 product is exact whenever every sample's F_all
and chunk count stay below 2**24 (checked; float64 otherwise). The totals are the same
integers the member-by-member path sums, so every score is the same to the last bit.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ..bootstrap import sentence_frequencies
from .resampling import COLUMNS

BLOCK = 64  # members per step: their unpacked bits stay a few MB
EXACT_FLOAT32 = 2**24  # every integer up to this is a float32
SPARSE = 4  # TP, FP, FN, wrong
EVERY_CLASS = tuple(range(SPARSE))


@dataclass(frozen=True)
class ChunkLayout:
    """Where the gold chunks lie: each one's modified flag and sentence, in chunk order."""

    gold_modified: np.ndarray
    sentences: np.ndarray
    n_sentences: int


def sampled_totals(
    gold_modified: np.ndarray,
    sentences: np.ndarray,
    n_sentences: int,
    n: np.ndarray,
    pool_size: int,
    modified: np.ndarray,
    correct: np.ndarray,
    *,
    samples: int,
    seed: int,
    classes: tuple[int, ...] = EVERY_CLASS,
) -> tuple[np.ndarray, np.ndarray]:
    """``(observed (members, COLUMNS), sampled (members, samples, COLUMNS))`` totals
    of :func:`.resampling.sentence_rows` for members given as ``numpy.packbits`` rows of
    their ``modified`` and ``correct`` bits, ``(members, ceil(chunks / 8))`` uint8;
    ``sentences``: each gold chunk's sentence, in chunk order. ``classes``: those of TP, FP,
    FN and wrong (0-3) the caller's score reads (P: TP and FP; accuracy: TP and wrong,
    which give TN); the others are left 0, so the work follows the score."""
    failures = pool_size - np.asarray(n, dtype=np.int64)
    members = len(modified)
    rows = np.empty((members, 2, len(classes), n_sentences), dtype=np.float64)  # exact: integers below 2**53
    for start in range(0, members, BLOCK):
        block = slice(start, min(start + BLOCK, members))
        rows[block] = _class_rows(
            gold_modified, sentences, n_sentences, failures, modified[block], correct[block], classes
        )
    every_count = np.bincount(sentences, minlength=n_sentences).astype(np.float64)
    every_failed = np.bincount(sentences, weights=failures, minlength=n_sentences)
    common = np.stack([every_count, every_failed])  # all chunks, the same for every member: (2, sentences)
    frequencies = sentence_frequencies(n_sentences, samples, seed)
    draw = (n_sentences, samples, seed)
    exact32 = _largest_sum(frequencies, every_count, np.bincount(sentences, np.abs(failures), n_sentences))
    sampled = _product(frequencies, rows.reshape(-1, n_sentences), exact32 < EXACT_FLOAT32, draw)
    sampled_common = _product(frequencies, common, exact32 < EXACT_FLOAT32, draw)
    observed = _assemble(_every_class(rows.sum(axis=-1)[..., None], classes), common.sum(axis=-1)[:, None], pool_size)
    sampled = _every_class(sampled.reshape(members, 2, len(classes), samples), classes)
    return observed[:, 0], _assemble(sampled, sampled_common, pool_size)


def _every_class(found: np.ndarray, classes: tuple[int, ...]) -> np.ndarray:
    """(members, 2, SPARSE, samples) from the ``classes`` computed, the others 0."""
    if classes == EVERY_CLASS:
        return found
    every = np.zeros((*found.shape[:2], SPARSE, found.shape[-1]), dtype=found.dtype)
    every[:, :, list(classes)] = found
    return every


def _class_rows(
    gold_modified: np.ndarray,
    sentences: np.ndarray,
    n_sentences: int,
    failures: np.ndarray,
    modified: np.ndarray,
    correct: np.ndarray,
    classes: tuple[int, ...],
) -> np.ndarray:
    """(members, 2, classes, sentences): per member, |X| then F_X of ``classes`` of TP, FP,
    FN and wrong, found from the few chunks it changed and the few it got wrong (two scans)."""
    chunks = len(sentences)
    members = len(modified)
    modified_bits = np.unpackbits(modified, axis=1, count=chunks).view(bool).reshape(-1)
    wrong_bits = np.unpackbits(~correct, axis=1, count=chunks).view(bool).reshape(-1)
    changed = np.flatnonzero(modified_bits)
    wrong = np.flatnonzero(wrong_bits)
    changed_wrong = wrong_bits[changed]
    missed = gold_modified[wrong % chunks] | ~modified_bits[wrong]
    every = (changed[~changed_wrong], changed[changed_wrong], wrong[missed], wrong)  # TP, FP, FN, wrong
    rows = np.empty((members, 2, len(classes), n_sentences), dtype=np.float64)
    size = members * n_sentences
    for k, flat in enumerate(every[c] for c in classes):
        member, chunk = np.divmod(flat, chunks)
        index = member * n_sentences + sentences[chunk]
        rows[:, 0, k] = np.bincount(index, minlength=size).reshape(members, n_sentences)
        rows[:, 1, k] = np.bincount(index, weights=failures[chunk], minlength=size).reshape(members, n_sentences)
    return rows


def _largest_sum(frequencies: np.ndarray, counts: np.ndarray, absolute_failures: np.ndarray) -> float:
    """An upper bound of every value and partial sum of the products: the largest chunk
    count or sum of |f_i| of any sample, or of the whole corpus (each class is a subset
    of all chunks)."""
    every = np.stack([counts, absolute_failures], axis=1)
    return float(max((frequencies @ every).max(initial=0.0), every.sum(axis=0).max(initial=0.0)))


def _product(frequencies: np.ndarray, rows: np.ndarray, exact32: bool, draw: tuple[int, int, int]) -> np.ndarray:
    """``rows @ frequencies.T``, (rows, samples): in float32 when every sum is known to be
    exact (half the time of float64), else in float64 (exact below 2**53)."""
    if exact32:
        return rows.astype(np.float32) @ _float32_frequencies(*draw).T
    return rows @ frequencies.T


@functools.lru_cache(maxsize=2)
def _float32_frequencies(n_sentences: int, samples: int, seed: int) -> np.ndarray:
    """:func:`~scoring.bootstrap.sentence_frequencies` in float32 (small integers: exact)."""
    found = sentence_frequencies(n_sentences, samples, seed).astype(np.float32)
    found.setflags(write=False)
    return found


def _assemble(sparse: np.ndarray, common: np.ndarray, pool_size: int) -> np.ndarray:
    """(members, samples, COLUMNS) totals of :data:`.resampling.COLUMNS` (float64 holding
    integers, as a product of frequencies and rows gives them) from (members, 2, SPARSE,
    samples) counts and F sums and (2, samples) of all chunks: TN = all - wrong - TP;
    S_X = N|X| - F_X. Laid out column by column (a transposed view), so that each
    column a score reads is contiguous."""
    members, samples = sparse.shape[0], sparse.shape[-1]
    counts, failed = sparse[:, 0], sparse[:, 1]
    every_count, every_failed = common
    out = np.empty((COLUMNS, members, samples), dtype=np.float64)
    tp, fp, fn, wrong = counts[:, 0], counts[:, 1], counts[:, 2], counts[:, 3]
    out[0], out[1], out[2] = tp, fp, fn
    np.subtract(every_count, wrong, out=out[3])
    out[3] -= tp
    out[4] = every_count
    f_tn = every_failed - failed[:, 3] - failed[:, 0]
    for column, failed_sum in enumerate([failed[:, 0], failed[:, 1], failed[:, 2], f_tn, every_failed]):
        np.multiply(out[column], pool_size, out=out[5 + column])
        out[5 + column] -= failed_sum
    return out.transpose(1, 2, 0)
