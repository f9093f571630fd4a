"""A live GoToScorer pool: systems join and leave, weights and scores follow exactly.

Every weight depends on the whole pool (w_i = 1 - n_i/N), so a join or a leave changes
every member's score. Nothing needs re-aligning: a member's scores depend only on, per
class X in {TP, FP, FN, TN}, the count |X| (fixed for the member) and the integer
S_X = sum of n_i over X (see :mod:`.scores`). When a system with correct-bits c joins,
n gains c, so each member's S_X gains |X ∩ c| (a popcount of two bit arrays) and N gains
1; a leave subtracts the same. All of it is integer arithmetic, so the pool equals a
fresh :func:`.scores.pool_scores` of its final members to the last bit.

Members are stored packed in 64-bit words (:mod:`.words`): four class masks and the
correct bits per member, one row each in arrays that grow by doubling; a freed row is
zeroed, so updates run over all rows at once without indexing. :meth:`Pool.from_packed`
builds a whole pool from packed bits without a per-member loop (a worker's first load).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from . import words
from .outcomes import Outcomes
from .scores import DEFAULT_PARAMS, OutcomeSums, WeightParams, difficulty_weights, scores_from_sums

N_CLASSES = 4  # TP, FP, FN, TN
FP = 1
BLOCK = 64  # rows per step of a popcount over the pool: the scratch stays in cache


def class_words(
    gold: np.ndarray, modified: np.ndarray, correct: np.ndarray, valid: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """:func:`.scores.class_masks` on packed words: ``(..., 4, words)``; ``valid`` clears the padding."""
    wrong = ~correct & valid
    return np.stack(
        [modified & correct, modified & wrong, wrong & (gold | ~modified), ~modified & correct], axis=-2, out=out
    )


class Pool:
    """The pool of systems whose successes define the difficulty weights.

    ``n`` (success count per gold chunk), ``size`` (N), ``weights()``, ``scores(name)``
    and ``all_scores()`` always describe the current members.
    """

    def __init__(self, gold_modified: np.ndarray, params: WeightParams = DEFAULT_PARAMS):
        self.gold_modified = np.asarray(gold_modified, dtype=bool)
        self.params = params
        n_chunks = len(self.gold_modified)
        self.n = np.zeros(n_chunks, dtype=np.int64)
        self._n_total = 0
        self._false_positives: np.ndarray | None = np.zeros(n_chunks, dtype=np.int64)
        self._rows: dict[Hashable, int] = {}
        self._free: list[int] = []
        self._gold = words.pack(self.gold_modified)
        self._valid = words.pack(np.ones(n_chunks, dtype=bool))
        n_words = len(self._gold)
        self._masks = np.zeros((0, N_CLASSES, n_words), dtype=np.uint64)
        self._correct = np.zeros((0, n_words), dtype=np.uint64)
        self._counts = np.zeros((0, N_CLASSES), dtype=np.int64)
        self._n_sums = np.zeros((0, N_CLASSES), dtype=np.int64)
        self._scratch = np.zeros((0, N_CLASSES, n_words), dtype=np.uint64)

    @classmethod
    def of(
        cls, gold_modified: np.ndarray, members: dict[Hashable, Outcomes], params: WeightParams = DEFAULT_PARAMS
    ) -> Pool:
        """A pool built from scratch from members' outcome vectors."""
        pool = cls(gold_modified, params)
        checked = [pool._check(outcomes) for outcomes in members.values()]
        shape = (len(checked), len(pool.n))
        modified = np.array([m for m, _ in checked], dtype=bool).reshape(shape)
        correct = np.array([c for _, c in checked], dtype=bool).reshape(shape)
        pool._fill(list(members), words.pack(modified), words.pack(correct))
        return pool

    @classmethod
    def from_packed(
        cls,
        gold_modified: np.ndarray,
        names: Sequence[Hashable],
        modified: np.ndarray,
        correct: np.ndarray,
        params: WeightParams = DEFAULT_PARAMS,
    ) -> Pool:
        """A pool from ``numpy.packbits`` rows, ``(members, ceil(chunks / 8))`` uint8 each
        (how the platform stores members): n and every member's sums at once."""
        pool = cls(gold_modified, params)
        n_chunks = len(pool.n)
        shape = (len(names), (n_chunks + 7) // 8)
        if np.shape(modified) != shape or np.shape(correct) != shape:
            raise ValueError(f"packed outcomes must be {shape} bytes")
        pool._fill(list(names), words.from_bytes(modified, n_chunks), words.from_bytes(correct, n_chunks))
        return pool

    def _fill(self, names: list, modified: np.ndarray, correct: np.ndarray) -> None:
        """Members from packed words, into an empty pool: one pass over all of them, into
        arrays with room for the joins to come (no copy of every row at the next one)."""
        if len(set(names)) != len(names):
            raise ValueError("member names must be distinct")
        size = len(names)
        self._grow(size + max(size // 8, 4))
        masks = self._masks[:size]
        for start in range(0, size, BLOCK):  # a block's temporaries stay in cache
            rows = slice(start, start + BLOCK)
            class_words(self._gold, modified[rows], correct[rows], self._valid, out=masks[rows])
        self._correct[:size] = correct
        self.n = words.column_sums(correct, len(self.n))
        self._n_total = int(self.n.sum())
        self._false_positives = None  # summed when first asked for
        self._counts[:size] = words.popcount(masks)
        self._n_sums[:size] = words.weighted_sums(masks, self.n)
        self._rows = {name: row for row, name in enumerate(names)}
        self._free = self._free[: len(self._free) - size]

    # -- membership -----------------------------------------------------------------
    @property
    def size(self) -> int:
        """N: the number of member systems."""
        return len(self._rows)

    @property
    def members(self) -> list:
        return list(self._rows)

    def __contains__(self, name: Hashable) -> bool:
        return name in self._rows

    @property
    def false_positives(self) -> np.ndarray:
        """Per gold chunk, the members that changed it wrongly (the heat map's FP column)."""
        if self._false_positives is None:
            self._false_positives = words.column_sums(self._masks[:, FP], len(self.n))
        return self._false_positives

    def add(self, name: Hashable, outcomes: Outcomes) -> None:
        """A system joins: n and N grow, every member's sums follow."""
        if name in self._rows:
            raise ValueError(f"{name!r} is already in the pool")
        modified, correct = self._check(outcomes)
        packed = words.pack(correct)
        self._n_sums += self._overlap(packed)
        self.n += correct
        self._n_total += int(correct.sum())
        self._store(name, words.pack(modified), packed)

    def remove(self, name: Hashable) -> None:
        """A system leaves: n and N shrink, every remaining member's sums follow."""
        row = self._rows.pop(name)
        packed_correct = self._correct[row].copy()
        if self._false_positives is not None:
            self._false_positives -= words.unpack(self._masks[row, FP], len(self.n))
        self._masks[row] = 0
        self._correct[row] = 0
        self._counts[row] = 0
        self._n_sums[row] = 0
        self._free.append(row)
        correct = words.unpack(packed_correct, len(self.n))
        self.n -= correct
        self._n_total -= int(correct.sum())
        self._n_sums -= self._overlap(packed_correct)

    def outcomes(self, name: Hashable) -> Outcomes:
        """A member's stored outcome vectors, unpacked."""
        row = self._rows[name]
        tp, fp = words.unpack(self._masks[row, :2], len(self.n))
        return Outcomes(tp | fp, words.unpack(self._correct[row], len(self.n)))

    # -- weights and scores ---------------------------------------------------------
    def weights(self) -> np.ndarray:
        """w_i = a - (n_i + b) / (N + c) for every gold chunk."""
        return difficulty_weights(self.n, self.size, self.params)

    def sums(self, name: Hashable) -> OutcomeSums:
        row = self._rows[name]
        counts = tuple(int(k) for k in self._counts[row]) + (len(self.n),)
        n_sums = tuple(int(s) for s in self._n_sums[row]) + (self._n_total,)
        return OutcomeSums(counts, n_sums)

    def sums_table(self) -> tuple[list, np.ndarray, np.ndarray]:
        """``(names, counts, n_sums)``: every member's :meth:`sums` as ``(members, 5)``
        int64 arrays in the order of ``names``, for :func:`.scores.score_table`."""
        rows = np.fromiter(self._rows.values(), dtype=np.intp, count=len(self._rows))
        counts = np.empty((len(rows), N_CLASSES + 1), dtype=np.int64)
        n_sums = np.empty((len(rows), N_CLASSES + 1), dtype=np.int64)
        counts[:, :N_CLASSES], counts[:, N_CLASSES] = self._counts[rows], len(self.n)
        n_sums[:, :N_CLASSES], n_sums[:, N_CLASSES] = self._n_sums[rows], self._n_total
        return list(self._rows), counts, n_sums

    def scores(self, name: Hashable, *, weighted: bool = True, beta: float = 0.5) -> dict:
        return scores_from_sums(self.sums(name), self.size, weighted=weighted, beta=beta, params=self.params)

    def all_scores(self, *, weighted: bool = True, beta: float = 0.5) -> dict:
        return {name: self.scores(name, weighted=weighted, beta=beta) for name in self._rows}

    # -- storage --------------------------------------------------------------------
    def _check(self, outcomes: Outcomes) -> tuple[np.ndarray, np.ndarray]:
        modified = np.asarray(outcomes.modified, dtype=bool)
        correct = np.asarray(outcomes.correct, dtype=bool)
        if modified.shape != self.n.shape or correct.shape != self.n.shape:
            raise ValueError(f"outcome vectors must have one entry per gold chunk ({len(self.n)})")
        return modified, correct

    def _store(self, name: Hashable, modified: np.ndarray, correct: np.ndarray) -> None:
        """A member's packed outcomes into a free row; its sums use the current n."""
        masks = class_words(self._gold, modified, correct, self._valid)
        row = self._allocate()
        self._rows[name] = row
        self._masks[row] = masks
        self._correct[row] = correct
        self._counts[row] = words.popcount(masks)
        self._n_sums[row] = words.unpack(masks, len(self.n)) @ self.n
        if self._false_positives is not None:
            self._false_positives += words.unpack(masks[FP], len(self.n))

    def _overlap(self, packed_correct: np.ndarray) -> np.ndarray:
        """|X ∩ c| for every row and class: how the sums S_X move when c joins or leaves."""
        out = np.empty((len(self._masks), N_CLASSES), dtype=np.int64)
        scratch = self._scratch
        if len(scratch) != min(BLOCK, len(self._masks)):
            scratch = self._scratch = np.empty((min(BLOCK, len(self._masks)), *self._masks.shape[1:]), dtype=np.uint64)
        for start in range(0, len(self._masks), BLOCK):
            rows = self._masks[start : start + BLOCK]
            buf = scratch[: len(rows)]
            np.bitwise_and(rows, packed_correct, out=buf)
            out[start : start + len(rows)] = words.popcount(buf)
        return out

    def _allocate(self) -> int:
        if not self._free:
            self._grow(max(len(self._masks) // 2, 4))
        return self._free.pop()

    def _grow(self, grow: int) -> None:
        """``grow`` more free rows (zeros); the lowest is handed out first."""
        row = len(self._masks)
        self._masks = _extend(self._masks, grow)
        self._correct = _extend(self._correct, grow)
        self._counts = _extend(self._counts, grow)
        self._n_sums = _extend(self._n_sums, grow)
        self._free.extend(range(row + grow - 1, row - 1, -1))


def _extend(rows: np.ndarray, more: int) -> np.ndarray:
    """``rows`` and ``more`` rows of zeros after them (no copy when there were none)."""
    grown = np.zeros((len(rows) + more, *rows.shape[1:]), dtype=rows.dtype)
    grown[: len(rows)] = rows
    return grown
