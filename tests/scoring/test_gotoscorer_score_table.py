"""The vectorised GoToScorer paths equal the scalar ones bit for bit.

A live pool's stored scores must equal a fresh computation to the last bit, and the
platform re-derives every member's scores with :func:`score_table` (numpy) and
:meth:`Pool.from_packed` where the library's scalar path uses :func:`scores_from_sums` and
:meth:`Pool.add`: the same IEEE operations in the same order, so every float must have the
same bits and every unweighted count stay an int.
"""

import json
import struct

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringOptions
from scoring.gotoscorer import Outcomes, OutcomeSums, Pool, WeightParams, score_table, scores_from_sums
from scoring.gotoscorer.words import from_bytes, pack, unpack, weighted_sums
from scoring.metrics.gotoscorer import GTS_KEYS, GoToScorer

PARAMS = [WeightParams(), WeightParams(1.0, 1.0, 1.0), WeightParams(0.5, 0.25, 2.0), WeightParams(0.0, 0.0, 3.0)]


def same_bits(a, b) -> bool:
    """Equal and of one type; floats compared by their 8 bytes (0.0 is not -0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    return a == b


@st.composite
def members(draw):
    """Per member: class counts (TP, FP, FN, TN, all) and sums of n_i over them, N."""
    size = draw(st.integers(1, 1200))
    n_chunks = draw(st.integers(0, 70000))
    rows = []
    for _ in range(draw(st.integers(1, 12))):
        counts = [draw(st.integers(0, n_chunks)) for _ in range(4)] + [n_chunks]
        sums = [draw(st.integers(0, size * c)) for c in counts]
        rows.append((counts, sums))
    return size, rows


@settings(max_examples=300, deadline=None)
@given(members(), st.sampled_from(PARAMS), st.sampled_from([0.5, 1.0, 2.0, 0.3]), st.booleans())
def test_score_table_is_bit_identical_to_scores_from_sums(scenario, params, beta, weighted):
    size, rows = scenario
    counts = np.array([c for c, _ in rows], dtype=np.int64)
    sums = np.array([s for _, s in rows], dtype=np.int64)
    table = score_table(counts, sums, size, weighted=weighted, beta=beta, params=params)
    for k, (c, s) in enumerate(rows):
        scalar = scores_from_sums(OutcomeSums(tuple(c), tuple(s)), size, weighted=weighted, beta=beta, params=params)
        for key, value in scalar.items():
            assert same_bits(table[key].tolist()[k], value), (key, table[key].tolist()[k], value)


def test_zero_denominators_give_zero_as_the_scalar_path():
    counts = np.array([[0, 0, 0, 0, 0], [0, 3, 0, 0, 3], [2, 0, 0, 0, 2]], dtype=np.int64)
    sums = np.array([[0, 0, 0, 0, 0], [0, 6, 0, 0, 6], [4, 0, 0, 0, 4]], dtype=np.int64)
    for weighted in (True, False):
        table = score_table(counts, sums, 2, weighted=weighted)
        for k in range(len(counts)):
            scalar = scores_from_sums(
                OutcomeSums(tuple(counts[k].tolist()), tuple(sums[k].tolist())), 2, weighted=weighted
            )
            assert all(same_bits(table[key].tolist()[k], scalar[key]) for key in scalar)


@st.composite
def pools(draw):
    n_chunks = draw(st.integers(1, 300))
    bools = st.lists(st.booleans(), min_size=n_chunks, max_size=n_chunks).map(np.array)
    gold = draw(bools)
    systems = {f"s{k}": Outcomes(draw(bools), draw(bools)) for k in range(draw(st.integers(1, 9)))}
    return gold, systems


@settings(max_examples=60, deadline=None)
@given(pools(), st.sampled_from(PARAMS), st.booleans())
def test_member_results_equal_member_result_in_json(scenario, params, gts_weighted):
    gold, systems = scenario
    metric = GoToScorer(ScoringOptions(gts_abc=(params.a, params.b, params.c), gts_weighted=gts_weighted))
    pool = Pool(gold, params)
    for name, outcomes in systems.items():
        pool.add(name, outcomes)
    names, counts, sums = pool.sums_table()
    vectorised = metric.member_results(counts, sums, pool.size, 0)
    scalar = [metric.member_result(pool.sums(name), pool.size, 0) for name in names]
    assert json.dumps(vectorised) == json.dumps(scalar)  # repr of every float, int stays int
    assert all(list(v) == list(s) for v, s in zip(vectorised, scalar, strict=True))  # key order too
    assert all(set(GTS_KEYS) <= set(v) for v in vectorised)


@settings(max_examples=60, deadline=None)
@given(pools(), st.sampled_from(PARAMS))
def test_a_pool_from_packed_bytes_equals_one_built_by_joins(scenario, params):
    gold, systems = scenario
    joined = Pool(gold, params)
    for name, outcomes in systems.items():
        joined.add(name, outcomes)
    packed = Pool.from_packed(
        gold,
        list(systems),
        np.array([np.packbits(o.modified) for o in systems.values()]),
        np.array([np.packbits(o.correct) for o in systems.values()]),
        params,
    )
    assert np.array_equal(packed.n, joined.n)
    assert np.array_equal(packed.false_positives, joined.false_positives)
    for a, b in zip(packed.sums_table(), joined.sums_table(), strict=True):
        assert np.array_equal(np.asarray(a), np.asarray(b))
    for name, outcomes in systems.items():
        stored = packed.outcomes(name)
        assert np.array_equal(stored.modified, outcomes.modified) and np.array_equal(stored.correct, outcomes.correct)
    first = next(iter(systems))
    packed.remove(first)
    joined.remove(first)
    assert packed.all_scores() == joined.all_scores()
    assert np.array_equal(packed.false_positives, joined.false_positives)


def test_words_round_trip_and_weighted_sums():
    rng = np.random.default_rng(7)
    for n_bits in (1, 7, 8, 63, 64, 65, 1000):
        bits = rng.random((5, n_bits)) < 0.4
        words = pack(bits)
        assert words.shape == (5, (n_bits + 63) // 64)
        assert np.array_equal(unpack(words, n_bits), bits)
        dirty = np.packbits(bits, axis=1)
        dirty[:, -1] |= 0xFF >> (n_bits % 8 or 8)  # padding bits set: must not count
        assert np.array_equal(from_bytes(dirty, n_bits), words)
        n = rng.integers(0, 5000, n_bits)
        assert np.array_equal(weighted_sums(words, n), bits.astype(np.int64) @ n)


@settings(max_examples=60, deadline=None)
@given(pools(), st.sampled_from(PARAMS), st.booleans(), st.sampled_from([0, 1]))
def test_results_json_is_json_dumps_of_member_results(scenario, params, gts_weighted, ref):
    """The platform's payload text, written without dicts, is byte for byte the encoder's."""
    gold, systems = scenario
    metric = GoToScorer(ScoringOptions(gts_abc=(params.a, params.b, params.c), gts_weighted=gts_weighted))
    pool = Pool(gold, params)
    for k, outcomes in enumerate(systems.values()):
        pool.add(1000 + k, outcomes)
    names, counts, sums = pool.sums_table()
    expected = {str(name): metric.member_result(pool.sums(name), pool.size, ref) for name in names}
    assert metric.results_json(names, counts, sums, pool.size, ref) == json.dumps(expected, separators=(",", ":"))


def test_a_pool_without_chunks_only_counts_members():
    """A task without GoToScorer still keeps a pool (N only): zero-length bit rows."""
    empty = Outcomes(np.zeros(0, dtype=bool), np.zeros(0, dtype=bool))
    pool = Pool.from_packed(
        np.zeros(0, dtype=bool), ["a", "b"], np.zeros((2, 0), dtype=np.uint8), np.zeros((2, 0), dtype=np.uint8)
    )
    pool.add("c", empty)
    pool.remove("a")
    names, counts, sums = pool.sums_table()
    assert names == ["b", "c"] and pool.size == 2 and not counts.any() and not sums.any()
