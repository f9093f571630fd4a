"""Precision, recall and F-beta with ERRANT's conventions (``compare_m2.computeFScore``)."""

from __future__ import annotations


def prf(tp: float, fp: float, fn: float, beta: float = 0.5) -> tuple[float, float, float]:
    """P = 1 when FP = 0, R = 1 when FN = 0, F = 0 when P + R = 0 (unrounded)."""
    p = tp / (tp + fp) if fp else 1.0
    r = tp / (tp + fn) if fn else 1.0
    b2 = beta * beta
    f = (1 + b2) * p * r / (b2 * p + r) if p + r else 0.0
    return p, r, f


def prf_rounded(tp: float, fp: float, fn: float, beta: float = 0.5) -> tuple[float, float, float]:
    """:func:`prf` rounded to 4 decimals, as ERRANT compares and prints them."""
    p, r, f = prf(tp, fp, fn, beta)
    return round(p, 4), round(r, 4), round(f, 4)
