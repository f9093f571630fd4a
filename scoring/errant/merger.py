"""ERRANT's rule-based merger (``errant/en/merger.py``) with errant's results in bounded time.

errant's ``process_seq`` tries every (start, end) pair of a run of non-match operations,
longest span first, and for each pair slices both token spans, joins their strings and
builds their POS set before testing its merge and split rules: O(L^3) work for a run of
L operations, more through its recursion. A 1,000-token output line took 6.7 s there,
and 465 s when its words were long.

Here a run longer than :data:`SHORT_RUN` is handled by :class:`_Run`: every rule's
condition is computed for all pairs at once from per-operation arrays (prefix counts,
runs of equal POS and prefix hashes of the joined strings), so finding the first pair
in errant's order at which some rule fires is a scan of a boolean matrix. errant's own
rule chain is then evaluated on that one pair with the real tokens, so the outcome is
errant's by construction (a hash collision only costs a second look). Shorter runs go
through errant's function unchanged. tests/scoring/test_merger_equivalence.py compares both.
"""

from __future__ import annotations

import re
from itertools import groupby
from string import punctuation

import numpy as np
import spacy.symbols as POS
from errant.edit import Edit
from errant.en import merger as errant_merger
from spacy.attrs import LOWER, ORTH, TAG
from spacy.attrs import POS as POS_ATTR

SHORT_RUN = 24  # runs up to this many operations: errant's own process_seq is cheaper
ROW_BLOCK = 64  # rows of the pair matrix built at a time (bounds the temporaries)
OPEN_POS = {POS.ADJ, POS.AUX, POS.ADV, POS.NOUN, POS.VERB}  # errant's merger's open_pos
VERBAL_POS = {POS.AUX, POS.PART, POS.VERB}
HASH_BASE = 1_000_003
HASH_MODULI = (2_147_483_629, 2_147_483_587)  # primes below 2**31: products fit in int64
APOSTROPHE_HYPHEN = re.compile("['-]")


def rule_edits(alignment, short_run: int = SHORT_RUN) -> list[Edit]:
    """``errant.en.merger.get_rule_edits``: the merged edits of one alignment."""
    edits: list[Edit] = []
    sides = None
    for op, run in groupby(alignment.align_seq, lambda x: x[0][0] if x[0][0] in {"M", "T"} else False):
        group = list(run)
        if op == "M":
            continue
        if op == "T" or len(group) <= short_run:
            processed = group if op == "T" else errant_merger.process_seq(group, alignment)
        else:
            sides = sides or (_Tokens(alignment.orig), _Tokens(alignment.cor))
            processed = _Run(group, alignment, sides).process()
        edits.extend(Edit(alignment.orig, alignment.cor, seq[1:]) for seq in processed)
    return edits


class _Tokens:
    """Per-token features of one side (orig or cor), padded by two so that the index
    -1 or -2 of an empty span reads padding, never a real token."""

    def __init__(self, doc):
        strings = doc.vocab.strings
        n = len(doc)
        pad = 2
        columns = doc.to_array([ORTH, LOWER, POS_ATTR, TAG]).reshape(n, 4) if n else np.zeros((0, 4), dtype=np.uint64)
        texts = [strings[int(orth)] for orth in columns[:, 0]]
        lowers = [strings[int(lower)] for lower in columns[:, 1]]
        self.lower = np.zeros(n + pad, dtype=np.uint64)  # spaCy string hashes
        self.lower[:n] = columns[:, 1]
        self.pos = np.full(n + pad, -1, dtype=np.int64)
        self.pos[:n] = columns[:, 2].astype(np.int64)
        self.possessive = np.zeros(n + pad, dtype=bool)
        self.possessive[:n] = columns[:, 3] == strings["POS"]
        self.punct = np.zeros(n + pad, dtype=bool)
        self.punct[:n] = [
            pos == POS.PUNCT or text in punctuation for pos, text in zip(self.pos[:n], texts)
        ]  # errant's is_punct
        self.upper_first = np.zeros(n + pad, dtype=bool)
        self.upper_first[:n] = [text[0].isupper() for text in texts]
        real = self.pos[:n]
        self.open_before = _prefix(np.isin(real, list(OPEN_POS)))
        self.nonverbal_before = _prefix(~np.isin(real, list(VERBAL_POS)))
        # same_pos_run[k]: how many tokens from k on share token k's POS
        self.same_pos_run = np.zeros(n + 1, dtype=np.int64)
        for k in range(n - 1, -1, -1):
            self.same_pos_run[k] = 1 + (self.same_pos_run[k + 1] if k + 1 < n and real[k + 1] == real[k] else 0)
        cleaned = [APOSTROPHE_HYPHEN.sub("", lower) for lower in lowers]
        self.text = "".join(cleaned)
        self.char_before = _prefix(np.array([len(c) for c in cleaned], dtype=np.int64))
        self.hashes = [_prefix_hash(self.text, modulus) for modulus in HASH_MODULI]


