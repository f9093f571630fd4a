"""CLEME's length weighting (Ye et al., EMNLP 2023, section 3.3, eq. 4).

A chunk of length ``x`` (max of source and hypothesis tokens; 0 for a dummy chunk) weighs

    TP, FN:  w = a / (1 + (a - 1) e^(l - x))        (longer corrections count more)
    FP:      w = a / (1 + (a - 1) e^(x - l))        (longer over-corrections count less)

clipped to ``[lo, hi]``; TN weighs 1. ``l`` is the mean length of the references'
changed chunks over the corpus. The settings are the paper's (= CLEME v1's
``constants.py``); HEAD's ``LengthWeigher.__init__`` drops its arguments, so HEAD's
SentCLEME silently uses the corpus settings: we do not copy that bug.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .matching import FN, FP_NE, FP_UN, TP


class Sigmoid(NamedTuple):
    alpha: float
    lo: float
    hi: float


class LengthWeights(NamedTuple):
    tp: Sigmoid
    fp: Sigmoid
    fn: Sigmoid


CORPUS = LengthWeights(Sigmoid(2.0, 0.75, 1.25), Sigmoid(2.0, 0.75, 1.25), Sigmoid(2.0, 0.75, 1.25))
SETTINGS = {
    ("dependent", "corpus"): CORPUS,
    ("independent", "corpus"): CORPUS,
    ("dependent", "sentence"): LengthWeights(
        Sigmoid(10.0, 1.0, 10.0), Sigmoid(10.0, 0.25, 1.0), Sigmoid(10.0, 1.0, 1.0)
    ),
    ("independent", "sentence"): LengthWeights(
        Sigmoid(10.0, 2.5, 10.0), Sigmoid(10.0, 0.25, 1.0), Sigmoid(10.0, 1.0, 1.0)
    ),
}


EXPONENT_CEILING = 600.0  # e^600 ~ 4e260: no overflow even times a large alpha


def sigmoid_weight(setting: Sigmoid, exponent: float) -> float:
    """The clipped sigmoid of eq. 4. A chunk some 710 tokens longer or shorter than the
    bias would overflow ``math.exp``; past :data:`EXPONENT_CEILING` the unclipped weight
    is below 1e-250, so capping the exponent there leaves the clipped weight exact."""
    alpha, lo, hi = setting
    weight = alpha / (1.0 + (alpha - 1.0) * math.exp(min(exponent, EXPONENT_CEILING)))
    return min(max(weight, lo), hi)


def length_weight(outcome: str, length: int, bias: float, settings: LengthWeights) -> float:
    """The weight of one TP, FP or FN chunk of ``length`` tokens (TN: 1)."""
    if outcome == TP:
        return sigmoid_weight(settings.tp, bias - length)
    if outcome in (FP_NE, FP_UN):
        return sigmoid_weight(settings.fp, length - bias)
    if outcome == FN:
        return sigmoid_weight(settings.fn, bias - length)
    return 1.0
