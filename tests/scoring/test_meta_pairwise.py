"""Sentence-level pairwise accuracy and Kendall's tau equal a plain reading of SEEDA's definition.

The reference below walks the ranking items one pair at a time, as SEEDA's
``corr_sentence.py`` describes it: human ties are skipped; the metric prefers the
alphabetically first system only when its score is strictly higher.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from scoring.meta import SEEDA_SYSTEM_SETS, read_judgments, resolve_set
from scoring.meta.pairwise import accuracy_and_tau, agreement_by_sentence, human_pairs
from tests.conftest import SEEDA_SYSTEMS
from tests.support.meta_support import JUDGMENTS, LINE_IDS


def straightforward(items, systems, line_of, score):
    agree = disagree = 0
    for item in items:
        ranks = {name: rank for name, rank in item.ranks if name in systems}
        for a, b in combinations(sorted(ranks), 2):
            if ranks[a] == ranks[b]:
                continue
            human_prefers_a = ranks[a] < ranks[b]
            metric_prefers_a = score(line_of[item.src_id], a) > score(line_of[item.src_id], b)
            if human_prefers_a == metric_prefers_a:
                agree += 1
            else:
                disagree += 1
    return agree / (agree + disagree), (agree - disagree) / (agree + disagree), agree + disagree


def test_seeda_judgments_with_tied_metric_scores():
    ids = [int(x) for x in LINE_IDS.read_text().split()]
    line_of = {src + 1: i for i, src in enumerate(ids)}
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 3, size=(len(ids), len(SEEDA_SYSTEMS))).astype(float)  # many ties
    for name, path in JUDGMENTS.items():
        items = read_judgments(path)
        for set_name, spec in SEEDA_SYSTEM_SETS.items():
            members = resolve_set(spec, SEEDA_SYSTEMS)
            columns = [SEEDA_SYSTEMS.index(m) for m in members]
            agree, total = agreement_by_sentence(human_pairs(items, members, line_of), scores[:, columns], len(ids))
            accuracy, tau = accuracy_and_tau(agree.sum(), total.sum())
            expected = straightforward(
                items, set(members), line_of, lambda line, system: scores[line, SEEDA_SYSTEMS.index(system)]
            )
            assert (accuracy, tau, total.sum()) == expected, (name, set_name)


def test_a_metric_tie_counts_against_the_first_system():
    from scoring.meta import RankingItem

    items = [RankingItem(1, "a", (("A", 2), ("B", 1), ("C", 1)), 1)]
    pairs = human_pairs(items, ["A", "B", "C"], {1: 0})
    agree, total = agreement_by_sentence(pairs, np.array([[0.5, 0.5, 0.5]]), 1)
    assert (agree[0], total[0]) == (2.0, 2.0)  # A-B and A-C: humans prefer B and C; ties say "second"
    agree, _ = agreement_by_sentence(
        human_pairs([RankingItem(1, "a", (("A", 1), ("B", 2)), 1)], ["A", "B"], {1: 0}), np.array([[0.5, 0.5]]), 1
    )
    assert agree[0] == 0.0
