"""ERRANT's linguistic Damerau-Levenshtein alignment, compiled, with a Python fallback.

``errant.alignment.Alignment.align`` reads spaCy tokens inside its O(n*m) loop and sorts
two windows at every step of its transposition walk; at 2.4 ms a sentence it cost as much
as parsing. Here every substitution cost of a sentence is computed at once (numpy, and
rapidfuzz's ``cdist`` for the character cost) and the DP runs in C
(``alignment_kernel.c``). Where no C compiler is available the same recurrence runs on
plain Python lists. Either way the recurrence, the float arithmetic and the tie-breaking
are ERRANT's own, so the cost and operation matrices are identical
(tests/test_alignment_equivalence.py).
"""
from __future__ import annotations

import functools

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
        pos_cost = 0
    elif o[3] in OPEN_POS and c[3] in OPEN_POS:
        pos_cost = 0.25
    else:
        pos_cost = 0.5
    char_cost = Indel.normalized_distance(o[4], c[4])
    return lemma_cost + pos_cost + char_cost


def _features(doc) -> list[tuple]:
    return [(t.orth, t.lower, t.lemma, t.pos, t.text) for t in doc]


@functools.lru_cache(maxsize=64)
def _op_names(longest: int) -> np.ndarray:
    """Op code -> ERRANT's op string (codes of ``alignment_kernel.c``)."""
    return np.array(["O", "M", "S", "I", "D"] + [f"T{k + 1}" for k in range(1, longest + 1)], dtype=object)


def substitution_matrix(orig, cor, o_arr: np.ndarray, c_arr: np.ndarray) -> np.ndarray:
    """:func:`substitution_cost` of every token pair, summed in ERRANT's order."""
    lemma_cost = np.where(o_arr[:, None, 2] == c_arr[None, :, 2], 0.0, 0.499)
    o_pos, c_pos = o_arr[:, 3], c_arr[:, 3]
    both_open = np.outer([p in OPEN_POS for p in o_pos.tolist()], [p in OPEN_POS for p in c_pos.tolist()])
    pos_cost = np.where(o_pos[:, None] == c_pos[None, :], 0.0, np.where(both_open, 0.25, 0.5))
    char_cost = cdist([t.text for t in orig], [t.text for t in cor], scorer=Indel.normalized_distance, dtype=np.float64, workers=1)
    return np.where(o_arr[:, None, 1] == c_arr[None, :, 1], 0.0, (lemma_cost + pos_cost) + char_cost)


def compiled_align(kernel, orig, cor, lev: bool) -> tuple[list, list]:
    """ERRANT's cost and op matrices, the DP run by the C kernel."""
    n, m = len(orig), len(cor)
    o_arr = orig.to_array(FEATURES).reshape(n, len(FEATURES))
    c_arr = cor.to_array(FEATURES).reshape(m, len(FEATURES))
    interned: dict[int, int] = {}
    low_ids = np.array([interned.setdefault(x, len(interned)) for x in np.concatenate([o_arr[:, 1], c_arr[:, 1]]).tolist()], dtype=np.int32)
    o_orth, c_orth = np.ascontiguousarray(o_arr[:, 0]), np.ascontiguousarray(c_arr[:, 0])
    o_low, c_low = np.ascontiguousarray(low_ids[:n]), np.ascontiguousarray(low_ids[n:])
    sub = np.zeros((n, m)) if lev or not n or not m else np.ascontiguousarray(substitution_matrix(orig, cor, o_arr, c_arr))
    cost = np.empty((n + 1, m + 1))
    ops = np.empty((n + 1, m + 1), dtype=np.int32)
    status = kernel(n, m, o_orth.ctypes.data, c_orth.ctypes.data, o_low.ctypes.data, c_low.ctypes.data, n + m, sub.ctypes.data, int(bool(lev)), cost.ctypes.data, ops.ctypes.data)
    if status != 0:
        raise MemoryError("alignment kernel could not allocate its token counts")
    return cost.tolist(), _op_names(min(n, m))[ops].tolist()


class FastAlignment(Alignment):
    """Drop-in for ``errant.alignment.Alignment`` (same attributes, same results)."""

    def align(self, lev):
        kernel = load_kernel()
        if kernel is not None:
            return compiled_align(kernel, self.orig, self.cor, lev)
        return self.python_align(lev)

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
                        if sorted(o_low[i - k:i + 1]) == sorted(c_low[j - k:j + 1]):
                            trans_cost = cost[i - k][j - k] + k
                            break
                        k += 1
                costs = [trans_cost, sub_cost, ins_cost, del_cost]
                best = costs.index(min(costs))
                row[j + 1] = costs[best]
                op_row[j + 1] = ("T" + str(k + 1), "S", "I", "D")[best]
        return cost, ops
