"""The reference's special cases (``USim.USim`` and ``align.two_sided_f``).

An empty normalised source scores 1 against an empty output and 0 otherwise; an empty
output scores 0; a sentence with no unit (one word) scores 0 even against itself.
"""

from __future__ import annotations

import pytest

from scoring.nlp import parse_tokens
from scoring.usim import DependencyGraphBuilder, usim


def score(source: str, output: str) -> tuple[float, float, float]:
    builder = DependencyGraphBuilder()
    docs = parse_tokens([source.split(), output.split()])
    return tuple(usim(*(builder.build(doc) for doc in docs)))


@pytest.mark.parametrize("source, output", [('"', '"'), (". . .", ""), ("", "!"), ("_", "-- _")])
def test_empty_source_and_empty_output_score_one(source, output):
    assert score(source, output) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("source, output", [('"', "Yes ."), ("", "A word"), ("_", "I am")])
def test_empty_source_and_non_empty_output_score_zero(source, output):
    assert score(source, output) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("output", ["", '" .', "_ !"])
def test_empty_output_scores_zero(output):
    assert score("The cat sat on the mat .", output) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    "source, output", [("Hello .", "Hello ."), ("Hello !", "Hello there , friend !"), ("The cat sat .", "Yes")]
)
def test_a_sentence_without_units_scores_zero(source, output):
    assert score(source, output) == (0.0, 0.0, 0.0)
