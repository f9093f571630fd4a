"""The board page costs at most 10 queries whatever the board's size, for every role: the
board itself (members, their stored summaries, human columns, tie groups, the corpus
notes) is read once per phase, query and version and kept (views/board_snapshot.py);
access answers are asked once per request (leaderboard/request_answers.py), the
organizer's with the hosting grant and the team with who is in it; the task's phases are
read once, with whether their gold is ready. Counted for a visitor, a participant and an
organizer, at 4 and at 14 rows."""

import pytest

from leaderboard.models import Membership, MetricResult, Pool, PoolMember, Submission, Team
from leaderboard.services.boards.ties import refresh_tie_groups
from leaderboard.standings import headline_metric

pytestmark = pytest.mark.django_db
QUERIES = {
    "visitor": 5,  # task, its phases (gold state), the version, the campaigns tab, the written pages; was 14
    "participant": 10,  # the same, with the session, the user, the team (and its members), its rows, roles; was 35
    "organizer": 9,  # the same as a participant less the team's rows, with the judgments tab; was 30
}


def grow_board(phase, extra: int) -> None:
    """``extra`` more pool members, copies of the first one's outcomes and scores."""
    model = PoolMember.objects.filter(pool__phase=phase).select_related("submission").first()
    results = list(MetricResult.objects.filter(submission=model.submission))
    for k in range(extra):
        team = Team.objects.create(name=f"extra{k}", task=phase.task)
        copy = Submission.objects.create(
            phase=phase,
            team=team,
            system_name=f"extra{k}",
            filename="out.txt",
            content=b"",
            size=0,
            status=Submission.Status.SCORED,
            scored_at=model.submission.scored_at,
        )
        PoolMember.objects.create(pool=model.pool, submission=copy, modified=model.modified, correct=model.correct)
        MetricResult.objects.bulk_create(
            [MetricResult(submission=copy, metric=r.metric, statistics=r.statistics, scores=r.scores) for r in results]
        )
    Pool.objects.filter(phase=phase).update(version=model.pool.version + 1, size=model.pool.size + extra)


def render(client) -> None:
    assert client.get("/tasks/insight/").status_code == 200


@pytest.mark.parametrize("who", list(QUERIES))
def test_the_same_queries_at_4_and_at_14_rows(insight_task, client, who, django_assert_max_num_queries):
    if who == "organizer":
        client.force_login(insight_task["organizer"])
    if who == "participant":
        client.force_login(Membership.objects.filter(task=insight_task["phase"].task).first().user)
    bound = QUERIES[who]
    render(client)  # caches warm, as for every later visitor
    with django_assert_max_num_queries(bound) as small:
        render(client)
    phase = insight_task["phase"]
    grow_board(phase, 10)
    refresh_tie_groups(phase.pk, headline_metric(phase.task), "")  # as a worker does: the groups are of these rows
    render(client)
    with django_assert_max_num_queries(bound) as large:
        render(client)
    assert len(small.captured_queries) == len(large.captured_queries)
    assert not [q for q in large.captured_queries if '"source"' in q["sql"]]  # no dataset's texts


def test_the_rows_fragment_sends_a_page_when_asked(insight_task, client):
    """The polled fragment sends every row, as the page shows them; a client that wants the
    top of a long board asks for ``limit`` (and ``offset``), as from the board API."""
    phase = insight_task["phase"]
    grow_board(phase, 10)
    every = client.get("/tasks/insight/rows/").content.decode()
    page = client.get("/tasks/insight/rows/?limit=3&offset=2").content.decode()
    assert every.count("data-submission=") == 14
    assert page.count("data-submission=") == 3
    assert client.get("/tasks/insight/rows/?limit=0").status_code == 400
