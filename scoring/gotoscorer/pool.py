"""A live GoToScorer pool: systems join and leave, weights and scores follow exactly.

Every weight depends on the whole pool (w_i = 1 - n_i/N), so a join or a leave changes
every member's score. Nothing needs re-aligning: a member's scores depend only on, per
class X in {TP, FP, FN, TN}, the count |X| (fixed for the member) and the integer
S_X = sum of n_i over X (see :mod:`.scores`). When a system with correct-bits c joins,
n gains c, so each member's S_X gains |X ∩ c| (a popcount of two bit arrays) and N gains
1; a leave subtracts the same. All of it is integer arithmetic, so the pool equals a
fresh :func:`.scores.pool_scores` of its final members to the last bit.

Members are stored packed (``numpy.packbits``): four class masks and the correct bits
per member, one row each in arrays that grow by doubling; a freed row is zeroed, so
updates run over all rows at once without indexing.
"""
from __future__ import annotations

import numpy as np

from .outcomes import Outcomes
from .scores import DEFAULT_PARAMS, OutcomeSums, WeightParams, class_masks, difficulty_weights, scores_from_sums, success_counts

N_CLASSES = 4  # TP, FP, FN, TN
FP = 1


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
        self.false_positives = np.zeros(n_chunks, dtype=np.int64)  # members that changed chunk i wrongly
        self._n_total = 0
        self._rows: dict[str, int] = {}
        self._free: list[int] = []
        n_bytes = (n_chunks + 7) // 8
        self._masks = np.zeros((0, N_CLASSES, n_bytes), dtype=np.uint8)
        self._correct = np.zeros((0, n_bytes), dtype=np.uint8)
        self._counts = np.zeros((0, N_CLASSES), dtype=np.int64)
        self._n_sums = np.zeros((0, N_CLASSES), dtype=np.int64)

    @classmethod
    def of(cls, gold_modified: np.ndarray, members: dict[str, Outcomes], params: WeightParams = DEFAULT_PARAMS) -> Pool:
        """A pool built from scratch: n summed once, then each member's sums from it."""
        pool = cls(gold_modified, params)
        checked = {name: pool._check(outcomes) for name, outcomes in members.items()}
        if checked:
            pool.n = success_counts(correct for _, correct in checked.values())
            pool._n_total = int(pool.n.sum())
        for name, (modified, correct) in checked.items():
            pool._store(name, modified, correct)
        return pool

    # -- membership -----------------------------------------------------------------
    @property
    def size(self) -> int:
        """N: the number of member systems."""
        return len(self._rows)

    @property
    def members(self) -> list[str]:
        return list(self._rows)

    def __contains__(self, name: str) -> bool:
        return name in self._rows

    def add(self, name: str, outcomes: Outcomes) -> None:
        """A system joins: n and N grow, every member's sums follow."""
        if name in self._rows:
            raise ValueError(f"{name!r} is already in the pool")
        modified, correct = self._check(outcomes)
        self._n_sums += self._overlap(np.packbits(correct))
        self.n += correct
        self._n_total += int(correct.sum())
        self._store(name, modified, correct)

    def remove(self, name: str) -> None:
        """A system leaves: n and N shrink, every remaining member's sums follow."""
        row = self._rows.pop(name)
        packed_correct = self._correct[row].copy()
        correct = self._unpack(packed_correct)
        self.false_positives -= self._unpack(self._masks[row, FP])
        self._masks[row] = 0
        self._correct[row] = 0
        self._counts[row] = 0
        self._n_sums[row] = 0
        self._free.append(row)
        self.n -= correct
        self._n_total -= int(correct.sum())
        self._n_sums -= self._overlap(packed_correct)

    def outcomes(self, name: str) -> Outcomes:
        """A member's stored outcome vectors, unpacked."""
        row = self._rows[name]
        masks = np.unpackbits(self._masks[row], axis=1, count=len(self.n)).astype(bool)
        return Outcomes(masks[0] | masks[1], self._unpack(self._correct[row]))

    # -- weights and scores ---------------------------------------------------------
    def weights(self) -> np.ndarray:
        """w_i = a - (n_i + b) / (N + c) for every gold chunk."""
        return difficulty_weights(self.n, self.size, self.params)

    def sums(self, name: str) -> OutcomeSums:
        row = self._rows[name]
        counts = tuple(int(k) for k in self._counts[row]) + (len(self.n),)
        n_sums = tuple(int(s) for s in self._n_sums[row]) + (self._n_total,)
        return OutcomeSums(counts, n_sums)

    def scores(self, name: str, *, weighted: bool = True, beta: float = 0.5) -> dict:
        return scores_from_sums(self.sums(name), self.size, weighted=weighted, beta=beta, params=self.params)

    def all_scores(self, *, weighted: bool = True, beta: float = 0.5) -> dict[str, dict]:
        return {name: self.scores(name, weighted=weighted, beta=beta) for name in self._rows}

    # -- storage --------------------------------------------------------------------
    def _check(self, outcomes: Outcomes) -> tuple[np.ndarray, np.ndarray]:
        modified = np.asarray(outcomes.modified, dtype=bool)
        correct = np.asarray(outcomes.correct, dtype=bool)
        if modified.shape != self.n.shape or correct.shape != self.n.shape:
            raise ValueError(f"outcome vectors must have one entry per gold chunk ({len(self.n)})")
        return modified, correct

    def _store(self, name: str, modified: np.ndarray, correct: np.ndarray) -> None:
        """Pack a member's outcomes into a free row; its sums use the current n."""
        masks = class_masks(self.gold_modified, modified, correct)
        row = self._allocate()
        self._rows[name] = row
        self._masks[row] = np.packbits(masks, axis=1)
        self._correct[row] = np.packbits(correct)
        self._counts[row] = masks.sum(axis=1)
        self._n_sums[row] = masks.astype(np.int64) @ self.n
        self.false_positives += masks[FP]

    def _overlap(self, packed_correct: np.ndarray) -> np.ndarray:
        """|X ∩ c| for every row and class: how the sums S_X move when c joins or leaves."""
        if not len(self._masks):
            return np.zeros((0, N_CLASSES), dtype=np.int64)
        return np.bitwise_count(self._masks & packed_correct).sum(axis=2, dtype=np.int64)

    def _unpack(self, packed: np.ndarray) -> np.ndarray:
        return np.unpackbits(packed, count=len(self.n)).astype(bool)

    def _allocate(self) -> int:
        if self._free:
            return self._free.pop()
        row = len(self._masks)
        grow = max(row, 4)
        self._masks = np.concatenate([self._masks, np.zeros((grow, *self._masks.shape[1:]), dtype=np.uint8)])
        self._correct = np.concatenate([self._correct, np.zeros((grow, self._correct.shape[1]), dtype=np.uint8)])
        self._counts = np.concatenate([self._counts, np.zeros((grow, N_CLASSES), dtype=np.int64)])
        self._n_sums = np.concatenate([self._n_sums, np.zeros((grow, N_CLASSES), dtype=np.int64)])
        self._free.extend(range(row + grow - 1, row, -1))
        return row
