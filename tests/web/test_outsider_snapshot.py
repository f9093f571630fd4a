"""An outsider's attempts at the board kept per version (views/board_snapshot.py) and the
page that embeds the shared fragment (views/pages.py): a copy filled by one who may see
the results must never reach one who may not, nor outlive the visibility it was made
under; odd queries must not change what another viewer sees; the per-request answers
(the team and its members, the gold state) must answer as the queries they replace."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from leaderboard import access
from leaderboard.board_version import board_version
from leaderboard.models import Membership, Phase, Submission
from leaderboard.request_answers import RememberAnswers
from leaderboard.services.boards.channels import team_channel
from leaderboard.services.hosting import phases as phase_actions
from leaderboard.services.submissions import actions as submission_actions
from leaderboard.views import fragment_cache

pytestmark = pytest.mark.django_db
ROW = 'data-submission="'
PATHS = ("/tasks/insight/", "/tasks/insight/rows/", "/tasks/insight/rows/?limit=2&offset=1")


def set_phase(phase: Phase, **fields) -> Phase:
    Phase.objects.filter(pk=phase.pk).update(**fields)
    phase.refresh_from_db()
    return phase


def system_names(insight_task) -> list[str]:
    return [s.system_name for s in insight_task["submissions"].values() if not s.is_baseline]


def member_of(insight_task, system: str) -> User:
    return Membership.objects.get(team=insight_task["submissions"][system].team).user


def client_as(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def leaked(body: str, names) -> list[str]:
    return [name for name in names if f">{name}<" in body]


HIDDEN_STATES = {
    "organizers": {"results_visibility": Phase.Visibility.ORGANIZERS, "revealed": False},
    "after_end, running": {
        "results_visibility": Phase.Visibility.AFTER_END,
        "revealed": False,
        "ends_at": timezone.now() + dt.timedelta(days=1),
    },
    "organizers, blind": {"results_visibility": Phase.Visibility.ORGANIZERS, "revealed": False, "blind": True},
}


@pytest.mark.parametrize("state", HIDDEN_STATES)
@pytest.mark.parametrize("path", PATHS)
def test_an_organizers_copy_reaches_no_lower_role(insight_task, path, state):
    phase = set_phase(insight_task["phase"], **HIDDEN_STATES[state])
    names = system_names(insight_task)
    organizer = client_as(insight_task["organizer"])
    assert organizer.get(path).content.decode().count(ROW) > 0  # fills the kept board and fragment
    organizer.get(path.replace("?", "?metric=&track=&") if "?" in path else path + "?metric=")
    staff = User.objects.create_user("outsider-staff", is_staff=True)
    assert client_as(staff).get(path).content.decode().count(ROW) > 0
    annotator = User.objects.create_user("annotator-only")
    emailish = User.objects.create_user("bob@example.org")  # a username that looks like an address
    alice = member_of(insight_task, "T5")
    for who in (None, annotator, emailish, alice):
        for query in ("", "?metric=", "?track=", "?since=1", f"?since={board_version(phase.pk)}"):
            url = path + (query if "?" not in path else query.replace("?", "&"))
            response = client_as(who).get(url)
            body = response.content.decode()
            assert response.status_code in (200, 204), (who, url)
            others = [n for n in names if who is not alice or n != "T5"]
            assert not leaked(body, others), (who, url)
            if who is not alice:
                assert body.count(ROW) == 0, (who, url)


@pytest.mark.parametrize("path", PATHS[:2])
def test_hiding_after_the_copy_was_filled_hides_it(insight_task, path):
    phase = set_phase(insight_task["phase"], results_visibility=Phase.Visibility.ORGANIZERS, revealed=False)
    phase_actions.reveal(phase)
    assert Client().get(path).content.decode().count(ROW) > 0  # the public's copy
    before = board_version(phase.pk)
    phase_actions.hide(phase)
    assert board_version(phase.pk) != before  # hiding is a new version
    body = Client().get(path).content.decode()
    assert body.count(ROW) == 0 and not leaked(body, system_names(insight_task))
    # and even at the same version (a hide written without the service): never read
    phase_actions.reveal(phase)
    assert Client().get(path).content.decode().count(ROW) > 0
    set_phase(phase, revealed=False)
    body = Client().get(path).content.decode()
    assert body.count(ROW) == 0 and not leaked(body, system_names(insight_task))


def test_an_after_end_phase_shows_its_rows_once_it_ends(insight_task):
    phase = set_phase(
        insight_task["phase"],
        results_visibility=Phase.Visibility.AFTER_END,
        revealed=False,
        ends_at=timezone.now() + dt.timedelta(days=1),
    )
    organizer = client_as(insight_task["organizer"])
    kept = organizer.get("/tasks/insight/rows/").content.decode()
    assert Client().get("/tasks/insight/rows/").content.decode().count(ROW) == 0
    set_phase(phase, ends_at=timezone.now() - dt.timedelta(seconds=1))  # no version moves when time passes
    public = Client().get("/tasks/insight/rows/").content.decode()
    assert public.count(ROW) == kept.count(ROW)


def another_process_renders(monkeypatch) -> None:
    """Every render lock is taken by another process (a crowd arrives at once): a request
    waits :data:`RENDER_WAIT`, then answers the latest copy of any version."""
    cache = fragment_cache._cache
    monkeypatch.setattr(fragment_cache, "RENDER_WAIT", 0.05)
    monkeypatch.setattr(
        fragment_cache,
        "_cache",
        lambda op, *a, **k: False if op == "add" and str(a[0]).endswith("-rendering") else cache(op, *a, **k),
    )


def test_a_copy_made_for_organizers_never_reaches_the_public(insight_task, monkeypatch):
    """While another process renders the revealed board, a request answers the latest
    copy of any version: that copy must not be one rendered for the organizers while the
    results were hidden (it shows what was withdrawn before the reveal)."""
    phase = set_phase(
        insight_task["phase"],
        results_visibility=Phase.Visibility.ORGANIZERS,
        revealed=False,
        ends_at=timezone.now() + dt.timedelta(days=1),
    )
    withdrawn = insight_task["submissions"]["BART"]
    organizer = client_as(insight_task["organizer"])
    assert ">BART<" in organizer.get("/tasks/insight/rows/").content.decode()  # the organizers' copy, hidden
    submission_actions.withdraw(Submission.objects.get(pk=withdrawn.pk))  # never to be public
    set_phase(phase, ends_at=timezone.now() - dt.timedelta(seconds=1))
    phase_actions.reveal(phase)
    another_process_renders(monkeypatch)
    for path in ("/tasks/insight/rows/", "/tasks/insight/"):
        body = Client().get(path).content.decode()
        assert ">BART<" not in body, path


ODD = [
    "x" * 5000,
    "\u0661\u0662",  # Arabic-Indic digits
    "NaN",
    "nan",
    "-inf",
    "errant\x00",
    "errant ",
    "ERRANT",
    "gotoscorer/f0.5",
    "'),('board'",
]


@pytest.mark.parametrize("value", ODD)
def test_an_odd_query_changes_no_one_elses_board(insight_task, value):
    reference = Client().get("/tasks/insight/rows/").content
    page = Client().get("/tasks/insight/").content.decode()
    for name in ("metric", "track", "limit", "offset", "since", "phase"):
        response = Client().get("/tasks/insight/rows/", {name: value})
        assert response.status_code in (200, 204, 400, 404), (name, value, response.status_code)
        response = Client().get("/tasks/insight/", {name: value})
        assert response.status_code in (200, 400, 404), (name, value, response.status_code)
    assert Client().get("/tasks/insight/rows/").content == reference
    assert Client().get("/tasks/insight/").content.decode().count(ROW) == page.count(ROW)


def test_the_default_metric_named_or_not_is_the_same_board(insight_task):
    from leaderboard.standings import headline_metric

    metric = headline_metric(insight_task["task"])
    plain = Client().get("/tasks/insight/rows/").content.decode()
    named = Client().get("/tasks/insight/rows/", {"metric": metric}).content.decode()
    assert plain.count(ROW) == named.count(ROW)


def test_a_metric_query_keeps_each_its_own_board(insight_task):
    from leaderboard.insights.paths import metric_paths

    paths = metric_paths(insight_task["phase"])
    bodies = {p: Client().get("/tasks/insight/rows/", {"metric": p}).content for p in paths[:3]}
    for p, body in bodies.items():  # asked again, in another order: each the same
        assert Client().get("/tasks/insight/rows/", {"metric": p}).content == body
    assert Client().get("/tasks/insight/rows/").content != b""


def as_get_request(fn):
    """``fn()`` inside a GET request's memo (request_answers.RememberAnswers)."""
    out = {}

    def view(request):
        out["value"] = fn()
        return None

    RememberAnswers(view)(type("R", (), {"method": "GET"})())
    return out["value"]


