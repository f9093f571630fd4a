"""Krippendorff's alpha with the interval metric: agreement of ratings on a scale.

alpha = 1 - D_o / D_e, where D_o is the mean squared difference of values within a unit
(each unit weighted by its pairable values, 1 / (m_u - 1)) and D_e the same over every
pair of pairable values in the data (Krippendorff, Computing Krippendorff's Alpha-
Reliability, 2011). Units with fewer than two coders' values carry no pair and are left
out; a coder's repeated values of one unit count as their mean, so a repeat does not
agree with itself. O(values): the sums of squares replace the pairs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


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
