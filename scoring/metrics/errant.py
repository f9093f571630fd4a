"""ERRANT span-based P/R/F (Bryant et al., 2017), as ``errant_compare`` 3.0.2 computes it.

Per sentence and per (hypothesis, reference) pair the expensive step counts TP/FP/FN
overall and per error type, in each of the four modes (docs/metrics.md, ERRANT). Corpus
scores, per-type tables, sentence-level scores and bootstrap samples are then sums over
those counts. The corpus choice of reference is ERRANT's greedy one: per sentence, in
file order, the reference that maximises the F of (running totals + this sentence),
compared at 4 decimals, ties to more TP, fewer FP, fewer FN, then to the first.
"""

from __future__ import annotations

import numpy as np

from ..bootstrap import prf_of_counts
from ..dataset import Dataset
from ..errant.fscore import prf
from ..errant.score import (
    CATEGORY_LEVELS,
    MODES,
    annotator_table,
    chosen_counts,
    compare_edits,
    corpus_scores,
    edit_keys,
    greedy_choice,
    recalled,
    sentence_best,
    sentence_level,
)
from ..hypothesis import Hypothesis
from ..paths import ScorePath, expand
from .base import Metric, PerTypeTable, Resampling, register
from .gold_types import errant_gold_types

ANNOTATOR_TABLE = "per_type_annotator"  # recall per the gold's own types (M2 gold not typed by ERRANT)


def sentence_statistics(dataset: Dataset, hypothesis: Hypothesis) -> dict:
    """Per mode, per sentence, per present reference: ``[tp, fp, fn, per_type]``.

    ``refs[i]`` lists the reference indices in the order they are tried; a sentence
    that no reference annotates is compared with an empty (noop) reference, as
    ``errant_compare`` does. Gold typed in the annotators' own scheme adds
    ``annotator``: per sentence and reference, :func:`recalled` in mode cs.
    """
    refs = [dataset.references_in(i) for i in range(len(dataset))]
    ref_keys = reference_keys(dataset)
    counts: dict[str, list] = {mode: [] for mode in MODES}
    annotator: list = []
    for i, hyp_edits in enumerate(hypothesis.edits):
        for mode in MODES:
            hyp_keys = edit_keys(hyp_edits, mode)
            counts[mode].append([compare_edits(hyp_keys, keys) for keys in ref_keys[mode][i]])
            if mode == "cs" and "annotator" in ref_keys:
                annotator.append([recalled(hyp_keys, keys) for keys in ref_keys["annotator"][i]])
    statistics = {"refs": refs, "counts": counts}
    if "annotator" in ref_keys:
        statistics["annotator"] = annotator
    return statistics


def reference_keys(dataset: Dataset) -> dict[str, list[list[dict]]]:
    """Per mode and sentence, :func:`edit_keys` of each reference tried there (a noop
    reference where none is): made once per dataset (``dataset.memo``). Gold typed in
    its annotators' own scheme is counted under ERRANT's types for it, and adds the
    cs keys under the annotators' types (``"annotator"``)."""

    def make() -> dict[str, list[list[dict]]]:
        gold_types = errant_gold_types(dataset)
        modes = (*MODES, "annotator") if gold_types else MODES
        keys: dict[str, list[list[dict]]] = {mode: [] for mode in modes}
        for i in range(len(dataset)):
            present = dataset.references_in(i)
            ref_edit_lists = [dataset.references[k].edits[i] or [] for k in present] or [[]]
            counted_as = ([gold_types[k][i] for k in present] if gold_types else []) or [None] * len(ref_edit_lists)
            for mode in MODES:
                keys[mode].append([edit_keys(edits, mode, types) for edits, types in zip(ref_edit_lists, counted_as)])
            if gold_types:
                keys["annotator"].append([edit_keys(edits, "cs") for edits in ref_edit_lists])
        return keys

    return dataset.remembered("errant.ref_keys", make)


