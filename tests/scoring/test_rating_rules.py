"""WMT23's clusters, per-annotator consistency, ordinal alpha, bootstrap intervals and paired
tests of rated systems, each against an independent computation (SciPy, the ``krippendorff``
package where installed)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest, mannwhitneyu

from scoring.human.alpha import ordinal_alpha
from scoring.human.rank_sum import rank_sum_p
from scoring.human.rating_intervals import bootstrap_intervals, sign_test_p
from scoring.human.ratings import Rating, intra_alpha_by_annotator, rate_systems, scale_alpha
from scoring.human.wmt_clusters import segment_means, wmt23_clusters


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.floats(-100, 100), min_size=1, max_size=8, unique=True),
    st.lists(st.floats(-100, 100), min_size=9, max_size=40, unique=True),
    st.booleans(),
)
def test_exact_path_when_one_sample_is_small_as_scipy(small, large, small_first):
    """SciPy's "auto" takes the exact distribution when either sample has 8 values or fewer."""
    if set(small) & set(large):
        return
    higher, lower = (small, large) if small_first else (large, small)
    expected = mannwhitneyu(higher, lower, alternative="greater", method="auto").pvalue
    assert rank_sum_p(higher, lower) == pytest.approx(expected, rel=1e-9, abs=1e-15)


def scipy_wmt23(ratings: list[Rating], alpha: float = 0.05) -> dict[str, int]:
    """WMT23's rule written again with SciPy and numpy, from the rule's words."""
    systems = sorted({r.system for r in ratings})
    from scoring.human.ratings import z_scores

    z = z_scores(ratings)
    mean_z = {s: np.mean([zz for r, zz in zip(ratings, z) if r.system == s]) for s in systems}
    order = sorted(systems, key=lambda s: (-mean_z[s], s))
    per_item: dict[str, dict[str, list[float]]] = {}
    for r in ratings:
        per_item.setdefault(r.system, {}).setdefault(r.item, []).append(r.value)
    seg = {s: {i: float(np.mean(v)) for i, v in items.items()} for s, items in per_item.items()}
    wins = {}
    for i, a in enumerate(order):
        count = 0
        for b in order[i + 1 :]:
            shared = sorted(set(seg[a]) & set(seg[b]))
            x, y = [seg[a][k] for k in shared], [seg[b][k] for k in shared]
            p = mannwhitneyu(x, y, alternative="greater").pvalue if shared else 1.0
            count += bool(p < alpha)  # nan (all equal) is no win
        wins[a] = count
    clusters, cluster, members = {}, 1, []
    for i, s in enumerate(order):
        members.append(s)
        clusters[s] = cluster
        if min(wins[m] for m in members) == len(order) - i - 1:
            cluster, members = cluster + 1, []
    return clusters


def simulated(seed: int, systems: int = 6, items: int = 40, annotators: int = 4) -> list[Rating]:
    """Several annotators an item, each item rated by 2-3 of them, systems of close quality."""
    rng = random.Random(seed)
    quality = {f"S{k}": rng.uniform(1.5, 3.5) for k in range(systems)}
    ratings = []
    for item in range(items):
        raters = rng.sample(range(annotators), rng.choice((2, 3)))
        for system, q in quality.items():
            if rng.random() < 0.15:
                continue  # not every system rated on every item
            for a in raters:
                value = min(4, max(1, round(q + rng.gauss(0, 0.8))))
                ratings.append(Rating(f"a{a}", str(item), system, "grammaticality", float(value)))
    return ratings


@pytest.mark.parametrize("seed", range(12))
def test_wmt23_clusters_equal_scipys_on_several_annotators_an_item(seed):
    ratings = simulated(seed)
    figures = rate_systems(ratings, samples=0).as_json()["systems"]
    got = {s: e["scales"]["grammaticality"]["cluster"] for s, e in figures.items()}
    assert got == scipy_wmt23(ratings)


def test_wmt23_counts_an_item_once_where_neighbours_count_every_rating():
    """Five annotators rate two close systems on 8 items: every rating apart makes 40 'independent'
    values and a split; WMT23's one average per item does not."""
    ratings = []
    for item in range(8):
        for a in range(5):
            ratings.append(Rating(f"a{a}", str(item), "A", "q", 3.0 + (item % 2) * (a % 2)))
            ratings.append(Rating(f"a{a}", str(item), "B", "q", 3.0 - 0.0 * a + (a == 0) * -1.0 * (item % 3 == 0)))
    wmt = rate_systems(ratings, samples=0).as_json()["systems"]
    neighbours = rate_systems(ratings, samples=0, rule="neighbours").as_json()["systems"]
    assert {s: e["scales"]["q"]["cluster"] for s, e in wmt.items()} == scipy_wmt23(ratings)
    assert neighbours["B"]["scales"]["q"]["cluster"] >= wmt["B"]["scales"]["q"]["cluster"]


