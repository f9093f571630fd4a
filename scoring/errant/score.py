"""ERRANT's scoring arithmetic over stored counts, as ``errant_compare`` 3.0.2 does it: edit
keys per mode, TP/FP/FN of a hypothesis against a reference, the greedy corpus choice of
reference, corpus, per-type and sentence-level scores. The annotator (alignment, merging,
types) is the rest of this package; :mod:`scoring.metrics.errant` is the metric that
counts a dataset with it, as :mod:`scoring.metrics.m2` does with :mod:`scoring.m2.score`.
"""

from __future__ import annotations

from collections import defaultdict

from .edits import UNK, Edit
from .fscore import prf, prf_rounded

MODES = ("cs", "ds", "dt", "cse")
CATEGORY_LEVELS = ("1", "2", "3")


def edit_keys(edits: list[Edit], mode: str, counted_as: list[str] | None = None) -> dict[tuple, list[str]]:
    """ERRANT's ``process_edits``: the comparison key of each edit, with its types.

    UNK edits only count in detection; ``dt`` splits spans into tokens (an insertion
    is the token to its right); several edits may share a key, hence the type lists
    (the shown types; ``cse`` keys on ERRANT's own, :attr:`Edit.compared_type`).
    ``counted_as`` (parallel to ``edits``) is the type each edit is counted under in the
    per-type tables when that is not its own (gold re-typed by ERRANT:
    :mod:`scoring.metrics.gold_types`);
    the keys, hence the overall counts, stay those of the edits as given.
    """
    keys: dict[tuple, list[str]] = defaultdict(list)
    for k, (start, end, correction, etype, errant_type) in enumerate(edits):
        if etype == UNK and mode not in ("ds", "dt"):
            continue
        counted = counted_as[k] if counted_as else etype
        if mode == "dt":
            if start == end:
                keys[(start, start + 1)].append(counted)
            else:
                for token in range(start, end):
                    keys[(token, token + 1)].append(counted)
        elif mode == "ds":
            keys[(start, end)].append(counted)
        elif mode == "cse":
            keys[(start, end, errant_type or etype, correction)].append(counted)
        else:
            keys[(start, end, correction)].append(counted)
    return keys


def compare_edits(hyp: dict[tuple, list[str]], ref: dict[tuple, list[str]]) -> list:
    """``[tp, fp, fn, {type: [tp, fp, fn]}]``: TP under the reference's types, FP under
    the hypothesis's, FN under the reference's (``compare_m2.compareEdits``)."""
    tp = fp = fn = 0
    types: dict[str, list[int]] = {}
    for key, cats in hyp.items():
        if key in ref:
            for cat in ref[key]:
                tp += 1
                types.setdefault(cat, [0, 0, 0])[0] += 1
        else:
            for cat in cats:
                fp += 1
                types.setdefault(cat, [0, 0, 0])[1] += 1
    for key, cats in ref.items():
        if key not in hyp:
            for cat in cats:
                fn += 1
                types.setdefault(cat, [0, 0, 0])[2] += 1
    return [tp, fp, fn, types]


def recalled(hyp: dict[tuple, list[str]], ref: dict[tuple, list[str]]) -> dict[str, list[int]]:
    """``{annotator's type: [tp, fn]}``: the gold edits found and missed, under the types
    the gold gives them (systems' edits have none of these types: no FP here)."""
    types: dict[str, list[int]] = {}
    for key, cats in ref.items():
        for cat in cats:
            types.setdefault(cat, [0, 0])[0 if key in hyp else 1] += 1
    return types


