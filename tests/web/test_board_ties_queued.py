"""A board's significance groups come from the worker, never from a web request (where
jobs run inline, the tests' mode, from the change's own transaction):
a render reads the stored groups and writes nothing; a change of the rows asks a worker (at
most once per GEC_TIE_GROUPS_EVERY a phase), and earlier groups stay shown for the rows
that have not moved."""

import re

import pytest
from django.core.cache import cache
from django.db import transaction

from leaderboard.insights import board as board_insights
from leaderboard.insights.board import stored_tie_groups, unmoved_groups
from leaderboard.models import BoardTies, Pool
from leaderboard.services.boards.ties import board_rows_changed, refresh_board_ties, refresh_tie_groups
from leaderboard.standings import board_rows

pytestmark = pytest.mark.django_db


def groups_on_page(client) -> list[str]:
    html = client.get("/tasks/insight/", {"metric": "errant.cs.f"}).content.decode()
    return re.findall(r'data-group="(\d+)"', html)


def test_the_worker_computes_once_and_every_render_after_reads(insight_task, client, monkeypatch):
    refresh_board_ties(insight_task["phase"].pk)  # the worker's job once a score landed (or already run by it)
    first = groups_on_page(client)
    assert first

    def no_bootstrap(*_, **__):
        raise AssertionError("a render bootstrapped")

    monkeypatch.setattr(board_insights.ties, "tie_groups", no_bootstrap)
    assert groups_on_page(client) == first
    stored = BoardTies.objects.get(phase=insight_task["phase"], metric="errant.cs.f", track="")
    assert stored.computed_at and len(stored.order) == len(first)


def test_a_render_asks_nothing_and_shows_none_yet(insight_task, client, monkeypatch):
    """Reads write nothing: no row, no job; the groups come from the write side."""
    BoardTies.objects.all().delete()  # as before the worker's first job
    monkeypatch.setattr(refresh_board_ties, "enqueue", lambda *args: pytest.fail("a render asked"))
    html = client.get("/tasks/insight/", {"metric": "errant.cs.f"}).content.decode()
    assert 'id="ties-pending"' in html and "data-group" not in html
    assert not BoardTies.objects.exists()


def test_a_change_asks_once_per_interval(insight_task, settings, monkeypatch, django_capture_on_commit_callbacks):
    phase = insight_task["phase"]
    asked = []
    monkeypatch.setattr(refresh_board_ties, "enqueue", lambda *args: asked.append(args))
    settings.GEC_TASK_MODE = "celery"  # a worker's queue (inline, the groups are computed at once)
    settings.GEC_TIE_GROUPS_EVERY = 10
    with django_capture_on_commit_callbacks(execute=True):
        board_rows_changed(phase.pk)  # the first change queues the job
        board_rows_changed(phase.pk)  # the next finds it due
    assert asked == [(phase.pk,)]
    cache.delete(f"ties-due:{phase.pk}")  # what the job does when it starts
    with django_capture_on_commit_callbacks(execute=True):
        board_rows_changed(phase.pk)
    assert asked == [(phase.pk,), (phase.pk,)]


def test_inline_the_groups_land_in_the_change_s_transaction(insight_task, monkeypatch):
    """Jobs run inline: a change and its groups are one version, never two moves a moment apart."""
    phase = insight_task["phase"]
    BoardTies.objects.all().delete()
    monkeypatch.setattr(refresh_board_ties, "enqueue", lambda *args: pytest.fail("queued instead"))
    with transaction.atomic():
        board_rows_changed(phase.pk)
        assert BoardTies.objects.filter(phase=phase, metric="errant.cs.f").exists()


def test_the_job_stores_the_groups_and_tells_open_pages(insight_task, settings):
    settings.GEC_TASK_MODE = "celery"  # as a worker runs it
    phase = insight_task["phase"]
    BoardTies.objects.all().delete()  # as before the worker's first job
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
    refresh_board_ties(insight_task["phase"].pk)
    client.get("/tasks/insight/", {"metric": "gotoscorer.tp"})
    assert not BoardTies.objects.filter(metric="gotoscorer.tp").exists()


def test_inline_a_failure_of_the_groups_never_undoes_the_change(insight_task, monkeypatch):
    """The groups are the board's garnish: where they fail, the score that asked stands."""
    from leaderboard.services.boards import ties

    phase = insight_task["phase"]

    def broken(phase_id):
        BoardTies.objects.all().delete()  # written, then undone with the groups' savepoint
        raise RuntimeError("a bootstrap that fails")

    monkeypatch.setattr(ties, "refresh_board_ties", broken)
    before = Pool.objects.get(phase=phase).version
    with transaction.atomic():
        Pool.objects.filter(phase=phase).update(version=before + 1)  # the change that asked
        ties.board_rows_changed(phase.pk)
        assert BoardTies.objects.exists()  # the savepoint rolled back the groups' half-work only
    assert Pool.objects.get(phase=phase).version == before + 1


def test_a_phase_of_several_corpora_asks_once(monkeypatch, django_capture_on_commit_callbacks):
    """Each corpus's pool is brought up to date, then the phase's groups are asked for once,
    when every corpus's scores are new (not once a corpus, on a half-updated board)."""
    from django.contrib.auth.models import User

    from leaderboard.models import PoolMember
    from leaderboard.services.pool import membership
    from leaderboard.services.submissions.intake import accept_submission
    from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

    names = {"cs-one": "cs", "uk-two": "uk"}
    phase = corpora_task("asks-once", [corpus(name, lang, *LANGUAGES[lang]) for name, lang in names.items()])
    with django_capture_on_commit_callbacks(execute=True):
        accept_submission(
            phase,
            User.objects.create_user("zoe"),
            system_name="copy",
            filename="o.zip",
            content=zipped({f"{name}.txt": text(LANGUAGES[lang][0]) for name, lang in names.items()}),
        )
    members = set(PoolMember.objects.filter(pool__phase__parent=phase).values_list("submission_id", flat=True))
    assert len(members) == 2  # one a corpus
    asked = []
    monkeypatch.setattr(membership, "board_rows_changed", asked.append)
    assert membership.sync_pool(phase.pk, refresh=members)  # both corpora re-join: a change in each
    assert asked == [phase.pk]
