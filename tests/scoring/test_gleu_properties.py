"""GLEU properties: a perfect output scores 1, systems are scored independently, the stored
statistics give what a direct computation gives, and resampling every sentence once is the
corpus score."""

import math
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset, Hypothesis, Reference, ScoringOptions, scores_from_statistics
from scoring.metrics.gleu import Gleu

WORDS = ["the", "cat", "sat", "on", "a", "mat", "."]
sentence = st.lists(st.sampled_from(WORDS), min_size=4, max_size=9)


@st.composite
def corpora(draw, max_refs=3):
    """(sources, references, hypothesis) token lists over a tiny vocabulary."""
    n = draw(st.integers(1, 6))
    n_refs = draw(st.integers(1, max_refs))
    sources = [draw(sentence) for _ in range(n)]
    references = [[draw(sentence) for _ in range(n)] for _ in range(n_refs)]
    return sources, references, [draw(sentence) for _ in range(n)]


def dataset_of(sources, references) -> Dataset:
    return Dataset(sources, [Reference(f"ref{k}", tokens, [[] for _ in tokens]) for k, tokens in enumerate(references)])


def statistics_of(metric, sources, references, hypothesis_tokens) -> dict:
    return metric.statistics(
        dataset_of(sources, references), Hypothesis("sys", hypothesis_tokens, [[] for _ in hypothesis_tokens])
    )


def ngrams(tokens, n):
    return Counter(tuple(tokens[k : k + n]) for k in range(len(tokens) - n + 1))


def direct_gleu(sources, references, hypothesis, iterations=500):
    """The paper's formula written out per iteration, from the tokens, without numpy."""
    n_refs = len(references)
    scores = []
    for j in range(iterations if n_refs > 1 else 1):
        rng = random.Random(j * 101)
        chosen = [int(rng.random() * n_refs) for _ in sources]
        c = r = 0
        numerators, denominators = [0] * 4, [0] * 4
        for i, (src, hyp) in enumerate(zip(sources, hypothesis)):
            ref = references[chosen[i]][i]
            c, r = c + len(hyp), r + len(ref)
            for n in range(1, 5):
                h, rr, s = ngrams(hyp, n), ngrams(ref, n), ngrams(src, n)
                changed = Counter({g: k for g, k in s.items() if g not in rr})
                numerators[n - 1] += max(sum((h & rr).values()) - sum((h & changed).values()), 0)
                denominators[n - 1] += max(len(hyp) + 1 - n, 0)
        if 0 in (c, r, *numerators, *denominators):
            scores.append(0.0)
        else:
            scores.append(
                math.exp(min(0.0, 1 - r / c) + sum(math.log(a / b) for a, b in zip(numerators, denominators)) / 4)
            )
    return sum(scores) / len(scores)


@settings(max_examples=40, deadline=None)
@given(corpora(max_refs=1))
def test_a_reference_itself_scores_one(corpus):
    sources, references, _ = corpus
    metric = Gleu(ScoringOptions())
    assert metric.score(statistics_of(metric, sources, references, references[0]))["score"] == pytest.approx(1.0)


@settings(max_examples=30, deadline=None)
@given(corpora())
def test_stored_statistics_give_the_direct_computation(corpus):
    sources, references, hypothesis = corpus
    metric = Gleu(ScoringOptions())
    score = metric.score(statistics_of(metric, sources, references, hypothesis))["score"]
    assert score == pytest.approx(direct_gleu(sources, references, hypothesis), abs=1e-12)
    assert 0.0 <= score <= 1.0


@settings(max_examples=30, deadline=None)
@given(corpora())
def test_resampling_every_sentence_once_is_the_corpus_score(corpus):
    sources, references, hypothesis = corpus
    metric = Gleu(ScoringOptions())
    statistics = statistics_of(metric, sources, references, hypothesis)
    resampled = metric.resample(statistics, np.arange(len(sources)))
    assert resampled["gleu.score"] == pytest.approx(metric.score(statistics)["score"], abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(corpora(max_refs=1), st.data())
def test_a_resample_with_one_reference_is_the_score_of_those_sentences(corpus, data):
    """With one reference there is no draw, so a sample is just a smaller corpus."""
    sources, references, hypothesis = corpus
    indices = data.draw(st.lists(st.integers(0, len(sources) - 1), min_size=1, max_size=8))
    metric = Gleu(ScoringOptions())
    picked = Gleu(ScoringOptions()).score(
        statistics_of(
            metric,
            [sources[i] for i in indices],
            [[references[0][i] for i in indices]],
            [hypothesis[i] for i in indices],
        )
    )
    assert metric.resample(statistics_of(metric, sources, references, hypothesis), indices)[
        "gleu.score"
    ] == pytest.approx(picked["score"], abs=1e-12)


@settings(max_examples=20, deadline=None)
@given(corpora(), st.randoms())
def test_permuting_systems_changes_nothing(corpus, rng):
    sources, references, hypothesis = corpus
    metric = Gleu(ScoringOptions())
    systems = {"a": hypothesis, "b": references[0], "c": sources}
    statistics = {
        name: {"gleu": statistics_of(metric, sources, references, tokens)} for name, tokens in systems.items()
    }
    names = list(statistics)
    rng.shuffle(names)
    shuffled = scores_from_statistics({name: statistics[name] for name in names}, [metric])
    assert shuffled == scores_from_statistics(statistics, [metric])


def test_one_reference_runs_one_iteration_and_says_so():
    metric = Gleu(ScoringOptions())
    metric.prepare(dataset_of([["a", "b", "c", "d"]], [[["a", "b", "c", "d"]]]))
    assert "|iterations:1|" in metric.signature()
