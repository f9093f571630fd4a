"""Invariants of a campaign's plan and of the controls' sign test, for any settings
(hypothesis): every annotator gets exactly their screens, a regular screen is judged by
distinct annotators (at most ``redundancy``), a repeat comes after its first showing, a
screen shows distinct outputs of one sentence, and the same seed gives the same plan."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from leaderboard.insights.campaign_judgments import sign_test
from leaderboard.services.campaigns.controls import degraded
from leaderboard.services.campaigns.sampling import differing_lines, plan_campaign, shares


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


def check_queues(plan, spec: dict) -> None:
    """Each annotator's queue: within its length, its share of controls, a repeat only after its original."""
    _, controls, _ = shares(spec["screens_per_annotator"], spec["control_share"], spec["repeats"])
    for queue in plan.queues.values():
        assert len(queue) <= spec["screens_per_annotator"]
        assert sum(plan.screens[s].control for s, _ in queue) == controls
        for position, (screen, repeat) in enumerate(queue):
            if repeat:
                assert any(s == screen and not r for s, r in queue[:position])


@settings(max_examples=150, deadline=None)
@given(campaigns())
def test_plans_keep_their_promises(case):
    outputs, annotators, spec = case
    lines = differing_lines(outputs)
    if not lines:
        return
    plan = plan_campaign(lines, annotators, **spec)
    check_queues(plan, spec)
    judged_by: dict[int, list[int]] = {}
    for annotator, queue in plan.queues.items():
        for screen, repeat in queue:
            if not repeat:
                judged_by.setdefault(screen, []).append(annotator)
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


@given(st.lists(st.sampled_from(["he", "go", "to", "school", "."]), min_size=1, max_size=8), st.integers(0, 50))
def test_a_control_differs_from_its_original_and_the_others(tokens, seed):
    made = degraded(tokens, tokens, [], random.Random(seed), {tuple(tokens)})
    assert made is None or (made != tuple(tokens) and abs(len(made) - len(tokens)) == 1)
