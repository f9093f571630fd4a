"""The version every live page polls, through the proxy: a public phase's is
kept a second and answered by nginx to everyone, session cookie or not; a hidden phase's
is each viewer's own and never kept."""

import time

import pytest

from leaderboard.board_version import board_version
from tests.platform.served import PROXIED, get
from tests.proxy.test_proxy_secrecy import session_cookie, stack  # noqa: F401 - the served task

pytestmark = [*PROXIED, pytest.mark.django_db(transaction=True)]
VERSION = "/tasks/proxied/version/?phase=dev"


def test_a_public_phase_version_is_answered_by_the_proxy_for_logged_in_pages_too(stack):  # noqa: F811
    cookie = {"Cookie": session_cookie(stack["team"])}
    first = get(stack["url"] + VERSION, cookie)
    answers = [get(stack["url"] + VERSION, cookie) for _ in range(5)] + [get(stack["url"] + VERSION)]
    assert first[0] == 200 and first[2].decode() == str(board_version(stack["phase"].pk))
    assert all(a[2] == first[2] for a in answers)
    assert any(a[1]["X-Cache"] == "HIT" for a in answers), [a[1]["X-Cache"] for a in answers]
    etag = first[1]["ETag"]
    assert get(stack["url"] + VERSION, {**cookie, "If-None-Match": etag})[0] == 304


def test_a_hidden_phase_version_is_never_kept(stack):  # noqa: F811
    phase = stack["phase"]
    phase.results_visibility = phase.Visibility.ORGANIZERS
    phase.save()
    time.sleep(1.1)  # the public copy of a second ago expires
    team = get(stack["url"] + VERSION, {"Cookie": session_cookie(stack["team"])})
    organizer = get(stack["url"] + VERSION, {"Cookie": session_cookie(stack["organizer"])})
    anonymous = get(stack["url"] + VERSION)
    assert organizer[2].decode() == str(board_version(phase.pk))
    assert team[2] != organizer[2] and anonymous[2] != organizer[2] and team[2] != anonymous[2]
    for answer in (team, organizer, anonymous):
        assert answer[1]["X-Cache"] != "HIT" and "private" in answer[1]["Cache-Control"]


BOARD = "/tasks/proxied/rows/?phase=dev"


def test_a_public_board_is_answered_by_the_proxy_for_logged_in_pages_too(stack):  # noqa: F811
    """One render a second for a crowd: the board is the public's, the team's rows are /own/."""
    cookie = {"Cookie": session_cookie(stack["team"])}
    answers = [get(stack["url"] + BOARD, cookie) for _ in range(5)] + [get(stack["url"] + BOARD)]
    assert all(a[0] == 200 and a[2] == answers[0][2] for a in answers)
    assert any(a[1]["X-Cache"] == "HIT" for a in answers), [a[1]["X-Cache"] for a in answers]
    own = get(stack["url"] + "/tasks/proxied/own/?phase=dev", cookie)
    assert own[0] == 200 and own[1].get("X-Cache") is None  # never through the cache


def test_a_hidden_board_is_never_kept(stack):  # noqa: F811
    phase = stack["phase"]
    phase.results_visibility = phase.Visibility.ORGANIZERS
    phase.save()
    time.sleep(1.1)  # the public copy of a second ago expires
    organizer = get(stack["url"] + BOARD, {"Cookie": session_cookie(stack["organizer"])})
    team = get(stack["url"] + BOARD, {"Cookie": session_cookie(stack["team"])})
    anonymous = get(stack["url"] + BOARD)
    assert organizer[0] == 200 and b"not public yet" not in organizer[2]
    for answer in (team, anonymous):
        assert b"not public yet" in answer[2]
    for answer in (team, organizer, anonymous):
        assert answer[1]["X-Cache"] != "HIT" and "private" in answer[1]["Cache-Control"]


def test_a_teams_channels_are_served_by_the_proxy_alone(stack):  # noqa: F811
    """A member's page polls its team's rows and its upload's status as files nginx serves:
    with gunicorn stopped they still answer, never kept by a browser and with no ETag (two
    writes in a second may have one size; the page compares the bytes)."""
    import json
    import os
    import signal

    from leaderboard.models import Submission
    from leaderboard.services.boards.channels import submission_channel, team_channel

    submission = Submission.objects.filter(submitted_by=stack["team"]).get()
    page = get(stack["url"] + "/tasks/proxied/", {"Cookie": session_cookie(stack["team"])})[2].decode()
    rows_url = team_channel(submission.team_id, submission.phase_id).url
    assert f'data-own-url="{rows_url}"' in page
    web = stack["served"].processes[0]
    os.killpg(web.pid, signal.SIGTERM)
    web.wait(timeout=30)
    rows, status = get(stack["url"] + rows_url), get(stack["url"] + submission_channel(submission.pk).url)
    assert rows[0] == status[0] == 200 and b'data-status="scored"' in rows[2]
    assert json.loads(status[2]) == {"id": submission.pk, "status": "scored", "finished": True, "progress": 1.0}
    for answer in (rows, status):
        assert answer[1]["Cache-Control"] == "no-store" and "ETag" not in answer[1]
    assert get(stack["url"] + rows_url.replace("/team/", "/submission/"))[0] == 404  # only files, only by their names
