"""The leaderboard API's cached body: served only to who may see the phase's results, in
every state and visibility of a phase, and rebuilt on every change of what it shows
(leaderboard/standings.py ``leaderboard_body``, leaderboard/api/board.py)."""

import datetime as dt
import gzip

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from leaderboard.models import Submission, Team
from leaderboard.services.hosting import phases
from leaderboard.services.hosting.host import edit_phase
from leaderboard.services.submissions import actions as submissions
from leaderboard.services.teams import actions as teams

from .conftest import client_for, make_user
from .test_api_leaderboard import scored_systems

URL = "/api/tasks/small/leaderboard/?metric=gotoscorer.f"
REFUSED = {"detail": "the results of this phase are not public yet"}


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()


@pytest.fixture
def board(small_texts, phase):
    """Three teams on the board; an organizer whose poll fills the cache first."""
    ids = scored_systems(phase, small_texts)
    organizer = make_user("organizer")
    phase.task.organizers.add(organizer)
    return {
        "ids": ids,
        "organizer": client_for(organizer),
        "participant": client_for(Submission.objects.get(pk=ids["T5"]).submitted_by),
    }


def set_state(phase, state: str) -> None:
    if state == "frozen":
        phases.freeze(phase)
    elif state == "ended":
        edit_phase(phase, {"ends_at": timezone.now() - dt.timedelta(minutes=1)})


def rows(response) -> list[tuple]:
    return [(row["team"], row["system_name"]) for row in response.json()["rows"]]


@pytest.mark.parametrize("revealed", [False, True], ids=["not-revealed", "revealed"])
@pytest.mark.parametrize("visibility", ["public", "after_end", "organizers"])
@pytest.mark.parametrize("state", ["open", "frozen", "ended"])
def test_a_cached_board_reaches_only_who_may_see_it(board, phase, state, visibility, revealed):
    edit_phase(phase, {"results_visibility": visibility, "revealed": revealed})
    set_state(phase, state)
    filled = board["organizer"].get(URL)  # organizers always see it: this fills the cache
    assert filled.status_code == 200 and len(filled.json()["rows"]) == 3
    public = visibility == "public" or revealed or (visibility == "after_end" and state == "ended")
    session = Client()
    session.force_login(Submission.objects.get(pk=board["ids"]["BART"]).submitted_by)
    for viewer in (Client(), board["participant"], session):  # anonymous; a team on the board, by token and by session
        for headers in ({}, {"HTTP_IF_NONE_MATCH": filled["ETag"]}, {"HTTP_ACCEPT_ENCODING": "gzip"}):
            response = viewer.get(URL, **headers)
            if not public:
                assert response.status_code == 403 and response.json() == REFUSED
                assert "ETag" not in response and b"GECToR" not in response.content
            elif "HTTP_IF_NONE_MATCH" in headers:
                assert response.status_code == 304 and response.content == b""
            else:
                body = gzip.decompress(response.content) if headers else response.content
                assert response.status_code == 200 and body == filled.content and response["ETag"] == filled["ETag"]


def test_a_score_landing_is_a_new_body_and_a_new_etag(board, phase, small_texts):
    first = Client().get(URL)
    assert Client().get(URL, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    scored_systems(phase, small_texts, names=("REF0",))  # a fourth team's system is scored
    again = Client().get(URL, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    assert again.json()["version"] > first.json()["version"] and len(again.json()["rows"]) == 4


def test_a_withdrawn_submission_leaves_the_cached_board(board):
    first = Client().get(URL)
    submissions.withdraw(Submission.objects.get(pk=board["ids"]["BART"]))
    again = Client().get(URL, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and ("bart", "BART") in rows(first) and ("bart", "BART") not in rows(again)


def test_a_renamed_team_is_served_at_once(board):
    first = Client().get(URL)
    teams.rename_team(Team.objects.get(name="t5"), "Team Five")
    again = Client().get(URL, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and ("Team Five", "T5") in rows(again) and ("t5", "T5") not in rows(again)


def test_hiding_the_results_refuses_the_cached_board_at_once(board, phase):
    first = Client().get(URL)
    assert first.status_code == 200
    edit_phase(phase, {"results_visibility": "organizers"})
    assert Client().get(URL).status_code == 403
    assert Client().get(URL, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 403
    phases.reveal(phase)
    assert Client().get(URL).status_code == 200
    phases.hide(phase)
    assert board["participant"].get(URL, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 403
    assert board["organizer"].get(URL).status_code == 200


def test_the_phase_row_is_read_on_every_request_not_cached(board, phase):
    """Even a change that bypasses the services (the admin, a shell) applies at once:
    visibility is never part of what is cached."""
    Client().get(URL)
    type(phase).objects.filter(pk=phase.pk).update(
        results_visibility="after_end", ends_at=timezone.now() + dt.timedelta(days=1)
    )
    assert Client().get(URL).status_code == 403
    type(phase).objects.filter(pk=phase.pk).update(ends_at=timezone.now() - dt.timedelta(seconds=1))
    assert Client().get(URL).status_code == 200


def test_freezing_changes_no_rule(board, phase):
    first = Client().get(URL)
    phases.freeze(phase)
    again = Client().get(URL, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and rows(again) == rows(first)


def test_each_metric_and_phase_version_is_its_own_body(board):
    by_f, by_accuracy = Client().get(URL), Client().get("/api/tasks/small/leaderboard/?metric=gotoscorer.accuracy")
    assert by_f.json()["metric"] == "gotoscorer.f" and by_accuracy.json()["metric"] == "gotoscorer.accuracy"
    assert by_f["ETag"] != by_accuracy["ETag"]


def test_headers_for_browsers_and_caches(board, phase):
    public = Client().get(URL, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert (
        public["Content-Encoding"] == "gzip" and public["Cache-Control"] == "public, max-age=0, s-maxage=1"
    )  # a proxy: one second
    assert "Accept-Encoding" in public["Vary"] and public["ETag"].startswith('W/"')
    assert "Content-Encoding" not in Client().get(URL)
    not_modified = Client().get(URL, HTTP_IF_NONE_MATCH=public["ETag"])
    assert not_modified["ETag"] == public["ETag"] and not_modified["Cache-Control"] == public["Cache-Control"]
    edit_phase(phase, {"results_visibility": "organizers"})
    hidden = board["organizer"].get(URL)
    assert hidden["Cache-Control"] == "private, no-cache"  # no shared cache keeps an organizers-only board
    assert {"Authorization", "Cookie", "Accept-Encoding"} <= {v.strip() for v in hidden["Vary"].split(",")}