def test_wmt23_rule_closes_a_cluster_only_when_every_member_beats_all_below():
    segments = {
        "A": {str(i): 4.0 - (i % 2) * 0.1 for i in range(12)},
        "B": {str(i): 3.95 - (i % 3) * 0.05 for i in range(12)},
        "C": {str(i): 1.0 + (i % 2) * 0.1 for i in range(12)},
    }
    assert wmt23_clusters(["A", "B", "C"], segments) == {"A": 1, "B": 1, "C": 2}
    assert wmt23_clusters(["A"], {"A": {"1": 3.0}}) == {"A": 1}
    assert segment_means([("A", "1", 2.0), ("A", "1", 4.0), ("A", "2", 1.0)]) == {"A": {"1": 3.0, "2": 1.0}}


@pytest.fixture
def krippendorff():
    """The ``krippendorff`` package (requirements-dev.txt), the reference for alpha."""
    import krippendorff

    return krippendorff


def matrix(units: dict, coders: list[str]) -> np.ndarray:
    """The reliability data (coders x units, nan where missing) of ``{unit: {coder: value}}``."""
    keys = sorted(units)
    return np.array([[units[k].get(c, np.nan) for k in keys] for c in coders], dtype=float)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("level", ["interval", "ordinal"])
def test_inter_annotator_alpha_is_the_krippendorff_package_on_several_annotators_an_item(seed, level, krippendorff):
    ratings = [r for r in simulated(seed) if r.annotator != "a3" or r.item != "0"]
    units: dict = {}
    for r in ratings:
        units.setdefault((r.item, r.system), {})[r.annotator] = r.value
    expected = krippendorff.alpha(reliability_data=matrix(units, ["a0", "a1", "a2", "a3"]), level_of_measurement=level)
    assert scale_alpha(ratings, level) == pytest.approx(expected, abs=1e-10)


def with_repeats(seed: int) -> tuple[list[Rating], dict[str, float]]:
    """Three annotators who see some outputs twice: steady, noisy, and one who rates at random."""
    rng = random.Random(seed)
    noise = {"steady": 0.2, "noisy": 0.9, "random": None}
    ratings = []
    for annotator, spread in noise.items():
        for item in range(30):
            for system, q in (("A", 3.2), ("B", 2.4), ("C", 1.8)):
                times = 2 if rng.random() < 0.5 else (3 if rng.random() < 0.2 else 1)
                for _ in range(times):
                    value = rng.randint(1, 4) if spread is None else min(4, max(1, round(q + rng.gauss(0, spread))))
                    ratings.append(Rating(annotator, str(item), system, "fluency", float(value)))
    return ratings, noise


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("level", ["interval", "ordinal"])
def test_intra_alpha_per_annotator_is_the_krippendorff_package_over_their_repeats(seed, level, krippendorff):
    ratings, noise = with_repeats(seed)
    got = intra_alpha_by_annotator(ratings, level)
    for annotator in noise:
        units: dict = {}
        for r in ratings:
            if r.annotator == annotator:
                seen = units.setdefault((r.item, r.system), {})
                seen[str(len(seen))] = r.value
        repeated = {k: v for k, v in units.items() if len(v) >= 2}
        expected = krippendorff.alpha(reliability_data=matrix(repeated, ["0", "1", "2"]), level_of_measurement=level)
        assert got[annotator] == pytest.approx(expected, abs=1e-10)
    assert got["random"] < 0.3 < got["steady"]


def test_intra_alpha_by_annotator_in_the_json_and_a_random_annotator_stands_out():
    ratings, _ = with_repeats(0)
    agreement = rate_systems(ratings, samples=0).as_json()["agreement"]
    by_annotator = agreement["intra_alpha_by_annotator"]["fluency"]
    assert set(by_annotator) == {"steady", "noisy", "random"}
    assert by_annotator["random"] < agreement["intra_alpha"]["fluency"] < by_annotator["steady"]
    assert agreement["level"] == "interval"
    ordinal = rate_systems(ratings, samples=0, level="ordinal").as_json()
    assert ordinal["agreement"]["level"] == "ordinal" and "alpha-ordinal" in ordinal["signature"]
    with pytest.raises(ValueError, match="alpha level"):
        rate_systems(ratings, level="nominal")
    with pytest.raises(ValueError, match="cluster rule"):
        rate_systems(ratings, rule="elo")


