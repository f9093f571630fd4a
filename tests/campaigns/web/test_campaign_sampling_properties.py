"""Invariants of a campaign's plan and of the controls' sign test, for any settings
(hypothesis): every annotator gets exactly their screens, a regular screen is judged by
distinct annotators (at most ``redundancy``), a repeat comes after its first showing, a
screen shows distinct outputs of one sentence, and the same seed gives the same plan."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.campaigns.insights.judgments import sign_test
from leaderboard.campaigns.services.sampling import differing_lines, plan_campaign, shares


@st.composite
def campaigns(draw):
    n_systems = draw(st.integers(2, 6))
    n_lines = draw(st.integers(1, 12))
    vocabulary = ["a", "b", "c"]
    outputs = {
        pk: [[draw(st.sampled_from(vocabulary)) for _ in range(2)] for _ in range(n_lines)]
        for pk in range(1, n_systems + 1)
    }
    annotators = list(range(100, 100 + draw(st.integers(1, 5))))
    spec = {
        "screens_per_annotator": draw(st.integers(1, 15)),
        "outputs": draw(st.integers(2, 5)),
        "redundancy": draw(st.integers(1, 4)),
        "repeats": draw(st.integers(0, 4)),
        "control_share": draw(st.sampled_from([0.0, 0.1, 0.25, 0.5])),
        "seed": draw(st.integers(0, 5)),
    }
    return outputs, annotators, spec


def repeats_keep_their_promises(plan, queue):
    """A repeat's first showing is in the first half, itself in the second, its outputs reshuffled."""
    half = (len(queue) + 1) // 2
    for position, (screen, repeat) in enumerate(queue):
        if repeat:
            first = plan.screens[screen].repeat_of
            assert any(s == first and not r and p < half for p, (s, r) in enumerate(queue[:position]))
            assert position >= half and sorted(plan.screens[screen].groups) == sorted(plan.screens[first].groups)
            groups = plan.screens[first].groups
            assert len(groups) == 1 or plan.screens[screen].groups != groups


@settings(max_examples=150, deadline=None)
@given(campaigns())
def test_plans_keep_their_promises(case):
    outputs, annotators, spec = case
    lines = differing_lines(outputs)
    if not lines:
        return
    plan = plan_campaign(lines, annotators, **spec)
    regular, controls, repeated = shares(spec["screens_per_annotator"], spec["control_share"], spec["repeats"])
    for queue in plan.queues.values():
        assert len(queue) <= spec["screens_per_annotator"]
        assert sum(plan.screens[s].control for s, _ in queue) == controls
        repeats_keep_their_promises(plan, queue)
    judged_by: dict[int, list[int]] = {}
    for annotator, queue in plan.queues.items():
        for screen, repeat in queue:
            if not repeat:
                judged_by.setdefault(screen, []).append(annotator)
    for screen in judged_by:
        assert plan.screens[screen].repeat_of is None
    for who in judged_by.values():
        assert len(who) == len(set(who)) <= max(1, min(spec["redundancy"], len(annotators)))
    for screen in plan.screens:
        texts = [tokens for tokens, _ in screen.groups]
        assert len(texts) == len(set(texts)) and 1 <= len(texts) <= spec["outputs"] - screen.control
        for tokens, systems in screen.groups:
            assert all(tuple(outputs[pk][screen.line]) == tokens for pk in systems)
    assert plan_campaign(lines, annotators, **spec) == plan


@given(st.integers(0, 30), st.integers(0, 30))
def test_sign_test_is_a_probability_falling_with_more_careful_answers(below, above):
    p = sign_test(below, above)
    assert 0 < p <= 1
    assert sign_test(below + 1, above) <= p


def test_five_careful_controls_in_five_are_trusted_at_five_percent():
    assert sign_test(5, 0) == 1 / 32 and sign_test(4, 0) == 1 / 16 and sign_test(0, 0) == 1.0


def test_the_form_says_how_many_repeats_reach_a_kappa():
    from leaderboard.campaigns.services.sampling import KAPPA_MIN_SHARED, repeats_for_kappa, repeats_help
    from scoring.human import MIN_SHARED

    assert KAPPA_MIN_SHARED == MIN_SHARED == 50
    assert [repeats_for_kappa(k) for k in (2, 3, 4, 5, 10)] == [50, 17, 9, 5, 2]  # k(k-1)/2 pairs a repeat
    assert "5 with 5, 9 with 4, 17 with 3, 50 with 2 outputs per screen" in repeats_help()


def test_three_repeats_of_five_outputs_give_no_intra_kappa_and_five_do():
    from scoring.human import RankingItem
    from scoring.human.agreement import agreement

    def screens(count):
        items = []
        for line in range(1, count + 1):
            first = tuple((s, r) for s, r in zip("ABCDE", (1, 2, 3, 4, 5)))
            again = tuple((s, r) for s, r in zip("ABCDE", (1, 2, 3, 5, 4)))  # one pair judged otherwise
            items += [RankingItem(line, "a", first, 0), RankingItem(line, "a", again, 0)]
        return items

    assert agreement(screens(3))["intra"] is None  # 30 pairs
    assert agreement(screens(5))["intra"] is not None  # 50 pairs
