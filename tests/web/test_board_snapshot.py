"""The board a page shows is read once per phase, query and version (views/board_snapshot.py):
a new version shows the new rows, a hidden board is never read from the kept copy whoever
filled it, and the phases' gold state read with them answers as the query it replaces."""

import pytest
from django.utils import timezone

from leaderboard import access
from leaderboard.models import Dataset, Membership, Phase
from tests.web.test_board_queries_whatever_n import grow_board

pytestmark = pytest.mark.django_db
ROW = 'data-submission="'


def board_rows_shown(client, path="/tasks/insight/") -> int:
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode().count(ROW)


def test_a_new_version_shows_the_new_rows(insight_task, client):
    before = board_rows_shown(client)
    assert before == board_rows_shown(client)  # the kept copy
    grow_board(insight_task["phase"], 3)  # moves the pool's version, as a join does
    assert board_rows_shown(client) == before + 3
    assert board_rows_shown(client, "/tasks/insight/rows/") == before + 3


@pytest.mark.parametrize("path", ["/tasks/insight/", "/tasks/insight/rows/"])
def test_a_hidden_board_is_never_read_from_the_kept_copy(insight_task, client, path):
    phase = insight_task["phase"]
    Phase.objects.filter(pk=phase.pk).update(results_visibility=Phase.Visibility.ORGANIZERS, revealed=False)
    client.force_login(insight_task["organizer"])
    assert board_rows_shown(client, path) > 0  # the organizer's read keeps the board at this version
    client.logout()
    assert board_rows_shown(client, path) == 0  # a visitor
    member = Membership.objects.filter(task=phase.task).first().user
    client.force_login(member)
    page = client.get(path).content.decode()
    names = [
        m.team.name for m in Membership.objects.filter(task=phase.task).exclude(team=member.memberships.first().team)
    ]
    assert not [name for name in names if f">{name}<" in page]  # no other team's row
    assert page.count(ROW) <= 10  # at most the team's own rows (a member's "My submissions")


def make_dataset(task, prepared: bytes) -> Dataset:
    return Dataset.objects.create(
        task=task, name="d", source="a", references=[["a"]], n_sentences=1, n_references=1, prepared=prepared
    )


def test_the_gold_state_read_with_the_phases_answers_as_its_query(insight_task):
    task = insight_task["phase"].task
    now = timezone.now()
    phase = lambda kind, **fields: Phase.every.create(task=task, kind=kind, starts_at=now, ends_at=now, **fields)  # noqa: E731
    phase("unprepared", dataset=make_dataset(task, b""))
    parent = phase("corpora")
    phase("corpora--a", parent=parent, corpus="a", dataset=make_dataset(task, b"x"))
    phase("corpora--b", parent=parent, corpus="b", dataset=make_dataset(task, b"x"))
    half = phase("half")
    phase("half--a", parent=half, corpus="a", dataset=make_dataset(task, b"x"))
    phase("half--b", parent=half, corpus="b", dataset=make_dataset(task, b""))
    phase("empty")  # no dataset and no corpora
    read = {p.kind: p for p in access.with_gold_state(Phase.every.filter(task=task))}
    plain = {p.kind: access.gold_ready(p) for p in Phase.every.filter(task=task)}
    assert {kind: access.gold_ready(p) for kind, p in read.items()} == plain
    assert plain["unprepared"] is False and plain["corpora"] is True and plain["half"] is False
    assert plain["empty"] is False and plain[insight_task["phase"].kind] is True
