"""ERRANT's linguistic Damerau-Levenshtein alignment, compiled, with a Python fallback.

``errant.alignment.Alignment.align`` reads spaCy tokens inside its O(n*m) loop and sorts
two windows at every step of its transposition walk; at 2.4 ms a sentence it cost as much
as parsing. Here the C kernel (``alignment_kernel.c``) reads each doc's ORTH, LOWER,
LEMMA and POS rows (one ``to_array``) and rapidfuzz's ``cdist`` character costs, runs
the DP and walks back the cheapest path, so Python gets ERRANT's align sequence in one
call; the matrices become nested lists only if read. Where no C compiler is available
the same recurrence runs on plain Python lists. Either way the recurrence, the float
arithmetic and the tie-breaking are ERRANT's own, so the cost and operation matrices
are identical (tests/scoring/test_alignment_equivalence.py).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import spacy.parts_of_speech as POS
from errant.alignment import Alignment
from rapidfuzz.distance import Indel
from rapidfuzz.process import cdist
from spacy.attrs import LEMMA, LOWER, ORTH
from spacy.attrs import POS as POS_ATTR

from .alignment_kernel import load_kernel

OPEN_POS = frozenset({POS.ADJ, POS.ADV, POS.NOUN, POS.VERB})
INF = float("inf")
FEATURES = [ORTH, LOWER, LEMMA, POS_ATTR]


@functools.lru_cache(maxsize=200_000)
def substitution_cost(o: tuple, c: tuple) -> float:
    """ERRANT's ``get_sub_cost`` on (orth, lower, lemma, pos, text) tuples: 0 <= x < 2."""
    if o[1] == c[1]:
        return 0
    lemma_cost = 0 if o[2] == c[2] else 0.499
    if o[3] == c[3]:
        pos_cost = 0.0
    elif o[3] in OPEN_POS and c[3] in OPEN_POS:
        pos_cost = 0.25
    else:
        pos_cost = 0.5
    char_cost = Indel.normalized_distance(o[4], c[4])
    return lemma_cost + pos_cost + char_cost


def _features(doc) -> list[tuple]:
    return [(t.orth, t.lower, t.lemma, t.pos, t.text) for t in doc]


OP_NAMES = ["O", "M", "S", "I", "D"]  # op codes of ``alignment_kernel.c``; 4 + k is "T<k+1>"


@functools.lru_cache(maxsize=64)
def _op_names(longest: int) -> np.ndarray:
    """Op code -> ERRANT's op string, up to the longest transposition possible."""
    return np.array(OP_NAMES + [f"T{k + 1}" for k in range(1, longest + 1)], dtype=object)


def _op_name(code: int) -> str:
    return OP_NAMES[code] if code < 5 else f"T{code - 3}"


class Side(NamedTuple):
    """One doc as the kernel reads it: (n, 4) ORTH, LOWER, LEMMA, POS rows and the words.

    Made once per doc and reused: a source sentence is aligned with every reference
    and system line that changes it.
    """

    features: np.ndarray
    words: list[str]


def side(doc, words: Sequence[str] | None = None) -> Side:
    """``words`` are the tokens the doc was made from, when the caller has them (they
    are its tokens' texts, read here without making a Token object per word)."""
    features = np.ascontiguousarray(doc.to_array(FEATURES), dtype=np.uint64).reshape(len(doc), len(FEATURES))
    return Side(features, list(words) if words is not None else [t.text for t in doc])


def _addresses(*arrays: np.ndarray | None) -> tuple[int | None, ...]:
    """The arrays' data addresses for the kernel; all None when the first is (Levenshtein costs)."""
    if arrays[0] is None:
        return (None,) * len(arrays)
    return tuple(None if a is None else a.ctypes.data for a in arrays)


def compiled_align(kernel, orig: Side, cor: Side, lev: bool) -> tuple[np.ndarray, np.ndarray, list[tuple]]:
    """ERRANT's cost and op matrices (numpy) and its cheapest align sequence, by the C kernel."""
    n, m = len(orig.words), len(cor.words)
    char_cost: np.ndarray | None = None
    o_word: np.ndarray | None = None
    c_word: np.ndarray | None = None
    c_words = 0
    if not lev and n and m:
        o_distinct, o_word = _word_numbers(orig.words)
        c_distinct, c_word = _word_numbers(cor.words)
        c_words = len(c_distinct)
        char_cost = cdist(o_distinct, c_distinct, scorer=Indel.normalized_distance, dtype=np.float64, workers=1)
    cost = np.empty((n + 1, m + 1))
    ops = np.empty((n + 1, m + 1), dtype=np.int32)
    path = np.empty(5 * (n + m) + 5, dtype=np.int32)
    steps = kernel(
        n,
        m,
        orig.features.ctypes.data,
        cor.features.ctypes.data,
        _OPEN_POS_IDS.ctypes.data,
        len(_OPEN_POS_IDS),
        *_addresses(char_cost, o_word, c_word),
        c_words,
        int(bool(lev)),
        cost.ctypes.data,
        ops.ctypes.data,
        path.ctypes.data,
    )
    if steps < 0:
        raise MemoryError("alignment kernel could not allocate its token counts")
    seq = [(_op_name(op), a, b, c, d) for op, a, b, c, d in path[: 5 * steps].reshape(steps, 5).tolist()]
    return cost, ops, seq


