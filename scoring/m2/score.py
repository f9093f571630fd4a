"""Corpus and sentence scores from per-sentence, per-annotator counts (m2scorer 3.2's rules).

A sentence's statistics are, per annotator, m2scorer's three counts: correct edits,
proposed edits and gold edits. m2scorer picks one annotator per sentence, the one whose
counts maximise F-beta of the running corpus totals with this sentence added; ties go to
more correct edits, then to fewer proposed + beta^2 gold edits, then to the first
annotator. The choice depends on the sentences before it, so it is replayed here over
the stored counts rather than stored itself. Corpus P, R and F come from the summed
counts with ERRANT's conventions (``fscore.prf``), which are m2scorer's: P = 1 with
nothing proposed, R = 1 with no gold edit.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errant.fscore import prf

Counts = Sequence[float]  # (correct, proposed, gold)


def f_beta(correct: float, proposed: float, gold: float, beta: float) -> float:
    """m2scorer's ``comp_f1`` (1 when nothing is proposed, gold or correct)."""
    try:
        return (1 + beta * beta) * correct / (beta * beta * gold + proposed)
    except ZeroDivisionError:
        return 1.0 if correct == 0.0 else 0.0


def choose(candidates: Sequence[Counts], totals: Counts, beta: float) -> int:
    """Index of the annotator m2scorer picks given the running ``totals`` (its tie rules)."""
    squared = beta * beta
    chosen, best_f, best_correct, best_cost = 0, -1.0, -1.0, float("inf")
    for k, (correct, proposed, gold, *_) in enumerate(candidates):
        c, p, g = totals[0] + correct, totals[1] + proposed, totals[2] + gold
        f = f_beta(c, p, g, beta)
        if (
            best_f < f
            or (best_f == f and best_correct < c)
            or (best_f == f and best_correct == c and best_cost > p + squared * g)
        ):
            chosen, best_f, best_correct, best_cost = k, f, c, p + squared * g
    return chosen


def corpus_choice(per_sentence: Sequence[Sequence[Counts]], beta: float) -> list[int]:
    """The annotator index m2scorer picks for each sentence, in corpus order."""
    totals = [0.0, 0.0, 0.0]
    choice = []
    for candidates in per_sentence:
        k = choose(candidates, totals, beta)
        choice.append(k)
        for j in range(3):
            totals[j] += candidates[k][j]
    return choice


def sentence_best(per_sentence: Sequence[Sequence[Counts]], beta: float) -> list[tuple[float, float, float]]:
    """Per sentence, P, R and F of that sentence alone, with the annotator m2scorer would
    pick for that sentence alone."""
    best = []
    for candidates in per_sentence:
        correct, proposed, gold = candidates[choose(candidates, (0.0, 0.0, 0.0), beta)][:3]
        best.append(prf(correct, proposed - correct, gold - correct, beta))
    return best


def sentence_scores(per_sentence: Sequence[Sequence[Counts]], beta: float) -> dict:
    """SentM2: the means over sentences of :func:`sentence_best`."""
    best = sentence_best(per_sentence, beta)
    n = max(len(best), 1)
    return {key: sum(row[k] for row in best) / n for k, key in enumerate("prf")}