@register
class Errant(Metric):
    """ERRANT in modes cs, ds, dt and cse, per type, corpus and sentence level."""

    name = "errant"
    label = "ERRANT"
    headline = (
        ScorePath("errant.cs.p", "ERRANT P"),
        ScorePath("errant.cs.r", "ERRANT R"),
        ScorePath("errant.cs.f", "ERRANT F"),
    )
    default_path = "errant.cs.f"
    count_keys = frozenset({"tp", "fp", "fn"})
    lower_is_better = frozenset({"fp", "fn"})
    per_type = PerTypeTable(
        key="per_type",
        levels=CATEGORY_LEVELS,
        default_level="2",
        overall="cs",
        detection_key="per_type_by_mode",
        detection_modes=("ds", "dt"),
    )
    resampled = (*expand(["errant"], MODES, ("p", "r", "f")), *expand(["errant.sentence"], ("p", "r", "f")))
    sentence_columns = ("ref", "tp", "fp", "fn", "p", "r", "f")

    @classmethod
    def sentence_rows(cls, statistics: dict, beta: float) -> list[list]:
        """cs counts against the reference the corpus score chose for the line (the greedy
        choice of ``errant_compare``), so the rows sum to the corpus counts; ``ref`` is that
        reference's index (none for a noop reference)."""
        per_sentence = statistics["counts"]["cs"]
        rows = []
        for refs, candidates, j in zip(statistics["refs"], per_sentence, greedy_choice(per_sentence, beta)):
            tp, fp, fn = candidates[j][:3]
            rows.append([refs[j] if j < len(refs) else None, tp, fp, fn, *prf(tp, fp, fn, beta)])
        return rows

    @classmethod
    def score_paths(cls) -> tuple[str, ...]:
        return (
            *expand(["errant"], MODES, ("tp", "fp", "fn", "p", "r", "f")),
            *expand(["errant.sentence"], ("p", "r", "f")),
        )

    def prepare(self, dataset: Dataset) -> None:
        errant_gold_types(dataset)

    def statistics(self, dataset: Dataset, hypothesis: Hypothesis) -> dict:
        return sentence_statistics(dataset, hypothesis)

    def score(self, statistics: dict) -> dict:
        beta = self.options.beta
        result: dict = {}
        for mode in MODES:
            overall, per_type = corpus_scores(statistics["counts"][mode], beta)
            result[mode] = overall
            if mode == "cs":
                result["per_type"] = per_type
            else:
                result.setdefault("per_type_by_mode", {})[mode] = per_type
        result["sentence"] = sentence_level(statistics["counts"]["cs"], beta)
        if "annotator" in statistics:
            result[ANNOTATOR_TABLE] = annotator_table(statistics, beta)
        return result

    def resampling(self, statistics: dict) -> Resampling:
        """(tp, fp, fn) of every mode per sentence, under the greedy reference choice made on
        the whole corpus (kept fixed inside a sample, see :mod:`scoring.bootstrap`), then the
        sentence's own best (P, R, F) and a 1, whose sums give SentERRANT's means."""
        beta = self.options.beta
        chosen = [np.asarray(chosen_counts(statistics, mode, beta), dtype=float).reshape(-1, 3) for mode in MODES]
        sentences = np.asarray(sentence_best(statistics["counts"]["cs"], beta), dtype=float).reshape(-1, 3)
        counts = np.hstack([*chosen, sentences, np.ones((len(sentences), 1))])

        def scores(totals: np.ndarray) -> dict[str, np.ndarray]:
            result = {}
            for k, mode in enumerate(MODES):
                for key, values in zip("prf", prf_of_counts(totals[:, 3 * k : 3 * k + 3], beta)):
                    result[f"errant.{mode}.{key}"] = values
            n = np.maximum(totals[:, -1], 1.0)
            for k, key in enumerate("prf"):
                result[f"errant.sentence.{key}"] = totals[:, 3 * len(MODES) + k] / n
            return result

        return Resampling(counts, scores)

    def signature(self) -> str:
        return "errant-modes:cs,ds,dt,cse"
