"""FastAlignment reproduces errant.alignment.Alignment: same cost and operation matrices,
with the compiled DP and with the pure-Python fallback."""

import random

import pytest
from errant.alignment import Alignment
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errant import alignment
from scoring.errant.alignment import FastAlignment
from scoring.errant.alignment_kernel import load_kernel
from scoring.nlp import parse_tokens
from tests.support import needs


@pytest.fixture(params=["compiled", "python"], autouse=True)
def engine(request, monkeypatch):
    """Every test runs once on the C kernel and once on the Python DP."""
    if request.param == "compiled" and load_kernel() is None:
        needs.missing("a C compiler (cc) for the compiled alignment DP; only the Python one runs")
    if request.param == "python":
        monkeypatch.setattr(alignment, "load_kernel", lambda: None)
    return request.param


def assert_same(orig, cor):
    fast, slow = FastAlignment(orig, cor), Alignment(orig, cor)
    assert fast.cost_matrix == slow.cost_matrix
    assert fast.op_matrix == slow.op_matrix
    assert fast.align_seq == slow.align_seq


def test_on_real_system_outputs(seeda_subset, seeda_hypotheses):
    rng = random.Random(7)
    for name in ("BART", "GPT-3.5", "REF-F"):
        hyp = seeda_hypotheses[name]
        changed = [i for i, t in enumerate(hyp.tokens) if t != seeda_subset.sources[i]]
        for i in rng.sample(changed, 40):
            assert_same(seeda_subset.source_docs[i], hyp.parses(seeda_subset)[i])


WORDS = [
    "the",
    "a",
    "The",
    "cat",
    "cats",
    "go",
    "goes",
    "went",
    "to",
    "school",
    ",",
    ".",
    "is",
    "are",
    "happy",
    "happily",
]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=9), st.lists(st.sampled_from(WORDS), max_size=9))
def test_on_random_token_sequences(orig, cor):
    orig_doc, cor_doc = parse_tokens([orig, cor])
    assert_same(orig_doc, cor_doc)


def test_lengths_zero_and_levenshtein():
    empty, one, two = parse_tokens([[], ["cat"], ["the", "cats"]])
    for orig, cor in [(empty, two), (two, empty), (empty, empty), (one, two)]:
        assert_same(orig, cor)
        fast, slow = FastAlignment(orig, cor, lev=True), Alignment(orig, cor, lev=True)
        assert (fast.cost_matrix, fast.op_matrix) == (slow.cost_matrix, slow.op_matrix)
