"""Leaderboard tie groups: paired bootstrap against the system ranked above (leaderboard.insights.ties)."""

import pytest

from leaderboard.insights.ties import can_bootstrap, tie_groups
from scoring import REGISTRY, ScoringOptions

OPTIONS = ScoringOptions(beta=0.5)


def errant_statistics(per_sentence):
    """ERRANT statistics with one reference: ``per_sentence`` = [(tp, fp, fn), ...] in every mode."""
    counts = [[[tp, fp, fn, {}]] for tp, fp, fn in per_sentence]
    return {"refs": [[0]] * len(per_sentence), "counts": {mode: counts for mode in ("cs", "ds", "dt", "cse")}}


def rows(*ids):
    return [{"submission_id": sid, "value": 1.0 - k / 10} for k, sid in enumerate(ids)]


def test_paths_the_registry_declares_resampled_are_bootstrapped():
    assert can_bootstrap("errant.cs.f") and can_bootstrap("errant.dt.p") and can_bootstrap("errant.ds.r")
    assert (
        can_bootstrap("gleu.score")
        and can_bootstrap("usim.f")
        and can_bootstrap("cleme2.dependent.corpus.score")
        and can_bootstrap("cleme.independent.corpus.f")
    )
    assert can_bootstrap("gotoscorer.f") and can_bootstrap("gotoscorer.unweighted.accuracy")
    assert (
        not can_bootstrap("errant.cs.tp") and can_bootstrap("errant.sentence.f") and not can_bootstrap("gotoscorer.tp")
    )
    assert not can_bootstrap("cleme.dependent.sentence.f") and not can_bootstrap("nope.f")


def test_identical_systems_share_a_group():
    stats = errant_statistics([(2, 1, 1), (0, 1, 2), (3, 0, 0)] * 40)
    groups = tie_groups(rows(1, 2), {1: stats, 2: stats}, "errant.cs.f", OPTIONS)
    assert groups[1]["group"] == groups[2]["group"] == 1
    assert groups[2]["p_value"] == pytest.approx(1.0) and groups[2]["delta"] == 0


def test_a_much_worse_system_starts_a_new_group():
    good = errant_statistics([(3, 0, 0)] * 100)
    bad = errant_statistics([(0, 3, 3)] * 50 + [(1, 2, 2)] * 50)
    close = errant_statistics([(0, 3, 3)] * 49 + [(1, 2, 2)] * 51)
    groups = tie_groups(rows(1, 2, 3), {1: good, 2: bad, 3: close}, "errant.cs.f", OPTIONS)
    assert [groups[s]["group"] for s in (1, 2, 3)] == [1, 2, 2]
    assert groups[2]["p_value"] < 0.05 <= groups[3]["p_value"]


def test_rows_without_value_or_statistics_get_no_group():
    stats = errant_statistics([(1, 1, 1)] * 10)
    board = rows(1, 2) + [{"submission_id": 3, "value": None}]
    assert set(tie_groups(board, {1: stats}, "errant.cs.f", OPTIONS)) == {1}


def test_the_same_seed_gives_the_same_p_values():
    a = errant_statistics([(2, 1, 0), (1, 1, 1), (0, 0, 2)] * 30)
    b = errant_statistics([(1, 1, 1), (2, 0, 1), (0, 1, 2)] * 30)
    first = tie_groups(rows(1, 2), {1: a, 2: b}, "errant.cs.f", OPTIONS)
    assert first == tie_groups(rows(1, 2), {1: a, 2: b}, "errant.cs.f", OPTIONS)


def test_gleu_rankings_get_tie_groups_from_stored_statistics():
    """Any path the registry resamples works: GLEU's stored n-gram rows, two references."""

    def gleu_statistics(numerators):
        return {"hyp_len": [6] * len(numerators), "refs": [[[6, *row], [6, *row]] for row in numerators]}

    same = gleu_statistics([[6, 5, 4, 3]] * 60)
    worse = gleu_statistics([[3, 1, 1, 1]] * 60)
    groups = tie_groups(rows(1, 2, 3), {1: same, 2: same, 3: worse}, "gleu.score", OPTIONS, samples=200)
    assert [groups[s]["group"] for s in (1, 2, 3)] == [1, 1, 2]


def gotoscorer_statistics(correct_per_sentence):
    """One gold edit per sentence, which a system fixes ("1") or leaves ("0")."""
    return {
        "ref": 0,
        "gold": ["1"] * len(correct_per_sentence),
        "modified": list(correct_per_sentence),
        "correct": list(correct_per_sentence),
    }


def test_gotoscorer_rankings_get_tie_groups_inside_the_pool():
    """The pool's n_i and N weigh every sample; without the pool there is no group."""
    good = gotoscorer_statistics("1" * 80 + "0" * 20)
    twin = gotoscorer_statistics("0" + "1" * 80 + "0" * 19)
    poor = gotoscorer_statistics("1" * 10 + "0" * 90)
    members = {1: good, 2: twin, 3: poor}
    pool = REGISTRY["gotoscorer"](OPTIONS).pool_counts(list(members.values()))
    groups = tie_groups(rows(1, 2, 3), members, "gotoscorer.f", OPTIONS, pool=pool, samples=200)
    assert [groups[s]["group"] for s in (1, 2, 3)] == [1, 1, 2]
    assert tie_groups(rows(1, 2, 3), members, "gotoscorer.f", OPTIONS) == {}