def test_the_members_read_with_the_team_are_the_teams(insight_task):
    task = insight_task["task"]
    alice = member_of(insight_task, "T5")
    team = insight_task["submissions"]["T5"].team
    dave = User.objects.create_user("dave@example.org")
    Membership.objects.create(user=dave, team=team, task=task)
    other = insight_task["submissions"]["BART"].team
    erin = User.objects.create_user("erin")
    Membership.objects.create(user=erin, team=other, task=task)
    plain = sorted(Membership.objects.filter(team=team).values_list("user_id", flat=True))
    for user in (alice, dave):
        read = as_get_request(lambda u=user: (access.own_team(u, task), access.team_member_ids(team.pk)))
        assert read[0] == team and read[1] == plain
    assert access.team_member_ids(team.pk) == plain  # outside a request


def test_the_channel_token_moves_when_someone_joins_or_leaves(insight_task):
    task, phase = insight_task["task"], insight_task["phase"]
    team = insight_task["submissions"]["T5"].team
    before = as_get_request(lambda: team_channel(team.pk, phase.pk).token)
    dave = User.objects.create_user("dave2")
    joined = Membership.objects.create(user=dave, team=team, task=task)
    after_join = as_get_request(lambda: (access.own_team(dave, task), team_channel(team.pk, phase.pk).token))[1]
    assert after_join != before
    joined.delete()
    assert as_get_request(lambda: team_channel(team.pk, phase.pk).token) == before


