"""Pairwise comparisons from relative rankings (WMT13's "expanded" judgments).

A ranking of n outputs gives, for every pair of systems in it, one comparison: the first
system wins, loses or ties. Systems whose outputs were identical (one shown output) tie.
Systems are numbered in alphabetical order, so every figure is independent of the order
of the systems in a ranking and of the rankings in a file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ..errors import InputError, Problem
from .judgments import RankingItem

WIN, TIE, LOSS = 1, 0, -1
# Bounds on what one ranking costs (TrueSkill plays every comparison; the bootstrap holds
# systems^2 counts per sample): far above a campaign's (SEEDA: 15 systems, 33,544).
MAX_SYSTEMS = 200
MAX_COMPARISONS = 2_000_000


@dataclass(frozen=True)
class Comparisons:
    """Every expanded pairwise comparison: ``first < second`` (system numbers) and the
    outcome for ``first`` (+1 win, 0 tie, -1 loss), in the order of the rankings."""

    systems: list[str]
    first: np.ndarray
    second: np.ndarray
    outcome: np.ndarray

    def __len__(self) -> int:
        return len(self.outcome)

    def categories(self) -> tuple[np.ndarray, np.ndarray]:
        """(codes, counts) of the distinct (first, second, outcome) comparisons; a code is
        ``(first * n + second) * 3 + outcome + 1``."""
        n = len(self.systems)
        codes = (self.first * n + self.second) * 3 + self.outcome + 1
        return np.unique(codes, return_counts=True)


def system_names(items: Iterable[RankingItem]) -> list[str]:
    return sorted({system for item in items for system, _ in item.ranks})


def expand(items: list[RankingItem], systems: list[str] | None = None) -> Comparisons:
    """The expanded comparisons of ``items`` among ``systems`` (default: every system named).

    Raises :class:`scoring.InputError` past :data:`MAX_SYSTEMS` systems or
    :data:`MAX_COMPARISONS` comparisons, naming the ranking's line where the limit is passed.
    """
    systems = system_names(items) if systems is None else systems
    if len(systems) > MAX_SYSTEMS:
        raise InputError([Problem(0, f"{len(systems)} systems ranked: the limit is {MAX_SYSTEMS}")])
    number = {name: k for k, name in enumerate(systems)}
    first: list[int] = []
    second: list[int] = []
    outcome: list[float] = []
    for item in items:
        ranked = sorted((number[name], rank) for name, rank in item.ranks if name in number)
        if len(outcome) + len(ranked) * (len(ranked) - 1) // 2 > MAX_COMPARISONS:
            raise InputError(
                [Problem(item.line, f"more than {MAX_COMPARISONS} pairwise comparisons up to this ranking: the limit")]
            )
        for i, (a, rank_a) in enumerate(ranked):
            for b, rank_b in ranked[i + 1 :]:
                first.append(a)
                second.append(b)
                outcome.append(WIN if rank_a < rank_b else LOSS if rank_a > rank_b else TIE)
    as_array = lambda values: np.array(values, dtype=np.int64)  # noqa: E731
    return Comparisons(systems, as_array(first), as_array(second), as_array(outcome))
