"""TrueSkill through the ``trueskill`` package: the closed-form two-player update equals
the package's ``rate_1vs1``, and a seed fixes the match order."""

from __future__ import annotations

import random

import pytest
import trueskill

from scoring.human.comparisons import expand
from scoring.human.trueskill_rating import environment, play, trueskill_scores
from tests.scoring.test_human_agreement import item


@pytest.mark.parametrize("matches", [1, 40, 5000, 100_000])
def test_play_equals_rate_1vs1(matches):
    env, generator = environment(matches), random.Random(matches)
    for _ in range(500):
        a = (generator.gauss(0, 1), generator.uniform(0.01, 0.6))
        b = (generator.gauss(0, 1), generator.uniform(0.01, 0.6))
        drawn = generator.random() < 0.3
        try:
            expected = trueskill.rate_1vs1(env.create_rating(*a), env.create_rating(*b), drawn=drawn, env=env)
        except FloatingPointError:  # too lopsided for floats: ours goes to mpmath (below)
            continue
        for ours, theirs in zip(play(env, a, b, drawn), expected):
            assert ours == pytest.approx((theirs.mu, theirs.sigma), rel=1e-9, abs=1e-12)


def test_wmt_environment():
    env = environment(800)
    assert (env.mu, env.sigma, env.tau, env.draw_probability, env.beta) == (0.0, 0.5, 0.0, 0.25, 0.5 * 800 / 40)


def test_seeded_match_order():
    items = [
        item("a", ("X", 1), ("Y", 2), ("Z", 3)),
        item("b", ("X", 2), ("Y", 1), ("Z", 1)),
        item("a", ("X Z", 1), ("Y", 2)),
    ] * 5
    comparisons = expand(items)
    first = trueskill_scores(comparisons, 3)
    assert all((first[k] == trueskill_scores(comparisons, 3)[k]).all() for k in range(2))
    assert first[0][0] > first[0][1]  # X beat Y 10 times of 15


def test_a_match_too_lopsided_for_floats_is_played_in_mpmath():
    env = environment(1)  # beta 0.0125
    with pytest.raises(FloatingPointError):
        trueskill.rate_1vs1(env.create_rating(-2, 0.05), env.create_rating(2, 0.05), env=env)
    (mu_w, sigma_w), (mu_l, sigma_l) = play(env, (-2, 0.05), (2, 0.05), False)
    assert mu_w > -2 and mu_l < 2 and 0 < sigma_w < 0.05 and 0 < sigma_l < 0.05
