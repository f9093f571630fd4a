"""A system's bootstrap-sampled scores computed alone, then paired, give exactly the
paired bootstrap of both systems at once (scoring.bootstrap.paired_bootstrap_of_sampled):
the stored vectors of the leaderboard's tie groups rest on it."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringOptions, resampling
from scoring.bootstrap import paired_bootstrap_of, paired_bootstrap_of_sampled, sampled_scores

SAMPLES, SEED = 64, 7


@st.composite
def errant_pairs(draw):
    """Two systems' ERRANT statistics on the same sentences: 1-3 references, every mode."""
    n = draw(st.integers(1, 40))
    refs = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    high = draw(st.integers(1, 6))

    def system():
        counts = {
            mode: [[[*map(int, rng.integers(0, high, 3)), {}] for _ in range(refs)] for _ in range(n)]
            for mode in ("cs", "ds", "dt", "cse")
        }
        return {"refs": [list(range(refs))] * n, "counts": counts}

    return system(), system()


@settings(max_examples=60, deadline=None)
@given(
    errant_pairs(),
    st.sampled_from(["errant.cs.f", "errant.cs.p", "errant.dt.r", "errant.sentence.f"]),
    st.sampled_from([0.5, 1.0]),
)
def test_sampled_then_paired_equals_paired(pair, path, beta):
    options = ScoringOptions(beta=beta)
    a, b = (resampling(path, statistics, options) for statistics in pair)
    together = paired_bootstrap_of(a, b, path, samples=SAMPLES, seed=SEED)
    apart = paired_bootstrap_of_sampled(
        sampled_scores(a, path, samples=SAMPLES, seed=SEED),
        sampled_scores(b, path, samples=SAMPLES, seed=SEED),
        samples=SAMPLES,
        seed=SEED,
    )
    assert apart == together


def test_vectors_round_trip_through_bytes():
    """What the database keeps (float64 bytes) pairs as the vector did."""
    stats = {
        "refs": [[0]] * 30,
        "counts": {m: [[[k % 3, k % 2, 1, {}]] for k in range(30)] for m in ("cs", "ds", "dt", "cse")},
    }
    one = sampled_scores(resampling("errant.cs.f", stats, ScoringOptions()), "errant.cs.f")
    again = type(one)(one.observed, np.frombuffer(one.values.tobytes(), dtype=np.float64))
    assert paired_bootstrap_of_sampled(one, again) == paired_bootstrap_of_sampled(one, one)


def test_vectors_of_other_samples_are_refused():
    stats = {"refs": [[0]] * 5, "counts": {m: [[[1, 1, 1, {}]]] * 5 for m in ("cs", "ds", "dt", "cse")}}
    one = sampled_scores(resampling("errant.cs.f", stats, ScoringOptions()), "errant.cs.f", samples=10)
    with pytest.raises(ValueError):
        paired_bootstrap_of_sampled(one, one, samples=20)
