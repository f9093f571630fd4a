"""Cohen's kappa on unexpanded judgments, figured by hand (WMT13's P(E) from the observed
distribution; Grundkiewicz et al.'s weighted mean over annotator pairs)."""

from __future__ import annotations

import pytest

from scoring.human import RankingItem
from scoring.human.agreement import agreement, unexpanded_judgments


def item(user, *outputs, src_id=1):
    """``outputs``: (systems, rank) with systems space-separated, as in a <translation>."""
    groups = tuple(tuple(systems.split()) for systems, _ in outputs)
    return RankingItem(
        src_id, user, tuple((s, rank) for (systems, rank) in outputs for s in systems.split()), 0, groups
    )


def test_kappa_of_two_annotators_by_hand():
    a = item("a", ("X", 1), ("Y", 2), ("Z", 3))
    b = item("b", ("X", 1), ("Y", 1), ("Z", 3))
    # judgments: a X>Y X>Z Y>Z, b X=Y X>Z Y>Z: P(A) = 2/3; ties 1/6 of the six,
    # P(E) = (1/6)^2 + 2 * (5/12)^2 = 0.375; kappa = (2/3 - 0.375) / 0.625
    assert agreement([a, b], min_shared=1)["inter"] == pytest.approx((2 / 3 - 0.375) / 0.625)
    assert agreement([a, b], min_shared=4)["inter"] is None  # they share 3 judgments


def test_identical_outputs_are_one_output_not_expanded():
    judged = unexpanded_judgments([item("a", ("X Y", 1), ("Z", 2))])
    assert list(judged) == [(1, ("X", "Y"), ("Z",))]  # one judgment, not X>Z and Y>Z


def test_intra_counts_pairs_of_one_annotators_screens_and_weights_by_shared():
    first, again, third = (item("a", ("X", 1), ("Y", 2)), item("a", ("X", 2), ("Y", 1)), item("a", ("X", 1), ("Y", 2)))
    # three screens of one pair: 3 pairs of screens, 1 agreeing; no ties, so (as WMT)
    # P(<) = P(>) = 0.5 whatever the split, P(E) = 0.5: kappa = (1/3 - 0.5) / 0.5
    assert agreement([first, again, third], min_shared=1)["intra"] == pytest.approx((1 / 3 - 0.5) / 0.5)
    # another annotator, two agreeing screens (1 pair, kappa 1): the mean weighted 3 to 1
    c = [item("c", ("X", 1), ("Y", 2), src_id=2), item("c", ("X", 1), ("Y", 2), src_id=2)]
    assert agreement([first, again, third, *c], min_shared=1)["intra"] == pytest.approx(
        (3 * (1 / 3 - 0.5) / 0.5 + 1) / 4
    )
    assert agreement([first, again, third, *c], min_shared=2)["intra"] == pytest.approx(
        (1 / 3 - 0.5) / 0.5
    )  # c left out