def test_the_page_names_the_team_channel_of_its_current_members(insight_task, settings, tmp_path):
    settings.GEC_LIVE_DIR = str(tmp_path)
    task, phase = insight_task["task"], insight_task["phase"]
    alice = member_of(insight_task, "T5")
    team = insight_task["submissions"]["T5"].team
    page = client_as(alice).get("/tasks/insight/").content.decode()
    assert team_channel(team.pk, phase.pk).token in page
    dave = User.objects.create_user("dave3")
    Membership.objects.create(user=dave, team=team, task=task)
    page = client_as(alice).get("/tasks/insight/").content.decode()
    assert team_channel(team.pk, phase.pk).token in page  # the new members' token
    assert client_as(dave).get("/tasks/insight/").content.decode().count(team_channel(team.pk, phase.pk).token)


def test_the_gold_state_of_a_corpus_without_its_dataset(insight_task):
    task = insight_task["task"]
    now = timezone.now()
    parent = Phase.every.create(task=task, kind="solo", starts_at=now, ends_at=now)
    child = Phase.every.create(task=task, kind="solo--a", parent=parent, corpus="a", starts_at=now, ends_at=now)
    assert child.dataset_id is None  # a corpus without its dataset
    read = {p.kind: p for p in access.with_gold_state(Phase.every.filter(task=task))}
    for kind, p in read.items():
        fresh = Phase.every.get(pk=p.pk)
        assert access.gold_ready(p) == access.gold_ready(fresh), kind