_OPEN_POS_IDS = np.array(sorted(OPEN_POS), dtype=np.uint64)


def _word_numbers(words: list[str]) -> tuple[list[str], np.ndarray]:
    """The distinct words in first-seen order, and each token's number among them: the
    character costs of a 5,000-token essay against its rewrite are then its vocabulary's
    pairs (about 20 MB), not 25 million token pairs (200 MB)."""
    number: dict[str, int] = {}
    numbers = np.fromiter((number.setdefault(w, len(number)) for w in words), dtype=np.int32, count=len(words))
    return list(number), numbers


class FastAlignment(Alignment):
    """Drop-in for ``errant.alignment.Alignment``: same ``align_seq``, same matrices.

    The C kernel returns the align sequence itself, so the matrices are only turned
    into ERRANT's nested lists if someone reads them. ``orig_side``/``cor_side`` are
    :func:`side` of the docs when the caller already has them.
    """

    def __init__(self, orig, cor, lev=False, orig_side: Side | None = None, cor_side: Side | None = None):
        self.orig = orig
        self.cor = cor
        kernel = load_kernel()
        if kernel is None:
            self._lists = self.python_align(lev)
            self.align_seq = self.get_cheapest_align_seq()
            return
        self._lists = None
        self._cost, self._ops, self.align_seq = compiled_align(
            kernel, orig_side or side(orig), cor_side or side(cor), lev
        )

    def _matrices(self) -> tuple[list, list]:
        if self._lists is None:
            longest = min(len(self.orig), len(self.cor))
            self._lists = (self._cost.tolist(), _op_names(longest)[self._ops].tolist())
        return self._lists

    @property
    def cost_matrix(self) -> list:
        return self._matrices()[0]

    @property
    def op_matrix(self) -> list:
        return self._matrices()[1]

    def align(self, lev):
        """ERRANT's (cost matrix, op matrix) as nested lists."""
        kernel = load_kernel()
        if kernel is None:
            return self.python_align(lev)
        cost, ops, _ = compiled_align(kernel, side(self.orig), side(self.cor), lev)
        return cost.tolist(), _op_names(min(len(self.orig), len(self.cor)))[ops].tolist()

    def python_align(self, lev):
        """The DP on plain Python lists, for machines without a C compiler."""
        o_tok, c_tok = _features(self.orig), _features(self.cor)
        o_len, c_len = len(o_tok), len(c_tok)
        o_low = [t[1] for t in o_tok]
        c_low = [t[1] for t in c_tok]
        cost = [[0.0] * (c_len + 1) for _ in range(o_len + 1)]
        ops = [["O"] * (c_len + 1) for _ in range(o_len + 1)]
        for i in range(1, o_len + 1):
            cost[i][0] = cost[i - 1][0] + 1
            ops[i][0] = "D"
        for j in range(1, c_len + 1):
            cost[0][j] = cost[0][j - 1] + 1
            ops[0][j] = "I"
        for i in range(o_len):
            o = o_tok[i]
            prev_row, row, op_row = cost[i], cost[i + 1], ops[i + 1]
            for j in range(c_len):
                c = c_tok[j]
                if o[0] == c[0]:
                    row[j + 1] = prev_row[j]
                    op_row[j + 1] = "M"
                    continue
                del_cost = prev_row[j + 1] + 1
                ins_cost = row[j] + 1
                trans_cost = INF
                k = 1
                if lev:
                    sub_cost = prev_row[j] + 1
                else:
                    sub_cost = prev_row[j] + substitution_cost(o, c)
                    while i - k >= 0 and j - k >= 0 and cost[i - k + 1][j - k + 1] != cost[i - k][j - k]:
                        if sorted(o_low[i - k : i + 1]) == sorted(c_low[j - k : j + 1]):
                            trans_cost = cost[i - k][j - k] + k
                            break
                        k += 1
                costs = [trans_cost, sub_cost, ins_cost, del_cost]
                best = costs.index(min(costs))
                row[j + 1] = costs[best]
                op_row[j + 1] = ("T" + str(k + 1), "S", "I", "D")[best]
        return cost, ops
