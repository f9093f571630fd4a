"""Similarity weights on essays: what the model cannot see weighs nothing."""

from scoring import Dataset, ScoringOptions, read_hypothesis
from scoring.metrics.cleme2 import Cleme2

OPTIONS = ScoringOptions(sim=True)


def essay_case():
    """A 700-word essay: one correction early (the model sees it) and one late (past its
    512 word pieces), in the reference and in the output."""
    words = [f"w{k % 50}" for k in range(700)]
    source = " ".join(words)
    corrected = list(words)
    corrected[3], corrected[650] = "early", "late"
    reference = " ".join(corrected)
    dataset = Dataset.from_text([source], [[reference]])
    return dataset, reference


def chunk_weights(dataset, output: str) -> dict[int, list[float]]:
    metric = Cleme2(OPTIONS)
    metric.prepare(dataset)
    statistics = metric.statistics(dataset, read_hypothesis(dataset, (output + "\n").encode(), "essay"))
    return {record[1]: record[-1] for record in statistics["chunks"][0] if record[3] is not None}


def test_a_correction_past_the_models_length_weighs_exactly_zero():
    dataset, reference = essay_case()
    weights = chunk_weights(dataset, reference)
    assert weights[3][0] > 0.001  # seen by the model
    assert weights[650] == [0.0]  # past 512 pieces: X' is the source to the model


def test_weights_are_added_the_same_way_twice():
    dataset, reference = essay_case()
    assert chunk_weights(dataset, reference) == chunk_weights(dataset, reference)
