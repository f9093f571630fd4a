"""M2 and GLEU give identical results with any number of workers.

Each worker of the platform prepares the dataset itself (M2's gold sets, GLEU's n-gram
index and its per-process cache of reference draws) and scores whichever submissions the
queue hands it, in that order. Splitting the systems among any number of workers, each
starting fresh and scoring its share in any order, must give exactly what one worker
scoring them all in turn gives: the same statistics and the same scores, to the bit.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Dataset, Hypothesis, Reference, ScoringOptions, scores_from_statistics
from scoring.errant.edits import Edit, apply_edits
from scoring.metrics.gleu import Gleu
from scoring.metrics.m2 import M2

WORDS = ["the", "cat", "sat", "on", "a", "mat", ".", "and", "dog", "is"]


def corpus(seed: int, sentences: int, annotators: int, systems: int):
    """(sources, per annotator its edit lists, {system: token lists}) from ``seed``."""
    rng = np.random.default_rng(seed)
    sources = [list(rng.choice(WORDS, size=rng.integers(1, 12))) for _ in range(sentences)]
    gold = []
    for _ in range(annotators):
        edits = []
        for source in sources:
            position, sentence = int(rng.integers(0, 3)), []
            while position <= len(source):
                end = position + int(rng.integers(0, 2)) if position < len(source) else position
                deletion = end > position and rng.random() < 0.2
                sentence.append(Edit(position, end, "" if deletion else str(rng.choice(WORDS)), "OTHER"))
                position = end + int(rng.integers(2, 6))
            edits.append(sentence)
        gold.append(edits)
    outputs = {}
    for k in range(systems):
        outputs[f"s{k}"] = [
            [w for w in s if rng.random() > 0.2] + list(rng.choice(WORDS, size=rng.integers(0, 2))) for s in sources
        ]
    outputs["copy"] = [list(s) for s in sources]
    outputs["annotator0"] = [apply_edits(s, e) for s, e in zip(sources, gold[0])]
    return sources, gold, outputs


def dataset_of(sources, gold) -> Dataset:
    references = [
        Reference(f"a{k}", [apply_edits(s, e) for s, e in zip(sources, edits)], edits) for k, edits in enumerate(gold)
    ]
    dataset = Dataset(sources, references)
    dataset.reference_order = [list(range(len(gold))) for _ in sources]
    return dataset


def metrics():
    options = ScoringOptions()
    return [M2(options), Gleu(options)]


def worker(sources, gold, share: dict[str, list[list[str]]]) -> dict[str, dict]:
    """One fresh worker: its own dataset and metrics, its share scored in the order given."""
    dataset, scorers = dataset_of(sources, gold), metrics()
    return {
        name: {m.name: m.statistics(dataset, Hypothesis(name, tokens, [[] for _ in tokens])) for m in scorers}
        for name, tokens in share.items()
    }


def results(statistics: dict[str, dict]) -> dict:
    return scores_from_statistics(dict(sorted(statistics.items())), metrics())


@given(st.integers(0, 10_000), st.integers(1, 4), st.data())
@settings(max_examples=25, deadline=None)
def test_any_split_of_the_systems_among_fresh_workers_gives_the_same_results(seed, workers, data):
    sources, gold, outputs = corpus(
        seed, sentences=data.draw(st.integers(1, 8)), annotators=data.draw(st.integers(1, 3)), systems=3
    )
    one = worker(sources, gold, outputs)
    names = data.draw(st.permutations(sorted(outputs)))
    assignment = [data.draw(st.integers(0, workers - 1)) for _ in names]
    split = {}
    for w in range(workers):
        split.update(worker(sources, gold, {name: outputs[name] for name, a in zip(names, assignment) if a == w}))
    assert split == one
    assert results(split) == results(one)


def test_real_processes_give_what_one_process_gives():
    """Fresh interpreters (spawned, nothing inherited): 1, 2 and 3 worker processes."""
    sources, gold, outputs = corpus(7, sentences=40, annotators=3, systems=5)
    expected = results(worker(sources, gold, outputs))
    names = sorted(outputs)
    context = multiprocessing.get_context("spawn")
    for workers in (1, 2, 3):
        shares = [{name: outputs[name] for name in names[w::workers]} for w in range(workers)]
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            statistics = {}
            for part in pool.map(worker, [sources] * workers, [gold] * workers, shares):
                statistics.update(part)
        assert results(statistics) == expected, workers
