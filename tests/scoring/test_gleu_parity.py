"""GLEU equals the official ``compute_gleu`` (cnap/gec-ranking 50b5032, 500 iterations) on
the 15 SEEDA subset systems to 1e-6 of the fraction (golden ``official_gleu_x100``)."""

import csv

import pytest

from scoring import ScoringOptions
from scoring.gleu.score import split_tokens
from scoring.metrics.gleu import Gleu
from tests.conftest import GOLDEN, SEEDA_SYSTEMS

GOLDEN_ROWS = {row["system"]: row for row in csv.DictReader((GOLDEN / "gleu_seeda_subset.csv").open(encoding="utf-8"))}


@pytest.fixture(scope="module")
def gleu_scores(seeda_subset, seeda_hypotheses):
    metric = Gleu(ScoringOptions())
    metric.prepare(seeda_subset)
    return {name: metric.score(metric.statistics(seeda_subset, hyp)) for name, hyp in seeda_hypotheses.items()}


def test_every_golden_system_is_scored():
    assert sorted(GOLDEN_ROWS) == SEEDA_SYSTEMS


@pytest.mark.parametrize("system", SEEDA_SYSTEMS)
def test_mean_over_iterations_matches_official(gleu_scores, system):
    row = GOLDEN_ROWS[system]
    assert gleu_scores[system]["score"] == pytest.approx(float(row["official_gleu_x100"]) / 100, abs=1e-6)
    assert gleu_scores[system]["sd"] == pytest.approx(float(row["official_iteration_sd_x100"]) / 100, abs=1e-6)
    assert 0.0 <= gleu_scores[system]["sentence"]["score"] <= 1.0


def test_tokens_split_on_ascii_whitespace_only():
    """Python 2's ``str.split()`` on UTF-8 bytes keeps a non-breaking space inside a token."""
    assert split_tokens("a\u00a0b  c\td\r\n") == ["a\u00a0b", "c", "d"]


def test_signature_names_iterations_and_seed_rule(seeda_subset):
    metric = Gleu(ScoringOptions())
    metric.prepare(seeda_subset)
    assert metric.signature().startswith("gleu|n:4|iterations:500|seed:j*101|draw:py2-randint|")
