"""Who sees what holds through the proxy (docker/nginx): nginx keeps anonymous
polls of public boards for a second, and nothing that depends on who asks ever reaches
someone else from its cache: hidden boards, answers to a token or a session, a user's
own submissions. gunicorn and nginx run as in production, on the test database; the
task is cut from the CoNLL-2014 gold the repository ships."""

import json
import shutil

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token

import scoring
from leaderboard.demo import SYSTEMS, gold_blocks, simulate
from leaderboard.services.boards import mirror
from leaderboard.services.hosting.host import edit_phase
from leaderboard.services.hosting.task_creation import create_task
from leaderboard.services.scoring_jobs.submission import score_submission
from leaderboard.services.submissions.intake import accept_submission
from tests.platform.served import PROXIED, Served, get, web_environment
from tests.support.waits import until

pytestmark = [*PROXIED, pytest.mark.django_db(transaction=True)]
BOARD = "/api/tasks/proxied/leaderboard/"


@pytest.fixture
def stack(tmp_path):
    shutil.rmtree(mirror.root(), ignore_errors=True)  # no other test's public files
    gold = gold_blocks(0, 12)
    task = create_task("proxied", title="Proxied", m2=gold, metrics=["errant"])
    phase = task.phases.get()
    corpus = scoring.read_m2(gold.encode(), name="gold")
    for system in SYSTEMS[:2]:
        user = User.objects.create_user(system.name.lower(), password="pw")
        submission = accept_submission(
            phase,
            user,
            system_name=system.name,
            filename=f"{system.name}.txt",
            content=simulate(corpus, system).encode(),
            queue=False,
        )
        score_submission(submission.pk)
    organizer = User.objects.create_user("organizer", password="pw")
    task.organizers.add(organizer)
    served = Served(tmp_path, web_environment())
    yield {
        "url": served.url,
        "phase": phase,
        "organizer": organizer,
        "team": User.objects.get(username="careful"),
        "served": served,
    }
    served.stop()


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def token(user) -> str:
    return f"Token {Token.objects.get_or_create(user=user)[0].key}"


def test_a_public_board_is_cached_for_anonymous_polls_only(stack):
    url = stack["url"] + BOARD
    first, again = get(url), get(url)
    assert first[0] == again[0] == 200 and again[2] == first[2], (first, again)
    assert again[1]["X-Cache"] in ("HIT", "UPDATING") and "s-maxage=1" in again[1]["Cache-Control"]
    with_token = get(url, {"Authorization": token(stack["team"])})
    with_session = get(url, {"Cookie": session_cookie(stack["team"])})
    assert with_token[1]["X-Cache"] == with_session[1]["X-Cache"] == "BYPASS"
    assert get(url, {"Authorization": "Token not-a-token"})[0] == 401  # never the cached 200
    not_modified = get(url, {"If-None-Match": first[1]["ETag"]})
    assert not_modified[0] == 304


def test_a_hidden_board_reaches_nobody_else_from_the_cache(stack):
    url = stack["url"] + BOARD
    edit_phase(stack["phase"], {"results_visibility": "organizers"})
    for credentials in ({"Cookie": session_cookie(stack["organizer"])}, {"Authorization": token(stack["organizer"])}):
        status, headers, body = get(url, credentials)
        assert status == 200 and len(json.loads(body)["rows"]) == 2
        assert "private" in headers["Cache-Control"]
        assert get(url)[0] == 403  # the organizer's answer was not kept for the next visitor
        assert get(url, {"Cookie": session_cookie(stack["team"])})[0] == 403
        assert get(url, {"Cookie": "csrftoken=x"})[0] == 403


def test_hiding_a_cached_board_reaches_anonymous_pollers_within_two_seconds(stack):
    """s-maxage=1; nginx counts whole seconds, so a copy lives up to (not including) two."""
    url = stack["url"] + BOARD
    assert get(url)[0] == 200
    edit_phase(stack["phase"], {"results_visibility": "organizers"})
    assert get(url, {"Cookie": session_cookie(stack["team"])})[0] == 403  # credentials never wait for the cache
    until(lambda: get(url)[0] == 403, timeout=2.05, every=0.1, what="anonymous pollers told the board is hidden")


def test_answers_made_for_one_user_never_reach_another(stack):
    mine = stack["url"] + "/api/me/submissions/"
    careful, balanced = (
        get(mine, {"Authorization": token(stack["team"])}),
        get(mine, {"Authorization": token(User.objects.get(username="balanced"))}),
    )
    assert careful[0] == balanced[0] == 200 and careful[2] != balanced[2]
    assert "X-Cache" not in careful[1]  # only the public board is ever cached
    assert get(mine)[0] in (401, 403)
    page = stack["url"] + "/tasks/proxied/submissions/"
    assert b"careful" in get(page, {"Cookie": session_cookie(stack["team"])})[2].lower()
    anonymous = get(page)
    assert anonymous[0] in (302, 403, 404) or b"Careful.txt" not in anonymous[2]


def test_the_proxys_copy_of_a_public_board_ends_two_seconds_after_its_read_at_most(stack):
    """An answer slow to arrive under load must not live its second from its arrival:
    Django dates its end from when it read the phase (nginx obeys X-Accel-Expires first
    and never passes it on)."""
    import time

    before = time.time()
    direct = get(stack["served"].web_url + BOARD)
    ends = int(direct[1]["X-Accel-Expires"].removeprefix("@"))
    assert int(before) + 1 <= ends <= int(time.time()) + 1
    assert "X-Accel-Expires" not in get(stack["url"] + BOARD)[1]
    edit_phase(stack["phase"], {"results_visibility": "organizers"})
    organizer = {"Authorization": token(stack["organizer"])}
    assert "X-Accel-Expires" not in get(stack["served"].web_url + BOARD, organizer)[1]  # private: never kept
