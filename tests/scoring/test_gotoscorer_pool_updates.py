"""Any sequence of joins and leaves leaves the pool exactly equal to a fresh pool."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.gotoscorer import Outcomes, Pool, WeightParams, difficulty_weights, pool_scores, success_counts

PARAMS = [WeightParams(), WeightParams(1.0, 1.0, 1.0), WeightParams(0.5, 0.25, 2.0)]


@st.composite
def scenarios(draw):
    """Gold flags, up to 7 systems' outcome vectors, and a sequence of joins/leaves."""
    n_chunks = draw(st.integers(1, 70))
    bools = st.lists(st.booleans(), min_size=n_chunks, max_size=n_chunks).map(np.array)
    gold = draw(bools)
    systems = {f"s{k}": Outcomes(draw(bools), draw(bools)) for k in range(draw(st.integers(1, 7)))}
    toggles = draw(st.lists(st.sampled_from(sorted(systems)), min_size=1, max_size=25))
    return gold, systems, toggles, draw(st.sampled_from(PARAMS))


def assert_equals_fresh(pool: Pool, gold: np.ndarray, members: dict[str, Outcomes]) -> None:
    n = success_counts(o.correct for o in members.values())
    assert pool.size == len(members)
    assert np.array_equal(pool.n, n)
    assert np.array_equal(pool.weights(), difficulty_weights(n, len(members), pool.params))
    assert np.array_equal(pool.false_positives, sum((o.modified & ~o.correct).astype(int) for o in members.values()))
    rebuilt = Pool.of(gold, members, pool.params)
    assert np.array_equal(rebuilt.n, pool.n)
    for weighted in (True, False):
        fresh = pool_scores(gold, members, weighted=weighted, params=pool.params)
        assert pool.all_scores(weighted=weighted) == fresh
        assert rebuilt.all_scores(weighted=weighted) == fresh


@settings(max_examples=60, deadline=None)
@given(scenarios())
def test_joins_and_leaves_equal_a_fresh_pool(scenario):
    gold, systems, toggles, params = scenario
    pool = Pool(gold, params)
    members: dict[str, Outcomes] = {}
    for name in toggles:  # each name toggles membership: leave if in, else join
        if name in pool:
            pool.remove(name)
            del members[name]
        else:
            pool.add(name, systems[name])
            members[name] = systems[name]
        if members:
            assert_equals_fresh(pool, gold, members)
    for name, outcomes in members.items():
        stored = pool.outcomes(name)
        assert np.array_equal(stored.modified, outcomes.modified) and np.array_equal(stored.correct, outcomes.correct)


def test_rejoining_and_bad_input():
    gold = np.array([True, False, False])
    pool = Pool(gold)
    system = Outcomes(np.array([True, False, True]), np.array([True, True, False]))
    pool.add("a", system)
    try:
        pool.add("a", system)
    except ValueError as exc:
        assert "already" in str(exc)
    else:
        raise AssertionError("a second join under the same name must fail")
    try:
        pool.add("b", Outcomes(np.array([True]), np.array([True])))
    except ValueError as exc:
        assert "one entry per gold chunk" in str(exc)
    else:
        raise AssertionError("outcome vectors of the wrong length must fail")
