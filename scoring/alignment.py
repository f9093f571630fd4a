"""ERRANT's linguistic Damerau-Levenshtein alignment, computed on plain Python lists.

``errant.alignment.Alignment.align`` reads spaCy tokens inside its O(n*m) loop, and the
token look-ups cost more than the dynamic programme itself. This subclass copies the
attributes it needs into tuples once per sentence and memoises the substitution cost
across sentences. The recurrence, the float arithmetic and the tie-breaking are
ERRANT's own, so the cost and operation matrices are identical (tests/test_alignment_equivalence.py).
"""
from __future__ import annotations

import functools

import spacy.parts_of_speech as POS
from errant.alignment import Alignment
from rapidfuzz.distance import Indel

OPEN_POS = frozenset({POS.ADJ, POS.ADV, POS.NOUN, POS.VERB})
INF = float("inf")


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


class FastAlignment(Alignment):
    """Drop-in for ``errant.alignment.Alignment`` (same attributes, same results)."""

    def align(self, lev):
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
                if lev:
                    sub_cost = prev_row[j] + 1
                else:
                    sub_cost = prev_row[j] + substitution_cost(o, c)
                    k = 1
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
