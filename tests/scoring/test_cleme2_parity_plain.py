"""CLEME2.0 without similarity weights equals THUKElab/CLEME HEAD to 1e-6 (golden ``plain`` rows)."""

import csv

import pytest

from scoring import Dataset, ScoringOptions, read_hypothesis
from scoring.metrics.cleme2 import Cleme2
from tests.conftest import CLEME_DATA, GOLDEN

GOLD = [r for r in csv.DictReader(open(GOLDEN / "cleme2_demo_AMU_CAMB.csv")) if r["weighting"] == "plain"]
COLUMNS = {
    "COM": "score",
    "HIT": "hit",
    "ERR": "error",
    "UND": "under",
    "OVE": "over",
    "TP": "tp",
    "FP_NE": "fp_ne",
    "FP_UN": "fp_un",
    "FN": "fn",
    "TN": "tn",
}


@pytest.fixture(scope="module")
def scores():
    metric = Cleme2(ScoringOptions())
    datasets = {
        "demo": Dataset.from_files(m2=CLEME_DATA / "demo.errant"),
        "conll14": Dataset.from_files(m2=CLEME_DATA / "conll14.errant"),
    }
    result = {}
    for name in sorted({row["hyp"] for row in GOLD}):
        dataset = datasets[name.split("-")[0]]
        result[name] = metric.score(metric.statistics(dataset, read_hypothesis(dataset, CLEME_DATA / name, name)))
    return result


@pytest.mark.parametrize("row", GOLD, ids=[f"{r['hyp']}-{r['assumption']}-{r['level']}" for r in GOLD])
def test_plain_scores_match_head(scores, row):
    got = scores[row["hyp"]][row["assumption"]][row["level"]]
    for column, key in COLUMNS.items():
        assert got[key] == pytest.approx(float(row[column]), abs=1e-6), column
