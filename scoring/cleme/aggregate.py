"""From per-chunk outcomes to CLEME (P/R/F/Acc) and CLEME2.0 (Hit/Error/Under/Over) scores.

Each sentence offers one candidate per kept reference: weighted counts
``(tp, fp_ne, fp_un, fn, tn)``. Corpus level picks, sentence by sentence, the candidate
that maximises the score of the running totals (as ERRANT does); sentence level picks
each sentence's best candidate and averages its scores.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errant.fscore import prf
from .matching import FN, FP_NE, FP_UN, TN, TP

Counts = list[float]  # [tp, fp_ne, fp_un, fn, tn]
SLOT = {TP: 0, FP_NE: 1, FP_UN: 2, FN: 3}


def candidates(statistics: dict, assumption: str, weight: Callable[[list, str, int], float]) -> list[list[Counts]]:
    """Per sentence, per kept reference, the weighted outcome counts.

    ``weight(record, outcome, reference_position)`` weighs a TP/FP/FN chunk; TN chunks
    weigh 1 and include the chunks no target changes.
    """
    per_sentence = []
    dependent = assumption == "dependent"
    for n_chunks, records, refs in zip(statistics["n_chunks"], statistics["chunks"], statistics["refs"]):
        sentence = []
        for position in range(len(refs)):
            counts = [0.0, 0.0, 0.0, 0.0, float(n_chunks)]
            for record in records:
                outcome = record[5][position] if dependent else record[6]
                if outcome != TN:
                    counts[SLOT[outcome]] += weight(record, outcome, position)
                    counts[4] -= 1.0
            sentence.append(counts)
        per_sentence.append(sentence)
    return per_sentence


# -- CLEME: P, R, F-beta, accuracy (v1 ``scorers/scorer_base.py``) -------------------------


def rounded_prf(tp: float, fp: float, fn: float, beta: float) -> tuple[float, float, float]:
    p, r, f = prf(tp, fp, fn, beta)
    return round(p, 4), round(r, 4), round(f, 4)


def accuracy(tp: float, fp: float, fn: float, tn: float) -> float:
    total = tp + fp + fn + tn
    return (tp + tn) / total if total else 0.0


def prf_result(tp: float, fp: float, fn: float, tn: float, p: float, r: float, f: float, acc: float) -> dict:
    return {"tp": tp, "fp": fp, "fn": fn, "tn": tn, "p": p, "r": r, "f": f, "acc": acc}


def cleme_choice(per_sentence: list[list[Counts]], beta: float) -> list[Counts]:
    """Per sentence, the candidate of the greedy corpus choice: by the F of the running
    totals, compared at 4 decimals as v1's ``compute_f`` rounds; ties: more TP, fewer FP,
    fewer FN, more TN, then the first."""
    tp = fp = fn = 0.0
    chosen = []
    for sentence in per_sentence:
        best, best_key = sentence[0], None
        for c in sentence:
            cfp = c[1] + c[2]
            key = (rounded_prf(tp + c[0], fp + cfp, fn + c[3], beta)[2], c[0], -cfp, -c[3], c[4])
            if best_key is None or key > best_key:
                best, best_key = c, key
        tp, fp, fn = tp + best[0], fp + best[1] + best[2], fn + best[3]
        chosen.append(best)
    return chosen


def cleme_corpus(per_sentence: list[list[Counts]], beta: float) -> dict:
    """P, R, F-beta and accuracy of the summed counts of :func:`cleme_choice`."""
    tp = fp = fn = tn = 0.0
    for best in cleme_choice(per_sentence, beta):
        tp, fp, fn, tn = tp + best[0], fp + best[1] + best[2], fn + best[3], tn + best[4]
    return prf_result(tp, fp, fn, tn, *prf(tp, fp, fn, beta), accuracy(tp, fp, fn, tn))


def cleme_of_totals(totals: np.ndarray, beta: float) -> dict[str, np.ndarray]:
    """Vectorised :func:`cleme_corpus` scores of summed (tp, fp_ne, fp_un, fn, tn) rows."""
    tp, fp, fn, tn = totals[:, 0], totals[:, 1] + totals[:, 2], totals[:, 3], totals[:, 4]
    b2 = beta * beta
    total = tp + fp + fn + tn
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(fp > 0, tp / (tp + fp), 1.0)
        r = np.where(fn > 0, tp / (tp + fn), 1.0)
        f = np.where(p + r > 0, (1 + b2) * p * r / (b2 * p + r), 0.0)
        acc = np.where(total > 0, (tp + tn) / total, 0.0)
    return {"p": p, "r": r, "f": f, "acc": acc}


def cleme_sentence(per_sentence: list[list[Counts]], beta: float) -> dict:
    """Mean of each sentence's best P, R, F and accuracy, each rounded to 4 decimals first
    (v1 ``SentenceScorer``). Best = highest (F, P, R), then the LOWER accuracy: v1's
    tie-break, kept as is. A sentence nobody changes scores 1 (P = R = 1 on 0/0)."""
    totals = [0.0] * 8
    for sentence in per_sentence:
        scored = []
        for c in sentence:
            fp = c[1] + c[2]
            p, r, f = rounded_prf(c[0], fp, c[3], beta)
            scored.append(((f, p, r, -round(accuracy(c[0], fp, c[3], c[4]), 4)), (c[0], fp, c[3], c[4], p, r, f)))
        (_, _, _, neg_acc), (tp, fp, fn, tn, p, r, f) = max(scored, key=lambda s: s[0])
        for k, value in enumerate((tp, fp, fn, tn, p, r, f, -neg_acc)):
            totals[k] += value
    n = max(len(per_sentence), 1)
    return prf_result(*totals[:4], *(value / n for value in totals[4:]))


# -- CLEME2.0: Hit, Error, Under, Over and their combination (HEAD ``scorer_heuo.py``) -----


def heuo(
    tp: float, fp_ne: float, fp_un: float, fn: float, factors: tuple[float, float, float, float]
) -> tuple[float, float, float, float, float]:
    """Hit, Error, Under, Over and Score (CLEME2.0 section 3.2): NE = TP + FP_ne + FN,
    Over = FP_un / (TP + FP), each 0 on a 0 denominator;
    Score = a1 Hit + a2 (1 - Error) + a3 (1 - Under) + a4 (1 - Over)."""
    ne = tp + fp_ne + fn
    done = tp + fp_ne + fp_un
    hit = tp / ne if ne else 0.0
    error = fp_ne / ne if ne else 0.0
    under = fn / ne if ne else 0.0
    over = fp_un / done if done else 0.0
    a1, a2, a3, a4 = factors
    return hit, error, under, over, a1 * hit + a2 * (1 - error) + a3 * (1 - under) + a4 * (1 - over)


def heuo_result(counts: Counts, hit: float, error: float, under: float, over: float, score: float) -> dict:
    tp, fp_ne, fp_un, fn, tn = counts
    return {
        "tp": tp,
        "fp_ne": fp_ne,
        "fp_un": fp_un,
        "fn": fn,
        "tn": tn,
        "hit": hit,
        "error": error,
        "under": under,
        "over": over,
        "score": score,
    }


def cleme2_choice(per_sentence: list[list[Counts]], factors: tuple[float, float, float, float]) -> list[Counts]:
    """Per sentence, the candidate of the greedy corpus choice: by the Score of the running
    totals (unrounded); ties: more TP, fewer FP, fewer FN, more TN, then the first."""
    tp = fp_ne = fp_un = fn = 0.0
    chosen = []
    for sentence in per_sentence:
        best, best_key = sentence[0], None
        for c in sentence:
            score = heuo(tp + c[0], fp_ne + c[1], fp_un + c[2], fn + c[3], factors)[4]
            key = (score, c[0], -(c[1] + c[2]), -c[3], c[4])
            if best_key is None or key > best_key:
                best, best_key = c, key
        tp, fp_ne, fp_un, fn = tp + best[0], fp_ne + best[1], fp_un + best[2], fn + best[3]
        chosen.append(best)
    return chosen


def cleme2_corpus(per_sentence: list[list[Counts]], factors: tuple[float, float, float, float]) -> dict:
    """Hit, Error, Under, Over and Score of the summed counts of :func:`cleme2_choice`."""
    tp = fp_ne = fp_un = fn = tn = 0.0
    for best in cleme2_choice(per_sentence, factors):
        tp, fp_ne, fp_un, fn, tn = tp + best[0], fp_ne + best[1], fp_un + best[2], fn + best[3], tn + best[4]
    return heuo_result([tp, fp_ne, fp_un, fn, tn], *heuo(tp, fp_ne, fp_un, fn, factors))


def heuo_of_totals(totals: np.ndarray, factors: tuple[float, float, float, float]) -> dict[str, np.ndarray]:
    """Vectorised :func:`heuo` of summed (tp, fp_ne, fp_un, fn, tn) rows."""
    tp, fp_ne, fp_un, fn = totals[:, 0], totals[:, 1], totals[:, 2], totals[:, 3]
    ne, done = tp + fp_ne + fn, tp + fp_ne + fp_un
    with np.errstate(divide="ignore", invalid="ignore"):
        hit, error, under = (np.where(ne > 0, x / ne, 0.0) for x in (tp, fp_ne, fn))
        over = np.where(done > 0, fp_un / done, 0.0)
    a1, a2, a3, a4 = factors
    return {
        "hit": hit,
        "error": error,
        "under": under,
        "over": over,
        "score": a1 * hit + a2 * (1 - error) + a3 * (1 - under) + a4 * (1 - over),
    }


def cleme2_sentence(per_sentence: list[list[Counts]], factors: tuple[float, float, float, float]) -> dict:
    """Each sentence's best candidate by (Score, Hit, -Error, -Under, -Over); counts summed,
    ratios averaged. A sentence with nothing to do and nothing done scores a2 + a3 + a4."""
    totals = [0.0] * 5
    means = [0.0] * 5
    for sentence in per_sentence:
        scored = [(heuo(c[0], c[1], c[2], c[3], factors), c) for c in sentence]
        (hit, error, under, over, score), best = max(
            scored, key=lambda s: (s[0][4], s[0][0], -s[0][1], -s[0][2], -s[0][3])
        )
        totals = [a + b for a, b in zip(totals, best)]
        for k, value in enumerate((hit, error, under, over, score)):
            means[k] += value
    n = max(len(per_sentence), 1)
    return heuo_result(totals, *(value / n for value in means))
