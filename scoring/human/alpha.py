"""Krippendorff's alpha with the interval metric: agreement of ratings on a scale.

alpha = 1 - D_o / D_e, where D_o is the mean squared difference of values within a unit
(each unit weighted by its pairable values, 1 / (m_u - 1)) and D_e the same over every
pair of pairable values in the data (Krippendorff, Computing Krippendorff's Alpha-
Reliability, 2011). Units with fewer than two coders' values carry no pair and are left
out; a coder's repeated values of one unit count as their mean, so a repeat does not
agree with itself. O(values): the sums of squares replace the pairs.

:func:`ordinal_alpha` is the same with Krippendorff's ordinal metric: the distance of
values c < k is (n_c / 2 + n_(c+1) + ... + n_(k-1) + n_k / 2)^2, n_v the pairable values
equal to v, so only the order of the scale's points counts, not their spacing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

INTERVAL, ORDINAL = "interval", "ordinal"
LEVELS = (INTERVAL, ORDINAL)


def squared_pairs(values: list[float]) -> float:
    """Sum over ordered pairs i != j of (v_i - v_j)^2."""
    m = len(values)
    total = sum(values)
    return 2 * (m * sum(v * v for v in values) - total * total)


def interval_alpha(units: Mapping[Any, Mapping[str, list[float]]]) -> float | None:
    """``units``: ``{unit: {coder: [values]}}``. None when under two pairable values, or
    when every value is the same (no disagreement to expect)."""
    pairable: list[list[float]] = []
    for coders in units.values():
        values = [sum(v) / len(v) for v in coders.values() if v]
        if len(values) >= 2:
            pairable.append(values)
    everything = [v for values in pairable for v in values]
    n = len(everything)
    if n < 2:
        return None
    expected = squared_pairs(everything) / (n * (n - 1))
    if expected <= 0:
        return None
    observed = sum(squared_pairs(values) / (len(values) - 1) for values in pairable) / n
    return 1 - observed / expected


def pairable_units(units: Mapping[Any, Mapping[str, list[float]]]) -> list[list[float]]:
    """Each unit's values, one per coder (a coder's repeats as their mean), when two or more."""
    pairable = []
    for coders in units.values():
        values = [sum(v) / len(v) for v in coders.values() if v]
        if len(values) >= 2:
            pairable.append(values)
    return pairable


def ordinal_alpha(units: Mapping[Any, Mapping[str, list[float]]]) -> float | None:
    """Alpha with the ordinal metric; None as :func:`interval_alpha`."""
    pairable = pairable_units(units)
    counts: dict[float, int] = {}
    for values in pairable:
        for v in values:
            counts[v] = counts.get(v, 0) + 1
    n = sum(counts.values())
    if n < 2:
        return None
    points = sorted(counts)
    below, position = 0.0, {}
    for v in points:  # cumulative mid-position: distance(c, k) = position[k] - position[c]
        position[v] = below + counts[v] / 2
        below += counts[v]
    expected = sum(counts[c] * counts[k] * (position[c] - position[k]) ** 2 for c in points for k in points)
    expected /= n * (n - 1)
    if expected <= 0:
        return None
    observed = 0.0
    for values in pairable:
        spots = [position[v] for v in values]
        observed += squared_pairs(spots) / (len(values) - 1)
    return 1 - (observed / n) / expected


def alpha_of(units: Mapping[Any, Mapping[str, list[float]]], level: str = INTERVAL) -> float | None:
    """Alpha at the named level of measurement (``interval`` or ``ordinal``)."""
    if level not in LEVELS:
        raise ValueError(f"alpha level {level!r}: give one of {', '.join(LEVELS)}")
    return ordinal_alpha(units) if level == ORDINAL else interval_alpha(units)
