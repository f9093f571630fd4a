"""M2 properties: a perfect output scores 1 against its own gold, copying the source
proposes nothing, systems are scored independently, and stored statistics, resampling
and a direct computation agree."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset, Hypothesis, Reference, ScoringOptions, scores_from_statistics
from scoring.errant.edits import Edit, apply_edits
from scoring.errant.fscore import prf
from scoring.metrics.m2 import M2

WORDS = ["the", "cat", "sat", "on", "a", "mat", ".", "and"]


@st.composite
def annotated_sentence(draw):
    """Distinct source tokens and one annotator's edits with fresh corrections, at least
    three unchanged tokens apart: MaxMatch can then find every gold edit as it stands."""
    n = draw(st.integers(1, 14))
    source = [f"w{k}" for k in range(n)]
    edits, position = [], draw(st.integers(0, 2))
    while position <= n:
        kind = draw(st.sampled_from(["sub", "del", "ins"] if position < n else ["ins"]))
        fresh = f"x{position}"
        if kind == "ins":
            edits.append(Edit(position, position, fresh, "M:OTHER"))
        else:
            edits.append(Edit(position, position + 1, fresh if kind == "sub" else "", f"{kind[0].upper()}:OTHER"))
        position += 4 + draw(st.integers(0, 3))
    return source, edits


def m2_dataset(sources, annotators) -> Dataset:
    """An M2-style dataset: ``annotators[k][i]`` is annotator k's edit list for sentence i."""
    references = [
        Reference(f"annotator{k}", [apply_edits(s, e) for s, e in zip(sources, edits)], edits)
        for k, edits in enumerate(annotators)
    ]
    dataset = Dataset(sources, references)
    dataset.reference_order = [list(range(len(annotators))) for _ in sources]
    return dataset


def system(name, tokens) -> Hypothesis:
    return Hypothesis(name, tokens, [[] for _ in tokens])


@given(st.lists(annotated_sentence(), min_size=1, max_size=5))
@settings(max_examples=60, deadline=None)
def test_perfect_output_scores_one(corpus):
    sources = [s for s, _ in corpus]
    edits = [e for _, e in corpus]
    dataset = m2_dataset(sources, [edits])
    metric = M2(ScoringOptions())
    scores = metric.score(metric.statistics(dataset, system("perfect", dataset.references[0].tokens)))
    assert (scores["tp"], scores["fp"], scores["fn"]) == (sum(map(len, edits)), 0, 0)
    assert scores["p"] == scores["r"] == scores["f"] == 1.0


@given(
    st.lists(
        st.tuples(st.lists(st.sampled_from(WORDS), max_size=10), st.lists(st.sampled_from(WORDS), max_size=10)),
        min_size=1,
        max_size=4,
    )
)
@settings(max_examples=60, deadline=None)
def test_source_copy_proposes_nothing(pairs):
    """Whatever the gold edits (here: the alignment of a random correction), an unchanged
    output has no edit on its lattice path."""
    sources = [s for s, _ in pairs]
    gold = [[Edit(0, len(s), " ".join(t), "R:OTHER")] if s != t else [] for s, t in pairs]
    metric = M2(ScoringOptions())
    scores = metric.score(metric.statistics(m2_dataset(sources, [gold]), system("copy", sources)))
    assert (scores["tp"], scores["fp"]) == (0, 0)
    assert scores["fn"] == sum(map(len, gold))


def random_outputs(seed, sources):
    rng = np.random.default_rng(seed)
    return [[w for w in s if rng.random() > 0.2] + list(rng.choice(WORDS, size=rng.integers(0, 2))) for s in sources]


@given(st.integers(0, 10_000), st.permutations(range(3)))
@settings(max_examples=20, deadline=None)
def test_permuting_systems_changes_nothing(seed, order):
    sources = [["the", "cat", "sat", "on", "the", "mat", "."], ["a", "cat", "and", "a", "mat"]]
    gold = [[Edit(4, 5, "a", "ArtOrDet")], [Edit(3, 4, "the", "ArtOrDet"), Edit(5, 5, ".", "Mec")]]
    dataset = m2_dataset(sources, [gold, [[], []]])
    metric = M2(ScoringOptions())
    systems = {f"s{k}": system(f"s{k}", random_outputs(seed + k, sources)) for k in range(3)}
    alone = {name: metric.score(metric.statistics(dataset, h)) for name, h in systems.items()}
    names = [f"s{k}" for k in order]
    pooled = scores_from_statistics(
        {name: {"m2": metric.statistics(dataset, systems[name])} for name in names}, [metric]
    )
    assert {name: pooled[name]["m2"] for name in names} == alone


@given(st.integers(0, 10_000), st.lists(st.integers(0, 3), min_size=1, max_size=8))
@settings(max_examples=30, deadline=None)
def test_statistics_resampling_and_direct_agree(seed, indices):
    sources = [
        ["the", "cat", "sat", "on", "the", "mat", "."],
        ["a", "cat", "and", "a", "mat"],
        ["on", "a", "mat"],
        ["the", "."],
    ]
    gold = [[Edit(4, 5, "a", "ArtOrDet")], [Edit(3, 4, "the", "ArtOrDet")], [], [Edit(1, 1, "cat", "Nn")]]
    metric = M2(ScoringOptions())
    dataset = m2_dataset(sources, [gold, [[], [], [], []]])
    stats = metric.statistics(dataset, system("s", random_outputs(seed, sources)))
    direct = metric.score(stats)
    assert metric.score(json.loads(json.dumps(stats))) == direct
    whole = {f"m2.{k}": direct[k] for k in "prf"} | {f"m2.sentence.{k}": direct["sentence"][k] for k in "prf"}
    assert metric.resample(stats, range(len(sources))) == pytest.approx(whole, abs=1e-12)
    rows = metric.resampling(stats).counts[indices].sum(axis=0)
    sample = metric.resample(stats, indices)
    assert [sample[f"m2.{k}"] for k in "prf"] == pytest.approx(prf(*rows[:3], 0.5), abs=1e-12)
    assert [sample[f"m2.sentence.{k}"] for k in "prf"] == pytest.approx(list(rows[3:6] / len(indices)), abs=1e-12)