def _first_in_errant_order(pairs: np.ndarray) -> tuple[int, int]:
    """The True pair (start, end) that errant's loop reaches first: the longest span
    (end - start), and of those the smallest start (``combos`` sorted stably)."""
    n = pairs.shape[1]
    has = pairs.any(axis=1)
    last = np.where(has, n - 1 - np.argmax(pairs[:, ::-1], axis=1), -1)
    span = np.where(has, last - np.arange(len(pairs)), -1)
    start = int(np.argmax(span))
    return start, int(last[start])


def _prefix(values: np.ndarray) -> np.ndarray:
    out = np.zeros(len(values) + 1, dtype=np.int64)
    np.cumsum(values, out=out[1:])
    return out


def _prefix_hash(text: str, modulus: int) -> tuple[np.ndarray, np.ndarray]:
    """``h[k] = sum(ord(text[i]) * B^i for i < k) mod p`` and ``B^k mod p``, so that a span
    [i, j) of one string and [i2, j2) of another are equal (up to collisions) when
    ``(h[j] - h[i]) * B^i2 == (h2[j2] - h2[i2]) * B^i`` mod p."""
    block = 1024
    low = np.ones(block, dtype=np.int64)  # B^0 .. B^1023
    for k in range(1, block):
        low[k] = low[k - 1] * HASH_BASE % modulus
    high = np.ones(len(text) // block + 1, dtype=np.int64)  # B^(1024 j)
    step = int(low[-1]) * HASH_BASE % modulus
    for j in range(1, len(high)):
        high[j] = high[j - 1] * step % modulus
    powers = (high[:, None] * low[None, :] % modulus).ravel()[: len(text) + 1]
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.int64)
    terms = codes % modulus * powers[: len(text)] % modulus
    return _prefix(terms) % modulus, powers


