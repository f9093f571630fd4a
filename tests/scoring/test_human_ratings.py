"""Direct assessment in the library (scoring.human.ratings): the rank-sum test as SciPy
computes it, Krippendorff's alpha on his own example, z-scores that no annotator's
leniency or spread changes, clusters, the CSV and ``scoring human --ratings``."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import mannwhitneyu

from scoring.cli.main import main
from scoring.errors import InputError
from scoring.human.alpha import interval_alpha
from scoring.human.rank_sum import best_p, neighbour_clusters, rank_sum_p
from scoring.human.ratings import Rating, control_p, rate_systems, read_ratings, write_ratings, z_scores

samples = st.lists(st.integers(min_value=0, max_value=6).map(float), min_size=1, max_size=14)


@settings(max_examples=200, deadline=None)
@given(samples, samples)
def test_rank_sum_p_is_scipys_one_sided_mann_whitney(higher, lower):
    expected = mannwhitneyu(higher, lower, alternative="greater").pvalue
    got = rank_sum_p(higher, lower)
    if math.isnan(expected):  # every value the same: SciPy gives nan, we say nothing tells them apart
        assert got == 1.0
    else:
        assert got == pytest.approx(expected, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-50, 50), min_size=1, max_size=8, unique=True))
def test_exact_path_without_ties(values):
    half = len(values) // 2
    higher, lower = values[:half] or values[:1], values[half:] or values[-1:]
    if set(higher) & set(lower):
        return
    assert rank_sum_p(higher, lower) == pytest.approx(mannwhitneyu(higher, lower, alternative="greater").pvalue)


def test_best_p_falls_with_more_controls():
    assert best_p(0) == 1.0
    assert best_p(3) == pytest.approx(1 / 20)
    assert best_p(5) < 0.01 and best_p(10) < best_p(5)


def test_krippendorffs_own_example_interval_alpha():
    """Krippendorff (2011), 'Computing Krippendorff's Alpha-Reliability': 4 coders, 12
    units, missing values; alpha (interval) = 0.849."""
    table = {
        "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        "C": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    }
    units = {u: {c: [row[u]] for c, row in table.items() if row[u] is not None} for u in range(12)}
    assert interval_alpha(units) == pytest.approx(0.849, abs=0.0005)


def test_alpha_perfect_and_undefined():
    assert interval_alpha({1: {"a": [1], "b": [1]}, 2: {"a": [4], "b": [4]}}) == 1.0
    assert interval_alpha({1: {"a": [1]}}) is None  # nothing pairable
    assert interval_alpha({1: {"a": [2], "b": [2]}}) is None  # nothing to disagree on


ratings_strategy = st.lists(
    st.builds(
        Rating,
        st.sampled_from(["ann1", "ann2", "ann3"]),
        st.sampled_from(["1", "2", "3", "4"]),
        st.sampled_from(["S1", "S2", "S3"]),
        st.sampled_from(["fluency", "grammaticality"]),
        st.integers(1, 4).map(float),
    ),
    min_size=1,
    max_size=60,
)


@settings(max_examples=100, deadline=None)
@given(ratings_strategy, st.floats(0.1, 30), st.floats(-100, 100), st.sampled_from(["ann1", "ann2", "ann3"]))
def test_z_scores_ignore_an_annotators_affine_shift(ratings, scale, shift, who):
    """An annotator who rates everything twice as high plus ten gets the same z-scores."""
    moved = [
        Rating(r.annotator, r.item, r.system, r.scale, r.value * scale + shift) if r.annotator == who else r
        for r in ratings
    ]
    assert z_scores(moved) == pytest.approx(z_scores(ratings), abs=1e-6)
    before, after = rate_systems(ratings).as_json(), rate_systems(moved).as_json()
    for system, entry in before["systems"].items():
        for name, figures in entry["scales"].items():
            assert after["systems"][system]["scales"][name]["z"] == pytest.approx(figures["z"], abs=1e-6)
            assert after["systems"][system]["scales"][name]["cluster"] == figures["cluster"]


@settings(max_examples=60, deadline=None)
@given(ratings_strategy)
def test_csv_round_trip_changes_nothing(ratings):
    assert read_ratings(write_ratings(ratings).encode()) == ratings


@settings(max_examples=60, deadline=None)
@given(ratings_strategy)
def test_z_scores_have_mean_zero_per_annotator_and_scale(ratings):
    z = z_scores(ratings)
    groups: dict = {}
    for r, score in zip(ratings, z):
        groups.setdefault((r.annotator, r.scale), []).append(score)
    for scores in groups.values():
        assert sum(scores) == pytest.approx(0.0, abs=1e-7)


def test_figures_per_system_and_scale():
    ratings = [
        Rating(a, str(i), s, "fluency", v)
        for a in ("ann1", "ann2")
        for i in range(1, 11)
        for s, v in (("good", 4.0), ("bad", 1.0))
    ] + [Rating("ann1", "1", "good", "grammaticality", 3.0), Rating("ann1", "1", "bad", "grammaticality", 3.0)]
    figures = rate_systems(ratings).as_json()
    assert list(figures["systems"]) == ["good", "bad"]
    fluency = {s: figures["systems"][s]["scales"]["fluency"] for s in ("good", "bad")}
    assert fluency["good"] == {"mean": 4.0, "z": 1.0, "n": 20, "cluster": 1, "interval": [4.0, 4.0]}
    assert fluency["bad"] == {"mean": 1.0, "z": -1.0, "n": 20, "cluster": 2, "interval": [1.0, 1.0]}
    assert figures["systems"]["good"]["scales"]["grammaticality"]["cluster"] == 1
    assert figures["systems"]["bad"]["scales"]["grammaticality"]["cluster"] == 1  # one rating each: no difference
    assert figures["agreement"]["alpha"]["fluency"] == 1.0
    assert figures["signature"].startswith("human:da|z:annotator+scale|cluster:wmt23-mannwhitney-segments-p<0.05|")
    assert (
        figures["ratings"] == 42 and figures["annotators"] == 2 and figures["scales"] == ["fluency", "grammaticality"]
    )


def test_neighbour_clusters_split_only_where_the_test_says():
    clusters = neighbour_clusters({"a": [5.0, 4.0] * 5 + [5.0], "b": [4.0, 5.0] * 5, "c": [0.0] * 10})
    assert clusters == {"a": 1, "b": 1, "c": 2}


def test_control_p_trusts_the_careful():
    assert control_p([4, 4, 3, 4, 4, 3], [1, 2, 1, 1, 2, 1]) < 0.01
    assert control_p([1, 2, 1], [4, 4, 3]) > 0.9


def test_bad_csv_named_by_line():
    with pytest.raises(InputError) as error:
        read_ratings(b"annotator,item,system,scale,value\nann1,1,S1,fluency,4\nann1,,S1,fluency,high\n")
    messages = [str(p) for p in error.value.problems]
    assert messages == [
        "line 3: item: empty or longer than 200 characters",
        "line 3: value: a finite number in ASCII digits, as 3 or -2.5 (got 'high')",
    ]
    with pytest.raises(InputError, match="missing: scale"):
        read_ratings(b"annotator,item,system,value\n")
    with pytest.raises(InputError, match="no ratings"):
        read_ratings(b"annotator,item,system,scale,value\n")
    assert read_ratings(b"value,scale,system,item,annotator\n3.5,fluency,S,7,ann\n") == [
        Rating("ann", "7", "S", "fluency", 3.5)
    ]


def test_cli_ratings_json_and_table(tmp_path, capsys):
    ratings = [
        Rating(a, str(i), s, "fluency", v) for a in ("x", "y") for i in range(6) for s, v in (("A", 4), ("B", 2))
    ]
    path = tmp_path / "da.csv"
    path.write_text(write_ratings(ratings), encoding="utf-8")
    assert main(["human", "--ratings", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == rate_systems(read_ratings(path)).as_json()
    assert main(["human", "--ratings", f"mine={path}"]) == 0
    table = capsys.readouterr().out
    assert "== mine: 24 ratings, 2 annotators ==" in table
    assert "-- fluency (alpha 1.000, within annotators -: x -, y -)" in table
    bad = tmp_path / "bad.csv"
    bad.write_text("annotator,item,system,scale,value\nx,1,A,fluency,\n", encoding="utf-8")
    assert main(["human", "--ratings", str(bad)]) == 2
    assert "bad.csv: line 2: value" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["human", "--ratings", str(path), "--judgments", str(path)])


@settings(max_examples=60, deadline=None)
@given(ratings_strategy, st.randoms(use_true_random=False))
def test_the_order_of_the_ratings_changes_nothing(ratings, random):
    shuffled = list(ratings)
    random.shuffle(shuffled)
    before, after = rate_systems(ratings).as_json(), rate_systems(shuffled).as_json()
    assert set(before["scales"]) == set(after["scales"]) and before["ratings"] == after["ratings"]
    for system, entry in before["systems"].items():
        for name, figures in entry["scales"].items():
            other = after["systems"][system]["scales"][name]
            assert other["cluster"] == figures["cluster"] and other["n"] == figures["n"]
            assert other["mean"] == pytest.approx(figures["mean"]) and other["z"] == pytest.approx(
                figures["z"], abs=1e-9
            )
    for name, alpha in before["agreement"]["alpha"].items():
        assert after["agreement"]["alpha"][name] == (None if alpha is None else pytest.approx(alpha, abs=1e-9))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12), st.floats(0.1, 10), st.floats(-5, 5))
def test_control_p_is_rank_based(n, scale, shift):
    """The control test looks at ranks only: an annotator's scale and leniency change nothing,
    and originals above their copies give a smaller p than the reverse."""
    originals = [3.0 + (k % 2) for k in range(n)]
    degraded = [1.0 + (k % 2) * 0.5 for k in range(n)]
    p = control_p(originals, degraded)
    assert p == pytest.approx(control_p([v * scale + shift for v in originals], [v * scale + shift for v in degraded]))
    assert p <= control_p(degraded, originals)


def test_consistency_is_alpha_over_each_annotators_repeated_ratings():
    """Repeats rated alike give 1; a repeat that contradicts itself pulls it under 0; none gives null."""
    from scoring.human.ratings import Rating, rate_systems

    first = [Rating("x", str(i), s, "fluency", v) for i in (1, 2) for s, v in (("a", 4.0), ("b", 1.0))]
    steady = rate_systems(first + first).as_json()["agreement"]
    assert steady["intra_alpha"] == {"fluency": 1.0}
    flipped = [Rating(r.annotator, r.item, r.system, r.scale, 5.0 - r.value) for r in first]
    assert rate_systems(first + flipped).as_json()["agreement"]["intra_alpha"]["fluency"] < 0
    assert rate_systems(first).as_json()["agreement"]["intra_alpha"] == {"fluency": None}
