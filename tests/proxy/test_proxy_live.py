"""What every open task page polls, through the proxy: a public phase's version and board
are files web and workers write (services/boards/mirror.py), answered by nginx to
everyone, session cookie or not, without Django and without a cache lock; a hidden
phase's are each viewer's own, from Django, never kept."""

import time

import pytest

from leaderboard.board_version import board_changed, board_version
from leaderboard.services.boards import mirror
from leaderboard.services.hosting.host import edit_phase
from tests.platform.served import PROXIED, get
from tests.proxy.test_proxy_secrecy import session_cookie, stack  # noqa: F401 - the served task

pytestmark = [*PROXIED, pytest.mark.django_db(transaction=True)]
VERSION = "/tasks/proxied/version/?phase=dev"
BOARD = "/tasks/proxied/rows/?phase=dev"


def test_a_public_phase_is_answered_from_files_for_everyone(stack):  # noqa: F811
    """Version and board for an anonymous visitor, a member and an organizer alike, as
    Django answers an anonymous poll, with gunicorn stopped."""
    import os
    import signal

    visitors = [{}, {"Cookie": session_cookie(stack["team"])}, {"Cookie": session_cookie(stack["organizer"])}]
    version = str(board_version(stack["phase"].pk)).encode()
    django_board = get(stack["served"].web_url + BOARD)[2]
    assert django_board.startswith(b'<div data-version="' + version + b'">') and b"Careful" in django_board
    web = stack["served"].processes[0]
    os.killpg(web.pid, signal.SIGTERM)
    web.wait(timeout=30)
    for headers in visitors:
        for path, body in ((VERSION, version), (BOARD, django_board[: django_board.index(b">") + 1])):
            status, answer_headers, answer = get(stack["url"] + path, headers)
            assert status == 200 and answer.startswith(body), (path, headers, status, answer[:200])
            assert answer_headers["X-Live"] == "file" and answer_headers["Cache-Control"] == "no-store"
            assert "ETag" not in answer_headers  # two writes in one second may have one size
    assert b"Careful" in get(stack["url"] + BOARD)[2]
    assert get(stack["url"] + BOARD + "&metric=errant")[0] == 502  # any other query is Django's
    assert get(stack["url"] + "/live/public/proxied/dev/version")[0] == 404  # only at the polled URLs


def test_a_new_score_is_in_the_files_at_once(stack):  # noqa: F811
    before = get(stack["url"] + VERSION)[2]
    board_changed(stack["phase"].pk)  # outside a transaction: written at once
    after = get(stack["url"] + VERSION)
    assert after[2] == str(board_version(stack["phase"].pk)).encode() and int(after[2]) == int(before) + 1
    assert f'data-version="{after[2].decode()}"'.encode() in get(stack["url"] + BOARD)[2]


def test_a_hidden_phase_version_is_never_kept(stack):  # noqa: F811
    phase = stack["phase"]
    phase.results_visibility = phase.Visibility.ORGANIZERS
    phase.save()  # as the admin does: no service, the files go all the same
    assert not mirror.folder("proxied", "dev").exists()
    team = get(stack["url"] + VERSION, {"Cookie": session_cookie(stack["team"])})
    organizer = get(stack["url"] + VERSION, {"Cookie": session_cookie(stack["organizer"])})
    anonymous = get(stack["url"] + VERSION)
    assert organizer[2].decode() == str(board_version(phase.pk))
    assert team[2] != organizer[2] and anonymous[2] != organizer[2] and team[2] != anonymous[2]
    for answer in (team, organizer, anonymous):
        assert answer[1]["X-Cache"] != "HIT" and "private" in answer[1]["Cache-Control"] and "X-Live" not in answer[1]


def test_a_hidden_board_is_never_kept(stack):  # noqa: F811
    edit_phase(stack["phase"], {"results_visibility": "organizers"})
    organizer = get(stack["url"] + BOARD, {"Cookie": session_cookie(stack["organizer"])})
    team = get(stack["url"] + BOARD, {"Cookie": session_cookie(stack["team"])})
    anonymous = get(stack["url"] + BOARD)
    assert organizer[0] == 200 and b"not public yet" not in organizer[2]
    for answer in (team, anonymous):
        assert b"not public yet" in answer[2] and b"Careful" not in answer[2]
    for answer in (team, organizer, anonymous):
        assert answer[1]["X-Cache"] != "HIT" and "private" in answer[1]["Cache-Control"]
    edit_phase(stack["phase"], {"results_visibility": "public"})  # revealed: the files are back
    assert get(stack["url"] + BOARD)[1].get("X-Live") == "file"


def test_a_renamed_phase_leaves_no_file_behind(stack):  # noqa: F811
    phase = stack["phase"]
    edit_phase(phase, {"kind": "development"})
    time.sleep(0.1)
    assert not mirror.folder("proxied", "dev").exists() and mirror.folder("proxied", "development").exists()
    assert get(stack["url"] + VERSION)[0] == 404


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
    assert 'data-rows-url="/tasks/proxied/rows/?phase=dev"' in page  # the plain poll: a file
    web = stack["served"].processes[0]
    os.killpg(web.pid, signal.SIGTERM)
    web.wait(timeout=30)
    rows, status = get(stack["url"] + rows_url), get(stack["url"] + submission_channel(submission.pk).url)
    assert rows[0] == status[0] == 200 and b'data-status="scored"' in rows[2]
    assert json.loads(status[2]) == {"id": submission.pk, "status": "scored", "finished": True, "progress": 1.0}
    for answer in (rows, status):
        assert answer[1]["Cache-Control"] == "no-store" and "ETag" not in answer[1]
    assert get(stack["url"] + rows_url.replace("/team/", "/submission/"))[0] == 404  # only files, only by their names
