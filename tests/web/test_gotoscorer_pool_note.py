"""What the board and the API say when GoToScorer's pool is too small for its difficulty
weights to mean anything, and what N is."""

from leaderboard.standings import SMALL_POOL, gotoscorer_pool


def test_a_lone_system_is_told_why_its_score_is_zero():
    pool = gotoscorer_pool(["errant", "gotoscorer"], 1)
    assert pool["small"] and pool["size"] == 1
    assert "N = 1 system" in pool["note"] and "weighs 0" in pool["note"]


def test_two_systems_get_the_possible_weights():
    pool = gotoscorer_pool(["gotoscorer"], 2)
    assert pool["small"] and "N = 2 systems" in pool["note"] and "1, 0.5, 0" in pool["note"]


def test_a_pool_of_three_needs_no_note():
    assert gotoscorer_pool(["gotoscorer"], SMALL_POOL) == {"size": SMALL_POOL, "small": False, "note": ""}


def test_no_gotoscorer_no_pool():
    assert gotoscorer_pool(["errant"], 1) is None
