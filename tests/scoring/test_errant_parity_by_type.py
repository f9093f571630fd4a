"""ERRANT per-type tables (-cat 1/2/3) equal errant_compare 3.0.2 on the SEEDA subset."""

import csv
from collections import defaultdict

import pytest

from scoring import score_systems
from tests.conftest import GOLDEN

GOLD = defaultdict(dict)
for _row in csv.DictReader(open(GOLDEN / "seeda_subset_errant_by_type.csv")):
    GOLD[(_row["system"], _row["cat_level"][-1])][_row["type"]] = _row


@pytest.fixture(scope="module")
def per_type(seeda_subset, seeda_hypotheses):
    result = score_systems(seeda_subset, list(seeda_hypotheses.values()), ["errant"]).systems
    return {name: scores["errant"]["per_type"] for name, scores in result.items()}


@pytest.mark.parametrize("system,level", sorted(GOLD), ids=[f"{s}-cat{c}" for s, c in sorted(GOLD)])
def test_per_type_matches_errant_compare(per_type, system, level):
    expected = GOLD[(system, level)]
    got = per_type[system][level]
    assert set(got) == set(expected)
    for name, row in expected.items():
        g = got[name]
        assert (g["tp"], g["fp"], g["fn"]) == (int(row["TP"]), int(row["FP"]), int(row["FN"])), name
        assert (round(g["p"], 4), round(g["r"], 4), round(g["f"], 4)) == (
            float(row["P"]),
            float(row["R"]),
            float(row["F0.5"]),
        ), name