def test_ordinal_alpha_perfect_and_undefined():
    assert ordinal_alpha({1: {"a": [1], "b": [1]}, 2: {"a": [4], "b": [4]}}) == 1.0
    assert ordinal_alpha({1: {"a": [2], "b": [2]}}) is None


def test_bootstrap_interval_is_numpys_percentile_of_item_resamples():
    rng = random.Random(3)
    rows = [("S", str(i), float(rng.randint(1, 4))) for i in range(50) for _ in range(rng.choice((1, 2)))]
    got = bootstrap_intervals(rows, samples=500, seed=7)["S"]
    items = sorted({i for _, i, _ in rows})
    draw = np.random.default_rng(7).multinomial(len(items), [1 / len(items)] * len(items), size=500)
    means = []
    for counts in draw:
        total = sum(c * v for c, (_, i, v) in ((counts[items.index(i)], r) for r in rows for i in [r[1]]))
        n = sum(counts[items.index(i)] for _, i, _ in rows)
        means.append(total / n)
    assert got == pytest.approx(list(np.percentile(means, [2.5, 97.5])), abs=1e-12)
    mean = sum(v for *_, v in rows) / len(rows)
    assert got[0] < mean < got[1]


def test_paired_per_item_comparisons_use_the_exact_sign_test():
    for wins, losses in ((0, 0), (5, 0), (7, 3), (2, 9), (30, 12)):
        expected = 1.0 if wins + losses == 0 else binomtest(wins, wins + losses, alternative="greater").pvalue
        assert sign_test_p(wins, losses) == pytest.approx(expected, abs=1e-12)
    ratings = [Rating("x", str(i), "A", "q", 4.0 - (i == 0) * 3) for i in range(8)]
    ratings += [Rating("x", str(i), "B", "q", 2.0) for i in range(8)]
    paired = rate_systems(ratings, samples=0).as_json()["paired"]["q"]["A"]["B"]
    assert paired == {"n": 8, "wins": 7, "losses": 1, "ties": 0, "p": pytest.approx(9 / 256)}
    assert math.isclose(sign_test_p(7, 1), 9 / 256)


def test_essay_level_correlation_is_scipys_over_the_rated_points_with_an_essay_bootstrap():
    from scipy.stats import pearsonr, spearmanr

    from scoring.meta.essay_level import essay_correlation

    rng = random.Random(5)
    metric = {s: {str(i): rng.random() for i in range(30)} for s in ("A", "B", "C")}
    human = {
        s: {i: 4 * v + rng.gauss(0, 0.5) for i, v in items.items() if rng.random() < 0.8} for s, items in metric.items()
    }
    got = essay_correlation(metric, human, samples=200, seed=3)
    x = [metric[s][i] for s in human for i in human[s]]
    y = [human[s][i] for s in human for i in human[s]]
    assert got["points"] == len(x) and got["essays"] == len({i for s in human for i in human[s]})
    assert got["pearson"] == pytest.approx(pearsonr(x, y)[0], abs=1e-12)
    assert got["spearman"] == pytest.approx(spearmanr(x, y)[0], abs=1e-12)
    low, high = got["interval"]["pearson"]
    assert low < got["pearson"] < high and 0 < low
    essays = sorted({i for s in human for i in human[s]})
    points = [(i, metric[s][i], human[s][i]) for s in human for i in human[s]]
    drawn = np.random.default_rng(3).integers(0, len(essays), (200, len(essays)))
    r, rho = [], []
    for row in drawn:  # each resample expanded: every point of a drawn essay, once per draw
        chosen = [p for e in row for p in points if p[0] == essays[e]]
        r.append(pearsonr([p[1] for p in chosen], [p[2] for p in chosen])[0])
        rho.append(spearmanr([p[1] for p in chosen], [p[2] for p in chosen])[0])
    assert got["interval"]["pearson"] == pytest.approx(list(np.quantile(r, [0.025, 0.975])), abs=1e-12)
    assert got["interval"]["spearman"] == pytest.approx(list(np.quantile(rho, [0.025, 0.975])), abs=1e-12)
    assert essay_correlation(metric, {"A": {"1": 2.0}})["pearson"] is None  # too few points
