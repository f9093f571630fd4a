"""ERRANT overall scores equal errant_compare 3.0.2 on the 15 SEEDA subset systems (all modes)."""

import csv

import pytest

from scoring import score_systems
from tests.conftest import GOLDEN

GOLD = list(csv.DictReader(open(GOLDEN / "seeda_subset_errant_overall.csv")))


@pytest.fixture(scope="module")
def errant_scores(seeda_subset, seeda_hypotheses):
    return score_systems(seeda_subset, list(seeda_hypotheses.values()), ["errant"]).systems


@pytest.mark.parametrize("row", GOLD, ids=[f"{r['system']}-{r['mode']}" for r in GOLD])
def test_overall_matches_errant_compare(errant_scores, row):
    got = errant_scores[row["system"]]["errant"][row["mode"]]
    assert (got["tp"], got["fp"], got["fn"]) == (int(row["TP"]), int(row["FP"]), int(row["FN"]))
    assert round(got["p"], 4) == float(row["P"])
    assert round(got["r"], 4) == float(row["R"])
    assert round(got["f"], 4) == float(row["F0.5"])
