"""USIM is symmetric: swapping source and output swaps P and R and keeps USIM.

Choshen and Abend (2018, section 3) count matched units in both directions under one
word alignment; with assignment ties broken independently of the argument order, the
score of (a, b) is the mirror image of the score of (b, a).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.nlp import parse_tokens
from scoring.usim import DependencyGraphBuilder, SemanticGraph, usim
from scoring.usim.align import align_words

WORDS = ["a", "an", "the", "cat", "cats", "sat", "sit", "on", "mat"]
LABELS = ["ROOT", "nsubj", "prep", "pobj"]


@st.composite
def semantic_graphs(draw, max_words: int = 7) -> SemanticGraph:
    """A small hand-made graph; a few words and labels, so ties are frequent."""
    n = draw(st.integers(2, max_words))
    words = draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n))
    covered = st.sets(st.integers(0, n - 1), min_size=2)
    units = [[t in unit for t in range(n)] for unit in draw(st.lists(covered, min_size=1, max_size=4))]
    labels = draw(st.lists(st.sampled_from(LABELS), min_size=len(units), max_size=len(units)))
    return SemanticGraph(words, np.array(units, dtype=bool), np.array(labels, dtype=object))


@settings(max_examples=150, deadline=None)
@given(semantic_graphs(), semantic_graphs())
def test_swapping_the_sentences_swaps_precision_and_recall(a, b):
    forward, backward = usim(a, b), usim(b, a)
    assert forward.p == backward.r
    assert forward.r == backward.p
    assert forward.f == backward.f


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=6), st.lists(st.sampled_from(WORDS), max_size=6))
def test_the_word_alignment_is_the_same_both_ways(words1, words2):
    forward = align_words(words1, words2)
    backward = align_words(words2, words1)
    assert {(i, int(j)) for i, j in enumerate(forward) if j >= 0} == {
        (int(j), i) for i, j in enumerate(backward) if j >= 0
    }


def test_a_real_correction_is_symmetric():
    builder = DependencyGraphBuilder()
    source, output = parse_tokens(
        [
            "He go to school every days because he like learn .".split(),
            "He goes to school every day because he likes learning .".split(),
        ]
    )
    forward = usim(builder.build(source), builder.build(output))
    backward = usim(builder.build(output), builder.build(source))
    assert (forward.p, forward.r, forward.f) == (backward.r, backward.p, backward.f)
