"""Meta-evaluation on the SEEDA subset equals the figures of the reference tools.

The golden correlations were computed by scipy over ``errant_compare``'s printed (4-decimal)
P/R/F0.5; ours come from full-precision scores of our own stored statistics. So the
correlation code is checked on the printed figures to 1e-12, and the whole pipeline on
our statistics to 5e-4 (Pearson; the reference rounded F to 4 decimals) and exactly (Spearman: the ranks agree).
"""

from __future__ import annotations

import csv
import json
from itertools import combinations

import numpy as np
import pytest

from scoring import ScoringOptions, build_metrics, system_statistics
from scoring.meta import meta_evaluate, resampled_scores, resolve_set
from scoring.meta.correlation import pearson, spearman
from tests.conftest import GOLDEN, SEEDA_SYSTEMS
from tests.support.meta_support import seeda_human

pytestmark = pytest.mark.slow
METRICS = ("errant", "cleme2", "gotoscorer", "usim")
GOLDEN_PATH = {"F05": ("F0.5", "errant.cs.f"), "P": ("P", "errant.cs.p"), "R": ("R", "errant.cs.r")}


@pytest.fixture(scope="module")
def statistics(seeda_subset, seeda_hypotheses):
    """Stored statistics of all 15 systems: ERRANT, CLEME2.0, GoToScorer (ref 0), USIM."""
    metrics = build_metrics(METRICS, ScoringOptions())
    for metric in metrics:
        metric.prepare(seeda_subset)
    return {name: system_statistics(seeda_subset, h, metrics) for name, h in seeda_hypotheses.items()}


@pytest.fixture(scope="module")
def table(statistics):
    return meta_evaluate(statistics, build_metrics(METRICS, ScoringOptions()), seeda_human(), samples=200, seed=7)


def golden_rows():
    with open(GOLDEN / "seeda_subset_correlations_errant.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def human_scores(scheme, members):
    return np.array([seeda_human().schemes[scheme][name] for name in members])


def test_correlations_of_the_reference_tools_scores_equal_every_golden_row():
    with open(GOLDEN / "seeda_subset_errant_overall.csv", newline="") as handle:
        printed = {(r["system"], r["mode"]): r for r in csv.DictReader(handle)}
    human = seeda_human()
    for row in golden_rows():
        column = GOLDEN_PATH[row["metric"].split(".")[1]][0]
        members = resolve_set(human.system_sets[row["system_set"]], SEEDA_SYSTEMS)
        metric = np.array([float(printed[(name, "cs")][column]) for name in members])
        truth = human_scores(row["human"], members)
        assert len(members) == int(row["n_systems"])
        assert abs(pearson(metric, truth)[0] - float(row["pearson"])) < 1e-12
        assert abs(spearman(metric, truth)[0] - float(row["spearman"])) < 1e-12


def test_every_golden_row_from_our_statistics(table):
    for row in golden_rows():
        entry = table["sets"][row["system_set"]]["system"][GOLDEN_PATH[row["metric"].split(".")[1]][1]][row["human"]]
        assert entry["n_systems"] == int(row["n_systems"])
        assert abs(entry["pearson"] - float(row["pearson"])) < 5e-4, row
        assert abs(entry["spearman"] - float(row["spearman"])) < 1e-12, row
        assert entry["pearson_ci"][0] <= entry["pearson"] <= entry["pearson_ci"][1]


def test_the_reference_figures_of_metrics_md(table, seeda_subset, seeda_hypotheses):
    base = table["sets"]["base"]["system"]
    assert table["set"] == "base" and table["system"] == base
    assert round(base["errant.cs.f"]["TS_sent"]["pearson"], 3) == 0.539
    assert round(base["gotoscorer.f"]["TS_sent"]["pearson"], 3) == 0.746
    assert round(base["cleme2.dependent.corpus.score"]["TS_sent"]["pearson"], 3) == 0.931
    assert round(base["usim.f"]["TS_sent"]["pearson"], 3) == -0.811
    ref1 = build_metrics(["gotoscorer"], ScoringOptions(gts_ref=1))
    pool = {
        name: {"gotoscorer": ref1[0].statistics(seeda_subset, hypothesis)}
        for name, hypothesis in seeda_hypotheses.items()
    }
    assert (
        round(meta_evaluate(pool, ref1, seeda_human(), samples=0)["system"]["gotoscorer.f"]["TS_sent"]["pearson"], 3)
        == 0.919
    )


def test_pairwise_accuracy_of_real_sentence_scores_equals_a_plain_count(table, statistics):
    human = seeda_human()
    line_of = {src + 1: i for i, src in enumerate(human.line_ids)}
    members = resolve_set(human.system_sets["base"], SEEDA_SYSTEMS)
    for metric in build_metrics(METRICS, ScoringOptions()):
        own = {name: statistics[name][metric.name] for name in SEEDA_SYSTEMS}
        for path, scores in resampled_scores(metric, own, np.arange(len(human.line_ids))[:, None]).items():
            for rankings, items in human.rankings.items():
                agree = pairs = 0
                for item in items:
                    ranks = {name: rank for name, rank in item.ranks if name in members}
                    for a, b in combinations(sorted(ranks), 2):
                        if ranks[a] != ranks[b]:
                            line = line_of[item.src_id]
                            metric_says_a = scores[line, SEEDA_SYSTEMS.index(a)] > scores[line, SEEDA_SYSTEMS.index(b)]
                            agree += metric_says_a == (ranks[a] < ranks[b])
                            pairs += 1
                entry = table["sentence"][path][rankings]
                assert (entry["accuracy"], entry["pairs"]) == (agree / pairs, pairs), (path, rankings)


def test_intervals_are_reproducible_bit_for_bit(table, statistics):
    metrics = build_metrics(METRICS, ScoringOptions())
    again = meta_evaluate(statistics, metrics, seeda_human(), samples=200, seed=7)
    assert json.dumps(again, sort_keys=True) == json.dumps(table, sort_keys=True)
    assert "samples:200|seed:7" in table["signature"]
    other = meta_evaluate(statistics, metrics, seeda_human(), samples=200, seed=8)
    assert other["system"]["errant.cs.f"]["TS_sent"]["pearson"] == table["system"]["errant.cs.f"]["TS_sent"]["pearson"]
    assert (
        other["system"]["errant.cs.f"]["TS_sent"]["pearson_ci"]
        != table["system"]["errant.cs.f"]["TS_sent"]["pearson_ci"]
    )
