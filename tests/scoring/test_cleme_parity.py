"""CLEME equals CLEME v1.0 (commit 5fc7617) on the demo and on CoNLL-14 AMU and CAMB.

Every golden row: corpus and sentence level, dependent and independent, with and
without length weighting; scores to 4 decimals (v1 rounds them there, with numpy's
rounding at sentence level: compared within half a unit of the 4th decimal), weighted
counts to 2, and the length-weighting bias ``l``.
"""

import csv

import pytest

from scoring import Dataset, read_hypothesis
from scoring.cleme import chunk_statistics
from scoring.metrics.cleme import cleme_scores
from tests.conftest import CLEME_DATA, GOLDEN

GOLD = list(csv.DictReader(open(GOLDEN / "cleme_v1_demo_AMU_CAMB.csv")))


@pytest.fixture(scope="module")
def statistics():
    datasets = {
        "demo": Dataset.from_files(m2=CLEME_DATA / "demo.errant"),
        "conll14": Dataset.from_files(m2=CLEME_DATA / "conll14.errant"),
    }
    result = {}
    for name in sorted({row["hyp"] for row in GOLD}):
        dataset = datasets[name.split("-")[0]]
        result[name] = chunk_statistics(dataset, read_hypothesis(dataset, CLEME_DATA / name, name))
    return result


@pytest.mark.parametrize(
    "row", GOLD, ids=[f"{r['hyp']}-{r['level']}-{r['assumption']}-{r['length_weighting']}" for r in GOLD]
)
def test_scores_match_cleme_v1(statistics, row):
    stats = statistics[row["hyp"]]
    assert stats["length_bias"] == pytest.approx(float(row["bias"]), abs=5e-6)
    got = cleme_scores(stats, 0.5, weighted=row["length_weighting"] == "default")[row["assumption"]][row["level"]]
    for key in ("F", "P", "R", "Acc"):
        assert got[key.lower()] == pytest.approx(float(row[key]), abs=5.0001e-5), key
    if row["TP"]:
        for key in ("TP", "FP", "FN", "TN"):
            assert round(got[key.lower()], 2) == pytest.approx(float(row[key]), abs=1e-9), key
