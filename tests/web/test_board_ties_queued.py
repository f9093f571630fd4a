"""A board's significance groups come from the worker, never from a web request:
a render reads the stored groups; when they are not of the rows it shows, one request asks
a worker (at most once per GEC_TIE_GROUPS_EVERY a board), and earlier groups stay shown for
the rows that have not moved."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from leaderboard.insights import board as board_insights
from leaderboard.insights.board import stored_tie_groups, unmoved_groups
from leaderboard.models import BoardTies, Pool
from leaderboard.services.boards.ties import ask_for_tie_groups, refresh_tie_groups
from leaderboard.standings import board_rows

pytestmark = pytest.mark.django_db


def groups_on_page(client) -> list[str]:
    html = client.get("/tasks/insight/", {"metric": "errant.cs.f"}).content.decode()
    return re.findall(r'data-group="(\d+)"', html)


def test_the_worker_computes_once_and_every_render_after_reads(insight_task, client, monkeypatch):
    first = groups_on_page(client)  # sync mode: the job ran inline, the render found it
    assert first

    def no_bootstrap(*_, **__):
        raise AssertionError("a render bootstrapped")

    monkeypatch.setattr(board_insights.ties, "tie_groups", no_bootstrap)
    assert groups_on_page(client) == first
    stored = BoardTies.objects.get(phase=insight_task["phase"], metric="errant.cs.f", track="")
    assert stored.computed_at and len(stored.order) == len(first)


def test_a_render_in_celery_mode_asks_and_shows_none_yet(insight_task, client, settings, monkeypatch):
    settings.GEC_TASK_MODE = "celery"
    asked = []
    monkeypatch.setattr(refresh_tie_groups, "enqueue", lambda *args: asked.append(args))
    html = client.get("/tasks/insight/", {"metric": "errant.cs.f"}).content.decode()
    assert 'id="ties-pending"' in html and "data-group" not in html
    client.get("/tasks/insight/", {"metric": "errant.cs.f"})  # the same rows: asked already
    assert asked == [(insight_task["phase"].pk, "errant.cs.f", "")]


def test_asking_waits_out_the_interval_and_a_lost_question_is_asked_again(insight_task, settings, monkeypatch):
    phase = insight_task["phase"]
    asked = []
    monkeypatch.setattr(refresh_tie_groups, "enqueue", lambda *args: asked.append(args))
    settings.GEC_TIE_GROUPS_EVERY = 10
    assert ask_for_tie_groups(phase, "errant.cs.f", "", "a")  # the first question
    assert not ask_for_tie_groups(phase, "errant.cs.f", "", "b")  # new rows, but within the interval
    BoardTies.objects.update(asked_at=timezone.now() - timedelta(seconds=11))
    assert not ask_for_tie_groups(phase, "errant.cs.f", "", "a")  # the same rows: the answer may still come
    assert ask_for_tie_groups(phase, "errant.cs.f", "", "b")
    assert len(asked) == 2


def test_the_job_stores_the_groups_and_tells_open_pages(insight_task, settings):
    settings.GEC_TASK_MODE = "celery"  # as a worker runs it (inline, the render that asked shows them)
    phase = insight_task["phase"]
    before = Pool.objects.get(phase=phase).version
    assert refresh_tie_groups(phase.pk, "errant.cs.f", "") == "computed"
    assert Pool.objects.get(phase=phase).version == before + 1
    assert refresh_tie_groups(phase.pk, "errant.cs.f", "") == "fresh"  # nothing changed: no second touch
    assert Pool.objects.get(phase=phase).version == before + 1
    rows = board_rows(phase.pk, "errant.cs.f")
    shown = stored_tie_groups(phase, board_insights.board_rows_in_track(phase, rows, ""), "errant.cs.f")
    assert shown.state == "exact" and set(shown.groups) == {r["submission_id"] for r in rows if r["value"] is not None}


def test_earlier_groups_stay_for_rows_that_did_not_move():
    groups = {1: {"group": 1}, 2: {"group": 1}, 3: {"group": 2}}
    order = [[1, 0.5], [2, 0.4], [3, 0.3]]
    rows = lambda *pairs: [{"submission_id": sid, "value": value} for sid, value in pairs]  # noqa: E731
    assert (
        unmoved_groups(order, groups, rows((1, 0.5), (9, 0.45), (2, 0.4), (3, 0.3))) == groups
    )  # a newcomer: none for it
    assert unmoved_groups(order, groups, rows((1, 0.5), (2, 0.4), (3, 0.35))) == {
        1: {"group": 1},
        2: {"group": 1},
    }  # 3 rescored
    assert unmoved_groups(order, groups, rows((2, 0.6), (1, 0.5), (3, 0.3))) == {
        1: {"group": 1},
        3: {"group": 2},
    }  # 2 changed
    assert (
        unmoved_groups(order, groups, rows((3, 0.3), (1, 0.5), (2, 0.4))) == {}
    )  # the order of the unchanged ones moved


def test_an_unresampled_score_asks_nothing(insight_task, client, monkeypatch):
    monkeypatch.setattr(refresh_tie_groups, "enqueue", lambda *args: pytest.fail("asked for a count's groups"))
    client.get("/tasks/insight/", {"metric": "gotoscorer.tp"})
    assert not BoardTies.objects.exists()