def greedy_choice(per_sentence: list[list[list]], beta: float) -> list[int]:
    """The index of the reference ERRANT picks for each sentence at corpus level."""
    tp = fp = fn = 0
    choice = []
    for candidates in per_sentence:
        best, best_key = 0, None
        for j, (ctp, cfp, cfn, _) in enumerate(candidates):
            f = prf_rounded(tp + ctp, fp + cfp, fn + cfn, beta)[2]
            key = (f, ctp, -cfp, -cfn)
            if best_key is None or key > best_key:
                best, best_key = j, key
        choice.append(best)
        ctp, cfp, cfn, _ = candidates[best]
        tp, fp, fn = tp + ctp, fp + cfp, fn + cfn
    return choice


def category(etype: str, level: str) -> str:
    """ERRANT's ``-cat``: 1 = M/R/U, 2 = type without its prefix, 3 = full type; UNK stays."""
    if etype == UNK or level == "3":
        return etype
    return etype[0] if level == "1" else etype[2:]


def score_counts(tp: int, fp: int, fn: int, beta: float) -> dict:
    p, r, f = prf(tp, fp, fn, beta)
    return {"tp": tp, "fp": fp, "fn": fn, "p": p, "r": r, "f": f}


def corpus_scores(per_sentence: list[list[list]], beta: float, choice: list[int] | None = None) -> tuple[dict, dict]:
    """Overall counts and per-type tables (cat 1/2/3) under the greedy reference choice."""
    choice = greedy_choice(per_sentence, beta) if choice is None else choice
    tp = fp = fn = 0
    by_type: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for candidates, j in zip(per_sentence, choice):
        ctp, cfp, cfn, types = candidates[j]
        tp, fp, fn = tp + ctp, fp + cfp, fn + cfn
        for etype, (a, b, c) in types.items():
            row = by_type[etype]
            row[0] += a
            row[1] += b
            row[2] += c
    per_type: dict[str, dict] = {}
    for level in CATEGORY_LEVELS:
        merged: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for etype, row in by_type.items():
            target = merged[category(etype, level)]
            for k in range(3):
                target[k] += row[k]
        per_type[level] = {name: score_counts(a, b, c, beta) for name, (a, b, c) in sorted(merged.items())}
    return score_counts(tp, fp, fn, beta), per_type


def annotator_table(statistics: dict, beta: float) -> dict[str, dict]:
    """Recall per annotator's type under the corpus-level reference choice of mode cs:
    ``{type: {"tp", "fn", "r"}}``."""
    choice = greedy_choice(statistics["counts"]["cs"], beta)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for candidates, j in zip(statistics["annotator"], choice):
        for etype, (tp, fn) in candidates[j].items():
            totals[etype][0] += tp
            totals[etype][1] += fn
    return {etype: {"tp": tp, "fn": fn, "r": tp / (tp + fn)} for etype, (tp, fn) in sorted(totals.items())}


def sentence_best(per_sentence: list[list[list]], beta: float) -> list[tuple[float, float, float]]:
    """Per sentence, (P, R, F) with its own best reference (F, then more TP, fewer FP, fewer FN)."""
    return [
        max(
            (prf(tp, fp, fn, beta) + (tp, -fp, -fn) for tp, fp, fn, _ in candidates),
            key=lambda x: (x[2], x[3], x[4], x[5]),
        )[:3]
        for candidates in per_sentence
    ]


def sentence_level(per_sentence: list[list[list]], beta: float) -> dict:
    """SentERRANT: mean per-sentence P, R, F with each sentence's own best reference."""
    totals = [0.0, 0.0, 0.0]
    for best in sentence_best(per_sentence, beta):
        for k in range(3):
            totals[k] += best[k]
    n = max(len(per_sentence), 1)
    return {"p": totals[0] / n, "r": totals[1] / n, "f": totals[2] / n}


def chosen_counts(statistics: dict, mode: str, beta: float) -> list[tuple[int, int, int]]:
    """Per-sentence (tp, fp, fn) under the corpus-level greedy choice: bootstrap input."""
    per_sentence = statistics["counts"][mode]
    return [tuple(candidates[j][:3]) for candidates, j in zip(per_sentence, greedy_choice(per_sentence, beta))]
