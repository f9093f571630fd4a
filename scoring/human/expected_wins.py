"""Expected Wins (Koehn, 2012; WMT13, Bojar et al. 2013; Grundkiewicz et al., EMNLP 2015).

EW(s) = 1/|S-1| * sum over the other systems s' of wins(s, s') / (wins(s, s') + wins(s', s)),
ties left out. A pair of systems never compared without a tie adds nothing to the sum
and still counts in the divisor (as in WMT's ``infer_EW.py``, which SEEDA's figures
follow): a system is not rewarded for opponents it never beat.

Everything works on win matrices with a leading batch axis, so one call scores all
bootstrap samples at once.
"""

from __future__ import annotations

import numpy as np

from .comparisons import TIE, WIN, Comparisons


def win_counts(counts: np.ndarray, codes: np.ndarray, n_systems: int) -> np.ndarray:
    """(batch, n, n) wins[i, j] = times i beat j, from category ``counts`` (batch, K) of
    :meth:`Comparisons.categories` ``codes`` (ties add nothing). Each cell comes from one
    category only ((i, j, win) when i < j, (j, i, loss) when i > j), so a plain scatter."""
    counts = np.atleast_2d(counts).astype(float)
    outcome = codes % 3 - 1
    first, second = (codes // 3) // n_systems, (codes // 3) % n_systems
    decided = outcome != TIE
    winner = np.where(outcome == WIN, first, second)[decided]
    loser = np.where(outcome == WIN, second, first)[decided]
    wins = np.zeros((counts.shape[0], n_systems * n_systems))
    wins[:, winner * n_systems + loser] = counts[:, decided]
    return wins.reshape(counts.shape[0], n_systems, n_systems)


def expected_wins_of(wins: np.ndarray) -> np.ndarray:
    """(batch, n) Expected Wins from (batch, n, n) win matrices."""
    n = wins.shape[-1]
    decided = wins + np.swapaxes(wins, -1, -2)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(decided > 0, wins / decided, 0.0)
    return rate.sum(axis=-1) / max(n - 1, 1)


def expected_wins(comparisons: Comparisons) -> np.ndarray:
    """(n,) Expected Wins of every system of ``comparisons``."""
    codes, counts = comparisons.categories()
    return expected_wins_of(win_counts(counts, codes, len(comparisons.systems)))[0]
