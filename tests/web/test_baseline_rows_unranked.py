"""Organizers' baselines are in the pool and on the board as flagged rows, never ranked
among the teams (``rank`` None; the teams are ranked 1.. among themselves)."""

import pytest

from leaderboard.standings import ranked
from tests.conftest import build_insight_task, remove_insight_task


def row(name, value, baseline=False):
    return {"system_name": name, "value": value, "baseline": baseline}


def test_ranks_skip_baselines():
    rows = ranked([row("a", 0.9), row("INPUT", 0.8, baseline=True), row("b", 0.7), row("c", 0.7)])
    assert [r["rank"] for r in rows] == [1, None, 2, 2]


@pytest.fixture(scope="module")
def board(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        data = build_insight_task("unranked", lines=8, teams={"hal": "T5", "ivy": "BART"})
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


@pytest.mark.django_db
def test_the_board_and_the_api_flag_the_baseline(board, client):
    rows = client.get("/api/tasks/unranked/leaderboard/?metric=errant.cs.f").json()["rows"]
    baseline = [r for r in rows if r["baseline"]]
    assert [r["system_name"] for r in baseline] == ["INPUT"] and baseline[0]["rank"] is None
    assert sorted(r["rank"] for r in rows if not r["baseline"]) == [1, 2]
    html = client.get("/tasks/unranked/").content.decode()
    assert 'id="baseline-note"' in html and ">base</span>" in html
