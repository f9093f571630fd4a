"""M2 equals m2scorer 3.2 (CPython 2.7, defaults) on the 15 SEEDA subset systems against
``official-2014.combined.subset391.m2``: TP/FP/FN exactly and P/R/F0.5 to 1e-9, and per
sentence the annotator m2scorer chose and every annotator's counts (BART, T5, GPT-3.5)."""

import csv

import pytest

from scoring import Dataset, Hypothesis, ScoringOptions
from scoring.m2.score import corpus_choice
from scoring.metrics.m2 import M2
from scoring.readers import read_text
from tests.conftest import GOLDEN, SEEDA, SEEDA_SYSTEMS, SUBSET_OUTPUTS

GOLD_M2 = SEEDA / "derived" / "subset" / "official-2014.combined.subset391.m2"
OVERALL = {row["system"]: row for row in csv.DictReader((GOLDEN / "m2_seeda_subset.csv").open(encoding="utf-8"))}
PER_SENTENCE = list(csv.DictReader((GOLDEN / "m2_subset_per_sentence.csv").open(encoding="utf-8")))


@pytest.fixture(scope="module")
def gold():
    return Dataset.from_files(m2=GOLD_M2)


@pytest.fixture(scope="module")
def statistics(gold):
    """M2 statistics of every system; m2scorer splits each output line on whitespace,
    as the text reader does."""
    metric = M2(ScoringOptions())
    result = {}
    for name in SEEDA_SYSTEMS:
        tokens = [line.split() for line in read_text(SUBSET_OUTPUTS / f"{name}.txt", expected_lines=len(gold))]
        result[name] = metric.statistics(gold, Hypothesis(name, tokens, [[] for _ in tokens]))
    return result


def test_every_golden_system_is_scored():
    assert sorted(OVERALL) == SEEDA_SYSTEMS


@pytest.mark.parametrize("system", SEEDA_SYSTEMS)
def test_corpus_counts_and_scores(statistics, system):
    scores = M2(ScoringOptions()).score(statistics[system])
    row = OVERALL[system]
    assert (scores["tp"], scores["fp"], scores["fn"]) == (int(row["TP"]), int(row["FP"]), int(row["FN"]))
    for key, column in (("p", "P"), ("r", "R"), ("f", "F05")):
        assert scores[key] == pytest.approx(float(row[column]), abs=1e-9)


@pytest.mark.parametrize("system", sorted({row["system"] for row in PER_SENTENCE}))
def test_per_sentence_choice_and_counts(statistics, system):
    stats = statistics[system]
    choice = corpus_choice(stats["counts"], 0.5)
    rows = [row for row in PER_SENTENCE if row["system"] == system]
    assert len(rows) == len(stats["counts"])
    for row in rows:
        i = int(row["subset_line"]) - 1
        annotators, counts = stats["annotators"][i], stats["counts"][i]
        correct, proposed, gold_edits = counts[choice[i]][:3]
        assert (annotators[choice[i]], correct, proposed - correct, gold_edits - correct) == (
            int(row["chosen_ann"]),
            int(row["TP"]),
            int(row["FP"]),
            int(row["FN"]),
        ), row
        for annotator, (c, p, g, _) in zip(annotators, counts):
            assert (c, p - c, g - c) == tuple(int(row[f"ann{annotator}_{k}"]) for k in ("TP", "FP", "FN")), row


def test_per_type_sums_to_the_corpus_counts(statistics):
    scores = M2(ScoringOptions()).score(statistics["BART"])
    table = scores["per_type"]["1"]
    assert "ArtOrDet" in table and "Prep" in table
    assert sum(row["tp"] for row in table.values()) == scores["tp"]
    assert sum(row["fn"] for row in table.values()) == scores["fn"]
    assert sum(row["fp"] for row in table.values()) == scores["fp"]