class _Run:
    """One run of D/I/S operations and the rule conditions of all its (start, end) pairs."""

    def __init__(self, seq: list[tuple], alignment, sides: tuple[_Tokens, _Tokens]):
        self.seq = seq
        self.alignment = alignment
        self.ops = [x[0] for x in seq]
        self.o, self.c = sides
        self.o1, self.o2, self.c1, self.c2 = (np.array([x[k] for x in seq], dtype=np.int64) for k in (1, 2, 3, 4))
        self.s_before = _prefix(np.array([op == "S" for op in self.ops]))
        self.fires = self._inner_rules()

    # -- the matrix of pairs at which a position-independent rule fires ------------
    def _inner_rules(self) -> np.ndarray:
        n = len(self.seq)
        fires = np.zeros((n, n), dtype=bool)
        for top in range(0, n, ROW_BLOCK):
            rows = np.arange(top, min(top + ROW_BLOCK, n))[:, None]
            fires[rows[:, 0]] = self._block(rows, np.arange(n)[None, :])
        fires[np.arange(n - 1), np.arange(1, n)] |= self._adjacent_splits()
        return fires

    def _block(self, s: np.ndarray, e: np.ndarray) -> np.ndarray:
        """Rules 2, 3b, 4 and 5 of ``process_seq`` for pairs (s, e), e > s, that contain an S."""
        o, c = self.o, self.c
        o_start, o_end, c_start, c_end = self.o1[s], self.o2[e], self.c1[s], self.c2[e]
        len_o, len_c = o_end - o_start, c_end - c_start
        has_s = (e > s) & (self.s_before[e + 1] - self.s_before[s] > 0)
        possessive_end = o.possessive[o_end - 1] | c.possessive[c_end - 1]
        case_change = o.lower[o_end - 1] == c.lower[c_end - 1]
        punct_before = ((len_o > 1) & o.punct[o_end - 2]) | ((len_c > 1) & c.punct[c_end - 2])
        same_pos = (
            (o.same_pos_run[o_start] >= len_o) & (c.same_pos_run[c_start] >= len_c) & (o.pos[o_start] == c.pos[c_start])
        )
        verbal = (o.nonverbal_before[o_end] - o.nonverbal_before[o_start] == 0) & (
            c.nonverbal_before[c_end] - c.nonverbal_before[c_start] == 0
        )
        merge_pos = (len_o != len_c) & (same_pos | verbal)
        return has_s & (
            possessive_end
            | (case_change & punct_before)
            | self._same_string(o_start, o_end, c_start, c_end)
            | merge_pos
        )

    def _same_string(self, o_start, o_end, c_start, c_end) -> np.ndarray:
        """Whether the joined lower-cased spans, apostrophes and hyphens removed, agree."""
        o, c = self.o, self.c
        i, j, i2, j2 = np.broadcast_arrays(
            o.char_before[o_start], o.char_before[o_end], c.char_before[c_start], c.char_before[c_end]
        )
        equal = (j - i) == (j2 - i2)  # a new array, unlike the broadcast views
        where = np.nonzero(equal)
        i, j, i2, j2 = i[where], j[where], i2[where], j2[where]
        same = np.ones(len(i), dtype=bool)
        for (ho, po), (hc, pc), p in zip(o.hashes, c.hashes, HASH_MODULI):
            same &= (ho[j] - ho[i]) % p * pc[i2] % p == (hc[j2] - hc[i2]) % p * po[i] % p
        equal[where] = same
        return equal

    def _adjacent_splits(self) -> np.ndarray:
        """The split rules of pairs (s, s + 1) that do not depend on the run's end."""
        out = np.zeros(len(self.seq) - 1, dtype=bool)
        for s in range(len(self.seq) - 1):
            if "S" in self.ops[s : s + 2]:
                o_toks, c_toks = self._spans(s, s + 1)
                out[s] = (len(o_toks) == len(c_toks) == 2) or self._similar_at_boundary(s, s + 1, o_toks, c_toks)
        return out

    # -- errant's process_seq over seq[a:b] -----------------------------------------
    def process(self) -> list[tuple]:
        """errant's recursion, unrolled: a stack of ranges still to process and of
        finished operations, expanded in order (a run can be longer than Python's
        recursion limit)."""
        out: list[tuple] = []
        stack: list = [(0, len(self.seq))]
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                out.extend(item)
                continue
            stack.extend(reversed(self._step(*item)))
        return out

    def _step(self, a: int, b: int) -> list:
        """One call of ``process_seq(seq[a:b])``: finished operations (lists) and ranges."""
        seq = self.seq[a:b]
        if len(seq) <= 1:
            return [seq]
        ops = set(self.ops[a:b])
        if ops == {"D"} or ops == {"I"}:
            return [errant_merger.merge_edits(seq)]
        candidates = self.fires[a:b, a:b].copy()
        candidates[0] |= self._first_row_rules(a, b)
        if b - a >= 2 and self._final_determiner(b - 1) and "S" in self.ops[b - 2 : b]:
            candidates[b - a - 2, b - a - 1] = True
        while candidates.any():
            start, end = _first_in_errant_order(candidates)
            result = self._rules_at(a, b, a + start, a + end)
            if result is not None:
                return result
            candidates[start, end] = False  # a hash collision: errant's rules do not fire here
        content = self.s_before[b] > self.s_before[a] and self._has_open_pos(a, b - 1)
        return [errant_merger.merge_edits(seq) if content else seq]

    def _first_row_rules(self, a: int, b: int) -> np.ndarray:
        """Rules 1 and 3a, which fire only on pairs that start the run (start == 0)."""
        e = np.arange(a, b)
        o, c = self.o, self.c
        o_start, c_start, o_end, c_end = self.o1[a], self.c1[a], self.o2[e], self.c2[e]
        has_s = (e > a) & (self.s_before[e + 1] - self.s_before[a] > 0)
        possessive_start = bool(o.possessive[o_start] or c.possessive[c_start])
        case_change = o.lower[o_end - 1] == c.lower[c_end - 1]
        capital = ((o_end - o_start == 1) & c.upper_first[c_start]) | ((c_end - c_start == 1) & o.upper_first[o_start])
        return has_s & (possessive_start | (case_change & capital))

    def _final_determiner(self, e: int) -> bool:
        op = self.ops[e]
        return (op in {"D", "S"} and self.o.pos[self.o2[e] - 1] == POS.DET) or (
            op in {"I", "S"} and self.c.pos[self.c2[e] - 1] == POS.DET
        )

    def _has_open_pos(self, s: int, e: int) -> bool:
        o, c = self.o, self.c
        return bool(
            o.open_before[self.o2[e]] - o.open_before[self.o1[s]]
            or c.open_before[self.c2[e]] - c.open_before[self.c1[s]]
        )

    def _spans(self, s: int, e: int):
        return self.alignment.orig[self.seq[s][1] : self.seq[e][2]], self.alignment.cor[self.seq[s][3] : self.seq[e][4]]

    def _similar_at_boundary(self, s: int, e: int, o_toks, c_toks) -> bool:
        return (self.ops[s] == "S" and errant_merger.char_cost(o_toks[0], c_toks[0]) > 0.75) or (
            self.ops[e] == "S" and errant_merger.char_cost(o_toks[-1], c_toks[-1]) > 0.75
        )

    def _same_last_word(self, a: int, b: int, s: int, e: int, o_toks, c_toks) -> list | None:
        """errant's rules for spans ending in the same word: a case change at the start, or punctuation before it."""
        seq = self.seq
        merge = errant_merger.merge_edits
        if s == a and (
            (len(o_toks) == 1 and c_toks[0].text[0].isupper()) or (len(c_toks) == 1 and o_toks[0].text[0].isupper())
        ):
            return [merge(seq[s : e + 1]), (e + 1, b)]
        if (len(o_toks) > 1 and errant_merger.is_punct(o_toks[-2])) or (
            len(c_toks) > 1 and errant_merger.is_punct(c_toks[-2])
        ):
            return [(a, e - 1), merge(seq[e - 1 : e + 1]), (e + 1, b)]
        return None

    def _rules_at(self, a: int, b: int, s: int, e: int) -> list | None:
        """errant's rule chain for the pair (s, e) of seq[a:b], on the real tokens;
        None when no rule fires there."""
        seq = self.seq
        merge = errant_merger.merge_edits
        o_toks, c_toks = self._spans(s, e)
        if s == a and (o_toks[0].tag_ == "POS" or c_toks[0].tag_ == "POS"):
            return [[seq[a]], (a + 1, b)]
        if o_toks[-1].tag_ == "POS" or c_toks[-1].tag_ == "POS":
            return [(a, e - 1), merge(seq[e - 1 : e + 1]), (e + 1, b)]
        if o_toks[-1].lower == c_toks[-1].lower:
            same_last = self._same_last_word(a, b, s, e, o_toks, c_toks)
            if same_last is not None:
                return same_last
        s_str = APOSTROPHE_HYPHEN.sub("", "".join(tok.lower_ for tok in o_toks))
        t_str = APOSTROPHE_HYPHEN.sub("", "".join(tok.lower_ for tok in c_toks))
        if s_str == t_str:
            return [(a, s), merge(seq[s : e + 1]), (e + 1, b)]
        pos_set = {tok.pos for tok in o_toks} | {tok.pos for tok in c_toks}
        if len(o_toks) != len(c_toks) and (len(pos_set) == 1 or pos_set.issubset(VERBAL_POS)):
            return [(a, s), merge(seq[s : e + 1]), (e + 1, b)]
        if e - s < 2:
            if len(o_toks) == len(c_toks) == 2 or self._similar_at_boundary(s, e, o_toks, c_toks):
                return [(a, s + 1), (s + 1, b)]
            if e == b - 1 and self._final_determiner(e):
                return [(a, b - 1), [seq[b - 1]]]
        return None
