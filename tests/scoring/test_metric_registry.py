"""Metrics describe themselves: labels, headline and valid paths, counts, resampling (scoring.registry)."""

import numpy as np
import pytest

import scoring
from scoring import REGISTRY, ScorePath, ScoringOptions
from scoring.metrics.base import Metric


def test_every_headline_path_is_valid_and_described_by_its_metric():
    for score in scoring.headline_scores():
        assert score.path in scoring.valid_paths()
        assert scoring.describe(score.path).higher_is_better == score.higher_is_better
        assert scoring.describe(score.path).label.startswith(REGISTRY[score.metric].display_name())


def test_valid_paths_start_with_the_headline_and_list_each_path_once():
    paths = scoring.valid_paths()
    assert paths[: len(scoring.headline_scores())] == [s.path for s in scoring.headline_scores()]
    assert len(paths) == len(set(paths))
    assert {"errant.dt.p", "gotoscorer.unweighted.f", "cleme.independent.sentence.acc", "gleu.sentence.score"} <= set(
        paths
    )
    assert scoring.valid_paths(["gleu"]) == ["gleu.score", "gleu.sentence.score"]
    assert [p.path for p in scoring.score_paths()] == paths and scoring.score_paths(["gleu"])[0] == ScorePath(
        "gleu.score", "GLEU score"
    )


def test_describe_names_direction_and_rejects_unknown_paths_listing_the_valid_ones():
    assert scoring.describe("errant.cs.f") == ScorePath("errant.cs.f", "ERRANT cs F", True)
    assert scoring.describe("cleme2.dependent.corpus.over").higher_is_better is False
    assert scoring.describe("errant.cs.fn").higher_is_better is False
    with pytest.raises(scoring.UnknownPath) as error:
        scoring.describe("errant.cs.g")
    assert "errant.cs.f" in str(error.value) and "gleu.score" in error.value.valid


def test_default_ranking_counts_and_legacy_headline_list():
    assert scoring.default_path() == "errant.cs.f"
    assert scoring.default_path(["usim", "gotoscorer"]) == "gotoscorer.f"
    assert scoring.default_path(["gleu"]) == "gleu.score"
    assert scoring.is_count("errant.cs.tp") and scoring.is_count("cleme2.dependent.corpus.fp_un")
    assert not scoring.is_count("errant.cs.p") and not scoring.is_count("gleu.score")
    assert scoring.HEADLINE_SCORES == [(s.label, s.path) for s in scoring.headline_scores()]


def test_similarity_paths_resample_only_from_similarity_statistics():
    assert scoring.can_resample("cleme2.sim.dependent.corpus.score")
    statistics = {"n_chunks": [1], "chunks": [[]], "refs": [[0]], "sim": False}
    assert scoring.resampling("cleme2.sim.dependent.corpus.score", statistics, ScoringOptions(sim=True)) is None
    assert scoring.resampling("cleme2.dependent.corpus.score", statistics, ScoringOptions()) is not None


def test_a_metric_declaring_nothing_optional_still_works():
    class Bare(Metric):
        name = "bare"

        def statistics(self, dataset, hypothesis):
            return {}

        def score(self, statistics):
            return {"f": 1.0}

    assert Bare.display_name() == "bare" and Bare.score_paths() == () and Bare.ranking_path() == ""
    assert Bare(ScoringOptions()).resample({}, [0, 0]) == {} and Bare.per_type is None


@pytest.mark.parametrize("name", ["errant", "cleme", "cleme2", "usim", "gleu"])
def test_resampling_every_sentence_once_is_the_corpus_score(seeda_subset, seeda_hypotheses, name):
    metric = REGISTRY[name](ScoringOptions())
    metric.prepare(seeda_subset)
    statistics = metric.statistics(seeda_subset, seeda_hypotheses["T5"])
    scores = {name: metric.score(statistics)}
    resampled = metric.resample(statistics, np.arange(len(seeda_subset)))
    assert set(resampled) == {p for p in REGISTRY[name].resampled if ".sim." not in p}
    for path, value in resampled.items():
        assert value == pytest.approx(scoring.value_at(scores, path), abs=1e-12)
    assert scoring.resampling(f"{name}.nope", statistics, ScoringOptions()) is None


def test_flatten_leaves_out_tables_and_bookkeeping():
    scores = {
        "errant": {"cs": {"f": 0.5, "tp": 3}, "per_type": {"1": {"M": {"f": 1.0}}}},
        "gotoscorer": {"f": 0.2, "pool_size": 4, "weighted": True},
    }
    assert scoring.flatten(scores) == {"errant.cs.f": 0.5, "errant.cs.tp": 3, "gotoscorer.f": 0.2}
    assert scoring.value_at(scores, "errant.cs.f") == 0.5 and scoring.value_at(scores, "gotoscorer.weighted") is None


@pytest.mark.parametrize("weighted", [True, False])
def test_gotoscorer_resampled_inside_its_pool_gives_every_member_its_published_scores(
    seeda_subset, seeda_hypotheses, weighted
):
    """Every sentence once, for every member of a 4-system pool: the pool's own scores, to the last bit."""
    options = ScoringOptions(gts_weighted=weighted)
    metric = REGISTRY["gotoscorer"](options)
    metric.prepare(seeda_subset)
    statistics = {name: metric.statistics(seeda_subset, seeda_hypotheses[name]) for name in list(seeda_hypotheses)[:4]}
    published = metric.score_pool(statistics)
    pool = metric.pool_counts(list(statistics.values()))
    assert pool.size == 4
    for name, stats in statistics.items():
        resampling = scoring.resampling("gotoscorer.f", stats, options, pool)
        resampled = resampling.corpus()
        assert set(resampled) == {p for p in REGISTRY["gotoscorer"].resampled if weighted or ".unweighted." not in p}
        for path, value in resampled.items():
            assert value == scoring.value_at({"gotoscorer": published[name]}, path), path
    assert scoring.resampling("gotoscorer.f", statistics[name], options) is None  # no pool given
