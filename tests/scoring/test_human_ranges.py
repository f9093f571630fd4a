"""Rank ranges and clusters: the trimming arithmetic, the cluster rule, and a bootstrap
whose figures do not depend on how many samples are held at once."""

from __future__ import annotations

import numpy as np

from scoring.human.comparisons import expand
from scoring.human.rank_ranges import bootstrap_ranks, clusters, rank_ranges, ranks_of
from tests.scoring.test_human_agreement import item


def test_ranks_share_the_best_rank_on_ties():
    assert ranks_of(np.array([0.5, 0.9, 0.5, 0.1])).tolist() == [[2, 1, 2, 4]]


def test_the_middle_95_percent_of_1000_samples_drops_25_at_each_end():
    ranks = np.tile(np.arange(1, 1001)[:, None], (1, 2))  # ranks 1..1000 for two systems
    assert rank_ranges(ranks) == [(26, 975), (26, 975)]


def test_a_cluster_starts_where_a_best_rank_lies_past_every_worst_above():
    assert clusters([0, 1, 2, 3], [(1, 2), (1, 2), (3, 3), (3, 4)]) == [[0, 1], [2, 3]]
    assert clusters([0, 1, 2], [(1, 1), (2, 3), (2, 3)]) == [[0], [1, 2]]
    # a system further down whose range reaches up joins everything above it into one cluster
    assert clusters([0, 1, 2], [(1, 1), (2, 2), (1, 3)]) == [[0, 1, 2]]


def test_batches_of_samples_give_the_same_ranks(monkeypatch):
    items = [
        item("a", ("X", 1), ("Y", 2), ("Z", 3)),
        item("b", ("X", 2), ("Y", 1), ("Z", 1)),
        item("a", ("X Z", 1), ("Y", 2)),
    ] * 4
    comparisons = expand(items)
    whole = bootstrap_ranks(comparisons, 200, 9)
    monkeypatch.setattr("scoring.human.rank_ranges.BATCH_CELLS", 9)  # one sample at a time
    assert (bootstrap_ranks(comparisons, 200, 9) == whole).all() and whole.shape == (200, 3)
