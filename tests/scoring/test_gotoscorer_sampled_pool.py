"""Every pool member sampled in one product (scoring.pooled_sampled_scores) gives, bit for
bit, what resampling each member from its statistics gives (member_resampling, then
sampled_scores), and so the same paired tests as the member-by-member paired bootstrap:
the GoToScorer board's tie groups rest on it. Also when the sums are too large for the
float32 product and the float64 one runs instead."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ChunkLayout, PoolCounts, ScoringOptions, pooled_sampled_scores, resampling
from scoring.bootstrap import paired_bootstrap_of, paired_bootstrap_of_sampled, sampled_scores
from scoring.gotoscorer import sampled as sampled_module

SAMPLES, SEED = 64, 7
PATHS = ["gotoscorer.f", "gotoscorer.p", "gotoscorer.r", "gotoscorer.accuracy", "gotoscorer.unweighted.f"]


def random_pool(seed: int, sentences: int, members: int):
    """Gold chunks (about 1 in 10 modified) and members' outcomes, as a GTS pool makes them."""
    rng = np.random.default_rng(seed)
    sentence_of = np.repeat(np.arange(sentences), rng.integers(1, 30, sentences))
    chunks = len(sentence_of)
    gold = rng.random(chunks) < 0.1
    modified = np.zeros((members, chunks), dtype=bool)
    correct = np.zeros((members, chunks), dtype=bool)
    for m in range(members):
        found = gold & (rng.random(chunks) < rng.uniform(0.1, 0.6))
        wrong_change = ~gold & (rng.random(chunks) < 0.04)
        modified[m] = found | wrong_change | (gold & (rng.random(chunks) < 0.1))
        correct[m] = np.where(gold, found, ~wrong_change)
    return sentence_of, gold, modified, correct


def statistics_of(sentence_of, gold, modified, correct) -> dict:
    """A member's stored GoToScorer statistics (one bit string per sentence)."""

    def bits(flags):
        return ["".join("1" if f else "0" for f in flags[sentence_of == s]) for s in range(sentence_of.max() + 1)]

    return {"ref": 0, "gold": bits(gold), "modified": bits(modified), "correct": bits(correct)}


def check_same(seed, sentences, members, options, path):
    sentence_of, gold, modified, correct = random_pool(seed, sentences, members)
    pool = PoolCounts(correct.sum(axis=0), members)
    layout = ChunkLayout(gold, sentence_of, sentences)
    packed = np.packbits(modified, axis=1), np.packbits(correct, axis=1)
    together = pooled_sampled_scores(path, options, pool, layout, *packed, samples=SAMPLES, seed=SEED)
    alone = [
        resampling(path, statistics_of(sentence_of, gold, modified[m], correct[m]), options, pool)
        for m in range(members)
    ]
    if alone[0] is None:  # a path these scores do not have (unweighted.* of an unweighted task)
        assert together == [None] * members
        return
    for m in range(members):
        one = sampled_scores(alone[m], path, samples=SAMPLES, seed=SEED)
        assert together[m].observed == one.observed
        assert np.array_equal(together[m].values, one.values)
    for above, below in zip(range(members), range(1, members)):
        before = paired_bootstrap_of(alone[above], alone[below], path, samples=SAMPLES, seed=SEED)
        now = paired_bootstrap_of_sampled(together[above], together[below], samples=SAMPLES, seed=SEED)
        assert now == before


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    sentences=st.integers(1, 30),
    members=st.integers(1, 9),
    path=st.sampled_from(PATHS),
    weighted=st.booleans(),
)
def test_one_product_for_every_member_gives_each_members_samples(seed, sentences, members, path, weighted):
    check_same(seed, sentences, members, ScoringOptions(gts_weighted=weighted), path)


def test_the_float64_product_when_float32_could_round(monkeypatch):
    monkeypatch.setattr(sampled_module, "EXACT_FLOAT32", 0)
    check_same(2014, 40, 6, ScoringOptions(), "gotoscorer.f")


def test_other_weights_and_beta():
    check_same(5, 25, 5, ScoringOptions(beta=1.0, gts_abc=(1.0, 0.5, 1.0)), "gotoscorer.f")


@pytest.mark.parametrize("path", ["errant.cs.f", "gotoscorer.tp"])
def test_not_a_pool_metrics_resampled_path(path):
    sentence_of, gold, modified, correct = random_pool(1, 3, 2)
    pool = PoolCounts(correct.sum(axis=0), 2)
    packed = np.packbits(modified, axis=1), np.packbits(correct, axis=1)
    layout = ChunkLayout(gold, sentence_of, 3)
    assert pooled_sampled_scores(path, ScoringOptions(), pool, layout, *packed, samples=8, seed=1) is None
