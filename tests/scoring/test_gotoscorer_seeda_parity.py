"""GoToScorer on the 15-system SEEDA subset equals GTS (pool = all 15) to 1e-9.

Two paths give the same figures: the reference tool's inputs (``ref_par.m2`` and the 15
systems as coders of ``hyp_all.m2``), and the CLI's normal path (text references
REF0/REF1 and the 15 text outputs, annotated by ERRANT), which must produce the same
edits and so the same outcome bits.
"""

import csv
import dataclasses

import pytest

from scoring import Dataset, Hypothesis, ScoringOptions, build_metrics, read_m2, score_systems, scores_from_statistics
from scoring.errant.edits import apply_edits
from scoring.gotoscorer import coder_edits
from tests.conftest import GOLDEN, SEEDA, SEEDA_SYSTEMS

SUBSET = SEEDA / "derived" / "subset"
GOLD = list(csv.DictReader(open(GOLDEN / "seeda_subset_gotoscorer.csv")))
SETTINGS = [(ref, weighting) for ref in (0, 1) for weighting in ("weighted", "noweight")]


def options(ref: int, weighting: str) -> ScoringOptions:
    return ScoringOptions(gts_ref=ref, gts_weighted=weighting == "weighted")


@pytest.fixture(scope="module")
def m2_inputs():
    """GTS's own inputs: reference M2 as the dataset, hyp_all.m2 coder k = k-th system."""
    dataset = Dataset.from_m2(read_m2(SUBSET / "ref_par.m2"))
    systems = coder_edits(read_m2(SUBSET / "hyp_all.m2"))
    assert len(systems) == len(SEEDA_SYSTEMS) == 15
    hypotheses = [
        Hypothesis(name, [apply_edits(src, e) for src, e in zip(dataset.sources, edits)], edits)
        for name, edits in zip(SEEDA_SYSTEMS, systems)
    ]
    return dataset, hypotheses


def results(dataset: Dataset, hypotheses: list) -> dict:
    """Per (ref, weighting): the weighted run's result; unweighted scores reuse its statistics."""
    out = {}
    for ref in (0, 1):
        weighted = score_systems(dataset, hypotheses, ["gotoscorer"], options(ref, "weighted"))
        unweighted = scores_from_statistics(
            weighted.statistics, build_metrics(["gotoscorer"], options(ref, "noweight"))
        )
        out[ref, "weighted"] = weighted
        out[ref, "noweight"] = dataclasses.replace(weighted, systems=unweighted)
    return out


@pytest.fixture(scope="module")
def m2_results(m2_inputs):
    return results(*m2_inputs)


@pytest.fixture(scope="module")
def text_results(seeda_subset, seeda_hypotheses):
    return results(seeda_subset, list(seeda_hypotheses.values()))


def assert_golden(systems: dict, ref: int, weighting: str) -> None:
    rows = [r for r in GOLD if int(r["ref_id"]) == ref and r["weighting"] == weighting]
    assert len(rows) == 15 and all(r["pool"] == "all15" for r in rows)
    for row in rows:
        got = systems[row["system"]]["gotoscorer"]
        assert got["pool_size"] == 15 and got["ref"] == ref and got["weighted"] == (weighting == "weighted")
        for column, key in (("P", "p"), ("R", "r"), ("F0.5", "f"), ("Accuracy", "accuracy")):
            assert got[key] == pytest.approx(float(row[column]), abs=1e-9), (row["system"], column)


@pytest.mark.parametrize(("ref", "weighting"), SETTINGS)
def test_m2_inputs_match_gts(m2_results, ref, weighting):
    assert_golden(m2_results[ref, weighting].systems, ref, weighting)


@pytest.mark.parametrize(("ref", "weighting"), SETTINGS)
def test_text_inputs_match_gts(text_results, ref, weighting):
    assert_golden(text_results[ref, weighting].systems, ref, weighting)


@pytest.mark.parametrize("ref", (0, 1))
def test_both_paths_give_the_same_outcomes(m2_results, text_results, ref):
    from_m2 = m2_results[ref, "weighted"].statistics
    from_text = text_results[ref, "weighted"].statistics
    for name in SEEDA_SYSTEMS:
        assert from_text[name]["gotoscorer"] == from_m2[name]["gotoscorer"], name


def test_weighted_result_carries_unweighted_figures(m2_results):
    weighted = m2_results[0, "weighted"].systems["BART"]["gotoscorer"]
    unweighted = m2_results[0, "noweight"].systems["BART"]["gotoscorer"]
    assert weighted["unweighted"] == {k: v for k, v in unweighted.items() if k not in ("weighted", "pool_size", "ref")}
    assert "unweighted" not in unweighted
    assert "gotoscorer|ref:0|" in m2_results[0, "weighted"].signature
    assert "pool:15" in m2_results[0, "weighted"].signature
