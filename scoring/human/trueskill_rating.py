"""TrueSkill (Herbrich et al., 2006) as WMT14-16 (Sakaguchi et al., 2014, ``wmt-trueskill``)
and Grundkiewicz et al. (EMNLP 2015) ran it to rank systems.

Every expanded pairwise comparison is one two-player match (a tie is a draw), played
once, in an order shuffled by a seeded generator. The environment is WMT's:
mu = 0, sigma = 0.5, tau = 0, draw probability 0.25 and beta = sigma * matches / 40
(``infer_TS.py``: beta grows with the number of matches, so that the order of the
matches matters less). A system's score is its final mu.

Matches go through the ``trueskill`` package's two-player update (``rate_1vs1``), with
the factor-graph machinery skipped: :func:`play` applies the same closed-form update with
the package's own v/w functions (a test holds it equal to ``rate_1vs1``), which makes
100,000 matches take about a second instead of twenty (8 against 183 µs a match).
"""

from __future__ import annotations

import math

import numpy as np
import trueskill

from .comparisons import TIE, WIN, Comparisons

MU, SIGMA, TAU, DRAW_PROBABILITY, BETA_DIVISOR = 0.0, 0.5, 0.0, 0.25, 40.0
VERSION = trueskill.__version__


def environment(matches: int) -> trueskill.TrueSkill:
    """WMT's environment for ``matches`` matches."""
    return trueskill.TrueSkill(
        mu=MU, sigma=SIGMA, beta=SIGMA * max(matches, 1) / BETA_DIVISOR, tau=TAU, draw_probability=DRAW_PROBABILITY
    )


def match_order(comparisons: Comparisons, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).permutation(len(comparisons))


def precise(env: trueskill.TrueSkill) -> trueskill.TrueSkill:
    """The same environment computing with mpmath, for matches too lopsided for floats."""
    return trueskill.TrueSkill(
        mu=env.mu, sigma=env.sigma, beta=env.beta, tau=env.tau, draw_probability=env.draw_probability, backend="mpmath"
    )


def play(
    env: trueskill.TrueSkill, winner: tuple[float, float], loser: tuple[float, float], drawn: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    """One two-player match: new (mu, sigma) of the winner and the loser (either, when drawn).

    Where floats cannot compute the update (the package raises FloatingPointError; a
    very lopsided match with a tiny beta), the package's own ``rate_1vs1`` does it in
    mpmath, as its message advises, so no file of rankings makes this fail.
    """
    try:
        return _closed_form(env, winner, loser, drawn)
    except FloatingPointError:
        slow = precise(env)
        new_w, new_l = trueskill.rate_1vs1(
            slow.create_rating(*winner), slow.create_rating(*loser), drawn=drawn, env=slow
        )
        return (float(new_w.mu), float(new_w.sigma)), (float(new_l.mu), float(new_l.sigma))


def _closed_form(
    env: trueskill.TrueSkill, winner: tuple[float, float], loser: tuple[float, float], drawn: bool
) -> tuple[tuple[float, float], tuple[float, float]]:
    (mu_w, sigma_w), (mu_l, sigma_l) = winner, loser
    sigma_w2, sigma_l2 = sigma_w**2 + env.tau**2, sigma_l**2 + env.tau**2
    c = math.sqrt(sigma_w2 + sigma_l2 + 2 * env.beta**2)
    margin = trueskill.calc_draw_margin(env.draw_probability, 2, env) / c
    t = (mu_w - mu_l) / c
    if drawn:
        v, w = trueskill.TrueSkill.v_draw(env, t, margin), trueskill.TrueSkill.w_draw(env, t, margin)
    else:
        v, w = trueskill.TrueSkill.v_win(env, t, margin), trueskill.TrueSkill.w_win(env, t, margin)
    new_w = (mu_w + sigma_w2 / c * v, math.sqrt(sigma_w2 * (1 - sigma_w2 / c**2 * w)))
    new_l = (mu_l - sigma_l2 / c * v, math.sqrt(sigma_l2 * (1 - sigma_l2 / c**2 * w)))
    return new_w, new_l


def trueskill_scores(comparisons: Comparisons, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(mu, sigma) of every system after playing every comparison once in seeded order."""
    env = environment(len(comparisons))
    ratings = [(env.mu, env.sigma)] * len(comparisons.systems)
    first, second, outcome = comparisons.first.tolist(), comparisons.second.tolist(), comparisons.outcome.tolist()
    for k in match_order(comparisons, seed).tolist():
        a, b, result = first[k], second[k], outcome[k]
        winner, loser = (a, b) if result == WIN else (b, a)
        ratings[winner], ratings[loser] = play(env, ratings[winner], ratings[loser], result == TIE)
    mu, sigma = zip(*ratings) if ratings else ((), ())
    return np.array(mu, dtype=float), np.array(sigma, dtype=float)
