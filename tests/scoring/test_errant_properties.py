"""Invariants of the ERRANT metric, on random samples of real SEEDA sentences."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset, hypothesis_from_lines, score_systems, scores_from_statistics
from scoring.options import ScoringOptions
from scoring.scorer import build_metrics, metric_names
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS

SOURCE = (SUBSET_OUTPUTS / "INPUT.txt").read_text().splitlines()
REFERENCE = SUBSET_REFS[0].read_text().splitlines()
EDITED = [i for i, (s, r) in enumerate(zip(SOURCE, REFERENCE)) if s != r]

samples = st.lists(st.sampled_from(range(len(SOURCE))), min_size=1, max_size=12, unique=True)


@settings(max_examples=8, deadline=None)
@given(samples)
def test_output_equal_to_the_reference_scores_one(indices):
    source, reference = [SOURCE[i] for i in indices], [REFERENCE[i] for i in indices]
    dataset = Dataset.from_text(source, [reference])
    errant = score_systems(dataset, [hypothesis_from_lines(dataset, reference, "ref")], ["errant"]).systems["ref"][
        "errant"
    ]
    for mode in ("cs", "ds", "dt", "cse"):
        assert (errant[mode]["p"], errant[mode]["r"], errant[mode]["f"]) == (1.0, 1.0, 1.0)
        assert errant[mode]["fp"] == errant[mode]["fn"] == 0


@settings(max_examples=8, deadline=None)
@given(st.lists(st.sampled_from(EDITED), min_size=1, max_size=12, unique=True))
def test_unchanged_source_scores_p1_r0_f0(indices):
    source, reference = [SOURCE[i] for i in indices], [REFERENCE[i] for i in indices]
    dataset = Dataset.from_text(source, [reference])
    cs = score_systems(dataset, [hypothesis_from_lines(dataset, source, "src")], ["errant"]).systems["src"]["errant"][
        "cs"
    ]
    assert (cs["p"], cs["r"], cs["f"]) == (1.0, 0.0, 0.0)


def test_reordering_systems_changes_no_score(seeda_subset, seeda_hypotheses):
    metrics = build_metrics([m for m in metric_names() if m in ("errant", "gotoscorer")], ScoringOptions())
    for metric in metrics:
        metric.prepare(seeda_subset)
    names = list(seeda_hypotheses)[:6]
    statistics = {n: {m.name: m.statistics(seeda_subset, seeda_hypotheses[n]) for m in metrics} for n in names}
    baseline = scores_from_statistics(statistics, metrics)
    rng = random.Random(1)
    for _ in range(3):
        order = names[:]
        rng.shuffle(order)
        assert scores_from_statistics({n: statistics[n] for n in order}, metrics) == baseline
