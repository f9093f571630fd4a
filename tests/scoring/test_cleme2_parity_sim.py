"""Similarity-weighted CLEME2.0 equals THUKElab/CLEME HEAD run with the bundled MiniLM (6 layers) to 1e-5
(the golden file has six decimals; the rest is float32 rounding of the embeddings).

The demo rows run always (seconds); the CoNLL-14 rows embed a few thousand sentences
on CPU and are marked slow.
"""

import csv

import pytest

from scoring import Dataset, ScoringOptions, read_hypothesis
from scoring.metrics.cleme2 import Cleme2
from tests.conftest import CLEME_DATA, GOLDEN

GOLD = [r for r in csv.DictReader(open(GOLDEN / "cleme2_demo_AMU_CAMB.csv")) if r["weighting"] == "sim_minilm6"]
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
def scorer():
    cache = {}
    metric = Cleme2(ScoringOptions(sim=True))
    datasets = {}

    def scores(name: str) -> dict:
        if name not in cache:
            prefix = name.split("-")[0]
            if prefix not in datasets:
                datasets[prefix] = Dataset.from_files(m2=CLEME_DATA / f"{prefix}.errant")
            dataset = datasets[prefix]
            metric.prepare(dataset)
            cache[name] = metric.score(metric.statistics(dataset, read_hypothesis(dataset, CLEME_DATA / name, name)))
        return cache[name]

    return scores


def marks(row):
    return [pytest.mark.slow] if row["hyp"].startswith("conll14") else []


@pytest.mark.parametrize(
    "row", [pytest.param(r, marks=marks(r), id=f"{r['hyp']}-{r['assumption']}-{r['level']}") for r in GOLD]
)
def test_similarity_weighted_scores_match_head(scorer, row):
    got = scorer(row["hyp"])["sim"][row["assumption"]][row["level"]]
    for column, key in COLUMNS.items():
        assert got[key] == pytest.approx(float(row[column]), abs=1e-5), column
