"""Paired bootstrap on stored counts: seeded, centred on the observed difference."""

import numpy as np

from scoring.bootstrap import f_beta_of_counts, paired_bootstrap
from scoring.errant.fscore import prf
from scoring.errant.score import chosen_counts
from scoring.metrics.errant import sentence_statistics


def test_identical_systems_never_differ():
    counts = np.random.default_rng(0).integers(0, 4, size=(200, 3))
    test = paired_bootstrap(counts, counts, f_beta_of_counts(), samples=200)
    assert test.delta == 0 and test.ci_low == 0 and test.ci_high == 0 and test.p_value == 1.0


def test_same_seed_same_answer_and_interval_contains_delta(seeda_subset, seeda_hypotheses):
    a = chosen_counts(sentence_statistics(seeda_subset, seeda_hypotheses["T5"]), "cs", 0.5)
    b = chosen_counts(sentence_statistics(seeda_subset, seeda_hypotheses["BART"]), "cs", 0.5)
    first = paired_bootstrap(a, b, f_beta_of_counts(), samples=500, seed=3)
    assert first == paired_bootstrap(a, b, f_beta_of_counts(), samples=500, seed=3)
    assert first.ci_low <= first.delta <= first.ci_high
    assert first.delta > 0 and first.p_value < 0.05


def test_vectorised_f_matches_errant_convention():
    rows = np.array([[0, 0, 0], [0, 0, 5], [3, 0, 0], [2, 3, 4], [0, 2, 0]])
    expected = [prf(*row)[2] for row in rows]
    assert np.allclose(f_beta_of_counts()(rows), expected)
