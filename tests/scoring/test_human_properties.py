"""Invariants of the human ranking (scoring.human): what no reordering, copy or file
round trip may change."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.human import RankingItem, rank_systems, read_judgments, write_judgments_xml
from scoring.human.agreement import EMNLP2015, WMT13, agreement, unexpanded_judgments
from tests.scoring.human_support import rankings

SAMPLES = 50


def order_free(ranking) -> dict:
    """Everything but TrueSkill, whose match order follows the order of the rankings."""
    figures = ranking.as_json()
    for entry in figures["systems"].values():
        entry.pop("trueskill")
    return figures


@settings(max_examples=60, deadline=None)
@given(rankings(), st.randoms(use_true_random=False))
def test_permuting_rankings_and_systems_changes_nothing_but_trueskill(items, random):
    shuffled = []
    for item in items:
        ranks, outputs = list(item.ranks), list(item.outputs)
        random.shuffle(ranks)
        random.shuffle(outputs)
        shuffled.append(replace(item, ranks=tuple(ranks), outputs=tuple(outputs)))
    random.shuffle(shuffled)
    assert order_free(rank_systems(shuffled, bootstrap=SAMPLES, seed=4, min_shared=1)) == order_free(
        rank_systems(items, bootstrap=SAMPLES, seed=4, min_shared=1)
    )


@settings(max_examples=60, deadline=None)
@given(rankings())
def test_a_system_that_always_wins_has_expected_wins_1(items):
    winning = [
        replace(item, ranks=(("W", 1),) + tuple((s, r + 1) for s, r in item.ranks), outputs=(("W",),) + item.outputs)
        for item in items
    ]
    ranking = rank_systems(winning, bootstrap=SAMPLES, seed=1)
    assert ranking.as_json()["systems"]["W"]["expected_wins"] == 1.0
    assert ranking.systems[0].name == "W" and ranking.clusters()[0][0] == "W"


@settings(max_examples=60, deadline=None)
@given(rankings())
def test_xml_written_reads_back_to_the_same_items_and_figures(items):
    back = read_judgments(write_judgments_xml(items))
    assert [replace(item, line=0) for item in back] == items and [item.outputs for item in back] == [
        item.outputs for item in items
    ]
    assert (
        rank_systems(back, bootstrap=SAMPLES, seed=2, min_shared=1).as_json()
        == rank_systems(items, bootstrap=SAMPLES, seed=2, min_shared=1).as_json()
    )


@settings(max_examples=60, deadline=None)
@given(rankings(min_size=1, max_size=25))
def test_an_annotator_agrees_fully_with_identical_copies(items):
    one = [
        replace(item, user="a", src_id=number) for number, item in enumerate(items, start=1)
    ]  # each screen judged once
    decided = any(len({rank for _, rank in item.ranks}) > 1 for item in one)
    labels = {
        label for by_user in unexpanded_judgments(one).values() for values in by_user.values() for label in values
    }
    for variant, judged in ((WMT13, decided), (EMNLP2015, len(labels) > 1)):
        copied = agreement(one + [replace(item, user="b") for item in one], min_shared=1, variant=variant)
        repeated = agreement(one + one, min_shared=1, variant=variant)
        expected = 1.0 if judged else None  # chance agreement 1 (WMT13: only ties; own: one label): no kappa
        assert copied["inter"] == pytest.approx(expected) and repeated["intra"] == pytest.approx(expected)
        assert copied["intra"] is None and repeated["inter"] is None


@settings(max_examples=40, deadline=None)
@given(rankings(min_size=2), st.integers(0, 2**32 - 1))
def test_the_same_seed_gives_the_same_figures(items, seed):
    assert (
        rank_systems(items, bootstrap=SAMPLES, seed=seed).as_json()
        == rank_systems(items, bootstrap=SAMPLES, seed=seed).as_json()
    )


XML_TEXT = st.text(
    st.characters(
        blacklist_categories=("Cs",),
        blacklist_characters="\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\ufffe\uffff",
    ),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(rankings(max_size=5), XML_TEXT)
def test_any_user_name_xml_can_carry_reads_back(items, user):
    named = [replace(item, user=user) for item in items]
    assert [item.user for item in read_judgments(write_judgments_xml(named))] == [user] * len(items)


def test_what_cannot_be_read_back_is_refused():
    item = RankingItem(1, "a", (("A", 1), ("B", 2)), 0, (("A",), ("B",)))
    for bad in (
        replace(item, user="a\x01"),
        replace(item, ranks=(("A B", 1),), outputs=()),
        replace(item, outputs=(("A", "B"),)),
        replace(item, outputs=(("A",),)),
        replace(item, ranks=(("A", 0), ("B", 2))),
    ):
        with pytest.raises(ValueError):
            write_judgments_xml([bad])
