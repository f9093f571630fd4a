"""Identical sentences score USIM 1, and so does a dataset's unchanged source."""

from __future__ import annotations

import pytest

from scoring import hypothesis_from_lines, score_systems
from scoring.nlp import parse_tokens
from scoring.usim import DependencyGraphBuilder, usim

SENTENCES = [
    "The cat sat on the mat .",
    "In my opinion , the government should n't spend so much money on space research .",
    "the the the the",
    "U.S. citizens , e.g. Bob and Alice , pay taxes ; they do n't like it !",
]


@pytest.mark.parametrize("sentence", SENTENCES)
def test_identical_sentences_score_one(sentence):
    builder = DependencyGraphBuilder()
    first, second = parse_tokens([sentence.split(), sentence.split()])
    assert tuple(usim(builder.build(first), builder.build(second))) == (1.0, 1.0, 1.0)


def test_the_unchanged_source_of_a_dataset_scores_one(seeda_subset):
    unchanged = hypothesis_from_lines(seeda_subset, [" ".join(s) for s in seeda_subset.sources], "INPUT")
    scores = score_systems(seeda_subset, [unchanged], ["usim"]).systems["INPUT"]["usim"]
    assert scores == {"p": 1.0, "r": 1.0, "f": 1.0}
