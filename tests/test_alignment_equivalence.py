"""FastAlignment reproduces errant.alignment.Alignment: same cost and operation matrices."""
import random

from errant.alignment import Alignment
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.alignment import FastAlignment
from scoring.nlp import parse_tokens


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
            assert_same(seeda_subset.source_docs[i], hyp.docs[i])


WORDS = ["the", "a", "The", "cat", "cats", "go", "goes", "went", "to", "school", ",", ".", "is", "are", "happy", "happily"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=9), st.lists(st.sampled_from(WORDS), max_size=9))
def test_on_random_token_sequences(orig, cor):
    orig_doc, cor_doc = parse_tokens([orig, cor])
    assert_same(orig_doc, cor_doc)
