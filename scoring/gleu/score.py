"""GLEU "without tuning" (Napoles et al., 2015; multi-reference update, 2016).

For a hypothesis h, source s and one reference r, and n = 1..4, the n-gram precision
counts h's n-grams found in r and subtracts those it kept from s that r changed:

    p_n = max(|h ∩ r| - |h ∩ (s \\ r)|, 0) / max(|h| + 1 - n, 0)

with multiset intersections and ``s \\ r`` = the source n-grams whose type does not occur
in r at all (with their source counts). Corpus GLEU sums each column over sentences,
then GLEU = exp(min(0, 1 - r_len / h_len) + mean_n log p_n), and 0 when any summed
column is 0. With several references, iteration j of 500 seeds Python's generator with
j * 101 and draws one reference per sentence (Python 2's ``randint``); the score is the
mean corpus GLEU over the iterations (cnap/gec-ranking ``compute_gleu``). Sentence GLEU
is the mean over references of the sentence's GLEU with every 0 count replaced by 1.

MultiGEC-2025 reported the PyPI ``gleu`` 1.1.0 tool run as ``gleu -d 4 -f -n 4 -t word``
(:func:`multigec_gleu_score`, variant ``multigec``): the same counts and the same seeded
draws (its ``-f`` reproduces Python 2's ``randint`` too), but tokens split on any
Unicode whitespace (Python 3's ``str.split``), an order with no hypothesis n-gram in the
corpus has precision 1 instead of making the score 0, and 500 iterations even with one
reference (identical ones: their mean is the single iteration's).

Per sentence the statistics are the hypothesis length and, per reference, the reference
length and the four numerators; the denominators follow from the length. The 500
iterations are then one matrix product per reference (its 0/1 draws times the rows), and
a bootstrap sample a matrix product too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

ORDER = 4
ITERATIONS = 500
SEED_STEP = 101
# Per reference: its length, then the numerator of each order; per hypothesis: its
# length, then the denominator of each order.
REF_COLUMNS = HYP_COLUMNS = 1 + ORDER


def split_tokens(line: str) -> list[str]:
    """Whitespace tokens as Python 2's ``str.split()`` cuts UTF-8 bytes: ASCII whitespace
    only, so a non-breaking space stays inside its token."""
    return [token.decode("utf-8") for token in line.encode("utf-8").split()]


def split_unicode(line: str) -> list[str]:
    """Whitespace tokens as the ``gleu`` tool's ``-t word`` cuts them (Python 3: any
    Unicode whitespace)."""
    return line.split()


def hypothesis_rows(hypothesis_lengths: Sequence[int]) -> np.ndarray:
    """Per hypothesis ``[h_len, max(h_len + 1 - n, 0) for n = 1..4]``: shape (sentences, 5)."""
    lengths = np.asarray(hypothesis_lengths, dtype=float).reshape(-1, 1)
    return np.hstack([lengths, np.maximum(lengths + 1 - np.arange(1, ORDER + 1), 0)])


def gleu_score(hypothesis_part: np.ndarray, reference_part: np.ndarray, smooth: bool = False) -> np.ndarray:
    """GLEU of (h_len, den_1..den_4) and (r_len, num_1..num_4) rows, broadcast against
    each other (one sentence or sums over sentences alike): 0 when any count is 0.

    ``smooth`` replaces 0 counts by 1 first (the official sentence-level GLEU).
    """
    hypothesis_part = np.asarray(hypothesis_part, dtype=float)
    reference_part = np.asarray(reference_part, dtype=float)
    if smooth:
        hypothesis_part = np.where(hypothesis_part == 0, 1.0, hypothesis_part)
        reference_part = np.where(reference_part == 0, 1.0, reference_part)
    defined = np.all(hypothesis_part != 0, axis=-1) & np.all(reference_part != 0, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_precision = (
            np.log(reference_part[..., 1:]).sum(axis=-1) - np.log(hypothesis_part[..., 1:]).sum(axis=-1)
        ) / ORDER
        brevity = np.minimum(0.0, 1.0 - reference_part[..., 0] / hypothesis_part[..., 0])
        return np.where(defined, np.exp(brevity + log_precision), 0.0)


def multigec_gleu_score(hypothesis_part: np.ndarray, reference_part: np.ndarray) -> np.ndarray:
    """GLEU as the ``gleu`` 1.1.0 tool computes it (``score.n_accum_to_gleu``) from the same
    rows as :func:`gleu_score`: p_n = 1 where the summed denominator is 0, log 0 = -inf
    where the numerator is 0; brevity 0 when both lengths are 0, -inf when only the
    hypothesis is empty."""
    hypothesis_part = np.asarray(hypothesis_part, dtype=float)
    reference_part = np.asarray(reference_part, dtype=float)
    denominators, numerators = hypothesis_part[..., 1:], reference_part[..., 1:]
    h_len, r_len = hypothesis_part[..., 0], reference_part[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        log_precision = np.log(
            np.where(denominators == 0, 1.0, numerators / np.where(denominators == 0, 1.0, denominators))
        ).mean(axis=-1)
        brevity = np.where(
            h_len == 0,
            np.where(r_len == 0, 0.0, -np.inf),
            np.minimum(0.0, 1.0 - r_len / np.where(h_len == 0, 1.0, h_len)),
        )
        return np.exp(brevity + log_precision)


SCORE_FUNCTIONS = {"official": gleu_score, "multigec": multigec_gleu_score}
TOKEN_SPLITTERS = {"official": split_tokens, "multigec": split_unicode}
TOKEN_RULES = {"official": "ascii-whitespace", "multigec": "unicode-whitespace"}


def python_state(seed: int) -> tuple:
    """Python's Mersenne Twister state after ``random.seed(seed)``, as numpy's
    ``RandomState.set_state`` takes it. numpy's ``random_sample`` and Python's ``random()``
    make a double from two 32-bit outputs the same way (genrand_res53), so numpy then draws
    the identical stream, 656,000 draws without a Python call each."""
    _, internal, _ = random.Random(seed).getstate()
    return ("MT19937", np.array(internal[:-1], dtype=np.uint32), internal[-1])


@lru_cache(maxsize=8)
def reference_draws(n_sentences: int, n_references: int, iterations: int = ITERATIONS) -> np.ndarray:
    """(iterations, sentences) reference indices, as ``compute_gleu`` draws them.

    Iteration j seeds Python's Mersenne Twister with j * 101 (integer seeds give the
    same stream in Python 2 and 3) and draws ``randint(0, R - 1)`` per sentence, which
    Python 2 computes as ``int(random() * R)`` (truncation, as ``astype`` does for these
    non-negative values). One reference: a single iteration.
    """
    if n_references == 1:
        return np.zeros((1, n_sentences), dtype=np.intp)
    draws = np.empty((iterations, n_sentences), dtype=np.intp)
    generator = np.random.RandomState()
    for j in range(iterations):
        generator.set_state(python_state(j * SEED_STEP))
        draws[j] = (generator.random_sample(n_sentences) * n_references).astype(np.intp)
    draws.flags.writeable = False
    return draws


@lru_cache(maxsize=4)
def draw_indicators(n_sentences: int, n_references: int, iterations: int = ITERATIONS) -> np.ndarray:
    """Per reference, the sentences each iteration draws it for, as 0/1 floats: shape
    (references, iterations, sentences). The rows hold integer counts, so summing the drawn
    rows as a product with these gives exactly the gathered sums (float sums of integers
    are exact in any order), ten times faster."""
    draws = reference_draws(n_sentences, n_references, iterations)
    indicators = np.stack([draws == k for k in range(n_references)]).astype(float)
    indicators.flags.writeable = False
    return indicators


def drawn_rows(reference_rows: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """Per iteration and sentence, the row of the drawn reference: (iterations, sentences, 5)."""
    return reference_rows[np.arange(reference_rows.shape[0]), draws]


def corpus_gleu(
    hypothesis_part: np.ndarray, reference_rows: np.ndarray, indicators: np.ndarray, score=gleu_score
) -> np.ndarray:
    """Corpus GLEU of every iteration from per-sentence statistics.

    ``hypothesis_part`` is :func:`hypothesis_rows`, ``reference_rows`` has shape
    (sentences, references, 5), ``indicators`` is :func:`draw_indicators`, ``score`` one of
    :data:`SCORE_FUNCTIONS`; the result has shape (iterations,).
    """
    reference_rows = np.asarray(reference_rows, dtype=float)
    per_iteration = sum(indicators[k] @ reference_rows[:, k, :] for k in range(reference_rows.shape[1]))
    return score(hypothesis_part.sum(axis=0), per_iteration)


def sentence_gleu(hypothesis_part: np.ndarray, reference_rows: np.ndarray) -> np.ndarray:
    """Per sentence, the mean over references of its smoothed GLEU: (sentences,)."""
    return gleu_score(hypothesis_part[:, None, :], reference_rows, smooth=True).mean(axis=1)
