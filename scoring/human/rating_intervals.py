"""What an organizer needs beside a rated system's mean: how sure it is, and which
differences between systems the essays bear out.

- ``interval``: per system and scale, the 95% percentile bootstrap interval of the mean
  rating over items (essays): ``samples`` resamples of the items with replacement, the
  same resamples for every system, the mean of a system's ratings on the items drawn
  (an item drawn twice counts twice). Seeded: the same figures on every run.
- ``paired``: per scale, for each system A above B in the order (best first), the paired
  per-item comparison over the items both were rated on: each item's mean rating of A
  against B's, ``wins``, ``losses`` and ``ties``, and the one-sided exact sign test's
  ``p`` that A is rated higher (ties left out), so 5-7 systems' differences are judged
  essay by essay and not from system means alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

DEFAULT_SAMPLES = 1000
DEFAULT_SEED = 0  # scoring human's --seed default: the CLI and a campaign give the same intervals
CONFIDENCE = 0.95


def sign_test_p(wins: int, losses: int) -> float:
    """One-sided exact sign test: P(at least ``wins`` of ``wins + losses`` fair coin flips)."""
    n = wins + losses
    if n == 0:
        return 1.0
    term, total = math.comb(n, wins), 0
    for k in range(wins, n + 1):  # C(n, k + 1) from C(n, k): exact integers, one step each
        total += term
        term = term * (n - k) // (k + 1)
    return total / 2**n


def item_sums(rows: Sequence[tuple[str, str, float]]) -> tuple[list[str], dict[str, tuple[np.ndarray, np.ndarray]]]:
    """(items, ``{system: (sum of ratings per item, ratings per item)}``) of ``(system, item, value)`` rows."""
    items = sorted({item for _, item, _ in rows})
    where = {item: i for i, item in enumerate(items)}
    table: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for system, item, value in rows:
        sums, counts = table.setdefault(system, (np.zeros(len(items)), np.zeros(len(items))))
        sums[where[item]] += value
        counts[where[item]] += 1
    return items, table


def bootstrap_intervals(
    rows: Sequence[tuple[str, str, float]], *, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED
) -> dict[str, list[float]]:
    """``{system: [low, high]}``: the 95% bootstrap interval of its mean rating over items."""
    items, table = item_sums(rows)
    if not items or samples < 1:
        return {}
    rng = np.random.default_rng(seed)
    drawn = rng.multinomial(len(items), [1 / len(items)] * len(items), size=samples).astype(float)
    tail = (1 - CONFIDENCE) / 2 * 100
    out = {}
    for system, (sums, counts) in table.items():
        totals, numbers = drawn @ sums, drawn @ counts
        means = totals[numbers > 0] / numbers[numbers > 0]
        if not len(means):
            continue
        low, high = np.percentile(means, [tail, 100 - tail])
        out[system] = [float(low), float(high)]
    return out


def paired_comparisons(order: Sequence[str], segments: Mapping[str, Mapping[str, float]]) -> dict[str, dict]:
    """``{A: {B: {"n", "wins", "losses", "ties", "p"}}}`` for A above B in ``order``."""
    out: dict[str, dict] = {}
    for i, upper in enumerate(order):
        for lower in order[i + 1 :]:
            shared = sorted(set(segments[upper]) & set(segments[lower]))
            wins = sum(segments[upper][k] > segments[lower][k] for k in shared)
            losses = sum(segments[upper][k] < segments[lower][k] for k in shared)
            out.setdefault(upper, {})[lower] = {
                "n": len(shared),
                "wins": wins,
                "losses": losses,
                "ties": len(shared) - wins - losses,
                "p": sign_test_p(wins, losses),
            }
    return out
