"""M2 (MaxMatch, Dahlmeier & Ng, 2012) as m2scorer 3.2 computes it, per sentence and per type.

The expensive step finds the system's edits in the edit lattice of each sentence once per
annotator (``scoring.m2``) and keeps m2scorer's counts per annotator: correct, proposed
and gold edits, and per gold error type TP/FP/FN. The cheap step replays m2scorer's
choice of annotator over running corpus totals and sums. Gold sets come from the M2 file
as given, or from the ERRANT edits of reference texts (``scoring.m2.gold``).
"""

from __future__ import annotations

import numpy as np

from ..bootstrap import prf_of_counts
from ..dataset import Dataset
from ..errant.fscore import prf
from ..errant.score import score_counts
from ..hypothesis import Hypothesis
from ..m2.gold import gold_sets
from ..m2.score import corpus_choice, sentence_best, sentence_scores
from ..m2.sentence import line_counts
from ..options import ScoringOptions
from ..paths import ScorePath
from .base import Metric, PerTypeTable, Resampling, register

MAX_UNCHANGED_WORDS = 2
TYPE_LEVEL = "1"  # gold error types as the M2 file names them (NUCLE: ArtOrDet, Nn, ...)


def chosen_counts(statistics: dict, beta: float) -> list[list]:
    """Per sentence, the ``[correct, proposed, gold, types]`` of the annotator m2scorer picks."""
    counts = statistics["counts"]
    return [candidates[k] for candidates, k in zip(counts, corpus_choice(counts, beta))]


def per_type_table(chosen: list[list], beta: float) -> dict[str, dict]:
    totals: dict[str, list[int]] = {}
    for *_, types in chosen:
        for etype, row in types.items():
            total = totals.setdefault(etype, [0, 0, 0])
            for j in range(3):
                total[j] += row[j]
    return {etype: score_counts(tp, fp, fn, beta) for etype, (tp, fp, fn) in sorted(totals.items())}


@register
class M2(Metric):
    """M2 P/R/F-beta at corpus level, SentM2, and per gold error type."""

    name = "m2"
    label = "M2"
    headline = (ScorePath("m2.p", "M2 P"), ScorePath("m2.r", "M2 R"), ScorePath("m2.f", "M2 F"))
    default_path = "m2.f"
    count_keys = frozenset({"tp", "fp", "fn"})
    lower_is_better = frozenset({"fp", "fn"})
    per_type = PerTypeTable(key="per_type", levels=(TYPE_LEVEL,), default_level=TYPE_LEVEL)
    resampled = ("m2.p", "m2.r", "m2.f", "m2.sentence.p", "m2.sentence.r", "m2.sentence.f")
    sentence_columns = ("annotator", "tp", "fp", "fn", "p", "r", "f")

    @classmethod
    def sentence_rows(cls, statistics: dict, beta: float) -> list[list]:
        """The counts of the annotator m2scorer's corpus score chose for the line (so the rows
        sum to the corpus counts) and their P/R/F."""
        counts = statistics["counts"]
        rows = []
        for annotators, candidates, k in zip(statistics["annotators"], counts, corpus_choice(counts, beta)):
            correct, proposed, gold = candidates[k][:3]
            tp, fp, fn = correct, proposed - correct, gold - correct
            rows.append([annotators[k] if k < len(annotators) else None, tp, fp, fn, *prf(tp, fp, fn, beta)])
        return rows

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return ("m2.tp", "m2.fp", "m2.fn", "m2.p", "m2.r", "m2.f", "m2.sentence.p", "m2.sentence.r", "m2.sentence.f")

    def __init__(self, options: ScoringOptions):
        super().__init__(options)
        self.max_unchanged_words = int(options.extra.get("m2_max_unchanged_words", MAX_UNCHANGED_WORDS))
        self.ignore_whitespace_casing = bool(options.extra.get("m2_ignore_whitespace_casing", False))
        self._gold: tuple[Dataset, list[tuple[list[int], list]]] | None = None

    def prepare(self, dataset: Dataset) -> None:
        """Per sentence, its annotators and their gold edit sets: they depend on the dataset
        only, so they are read once, not once per submission."""
        if self._gold is None or self._gold[0] is not dataset:
            sets = (gold_sets(dataset, i) for i in range(len(dataset)))
            self._gold = (dataset, [([k for k, _ in s], [golds for _, golds in s]) for s in sets])

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        """``{"annotators": [[k, ...]], "counts": [[[correct, proposed, gold, {type: [tp, fp, fn]}], ...]]}``
        per sentence, annotators in the order m2scorer tries them; ``"capped"``, when any,
        the line numbers (from 1) over the lattice budget, scored in parts (``scoring.m2.parts``)."""
        self.prepare(dataset)
        assert self._gold is not None
        annotators, counts, capped = [], [], []
        for number, (source, tokens, (ids, sets)) in enumerate(
            zip(dataset.sources, hypothesis.tokens, self._gold[1]), start=1
        ):
            annotators.append(list(ids))
            line = line_counts(
                source,
                tokens,
                sets,
                max_unchanged_words=self.max_unchanged_words,
                ignore_whitespace_casing=self.ignore_whitespace_casing,
            )
            counts.append(line.rows)
            if line.capped:
                capped.append(number)
        statistics: dict[str, list] = {"annotators": annotators, "counts": counts}
        if capped:
            statistics["capped"] = capped
        return statistics

    def score(self, statistics: dict) -> dict:
        beta = self.options.beta
        chosen = chosen_counts(statistics, beta)
        correct = sum(row[0] for row in chosen)
        proposed = sum(row[1] for row in chosen)
        gold = sum(row[2] for row in chosen)
        p, r, f = prf(correct, proposed - correct, gold - correct, beta)
        scores = {
            "tp": correct,
            "fp": proposed - correct,
            "fn": gold - correct,
            "p": p,
            "r": r,
            "f": f,
            "sentence": sentence_scores(statistics["counts"], beta),
            "per_type": {TYPE_LEVEL: per_type_table(chosen, beta)},
        }
        if "capped" in statistics:  # lines over the lattice budget, scored in parts
            scores["capped_lines"] = len(statistics["capped"])
        return scores

    def resampling(self, statistics: dict) -> Resampling:
        """(tp, fp, fn) per sentence of the annotator picked on the whole corpus (kept fixed
        inside a sample, as for ERRANT, see :mod:`scoring.bootstrap`), then the sentence's
        own (P, R, F) and a 1, whose sums give SentM2's means."""
        beta = self.options.beta
        chosen = [[c, p - c, g - c] for c, p, g, _ in chosen_counts(statistics, beta)]
        sentences = sentence_best(statistics["counts"], beta)
        counts = np.hstack(
            [
                np.asarray(chosen, dtype=float).reshape(-1, 3),
                np.asarray(sentences, dtype=float).reshape(-1, 3),
                np.ones((len(chosen), 1)),
            ]
        )

        def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
            result = dict(zip(("m2.p", "m2.r", "m2.f"), prf_of_counts(totals[:, :3], beta)))
            n = np.maximum(totals[:, -1], 1.0)
            for k, key in enumerate("prf"):
                result[f"m2.sentence.{key}"] = totals[:, 3 + k] / n
            return result

        return Resampling(counts, scores)

    def signature(self) -> str:
        case = "|ignore-whitespace-casing" if self.ignore_whitespace_casing else ""
        return f"m2|max-unchanged-words:{self.max_unchanged_words}{case}"
