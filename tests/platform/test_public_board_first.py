"""The WSGI entry point answers public boards before Django (leaderboard/fast_board.py):
for every request it must give exactly what Django alone gives (status, headers, body),
in every state and visibility of a phase, for anonymous visitors, teams and organizers,
and leave to Django everything that depends on who asks or is an error."""
import gzip
import itertools

import pytest
from django.conf import settings
from django.core import signals
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from django.test import Client, RequestFactory
from django.utils.module_loading import import_string

from leaderboard import fast_board
from leaderboard.fast_board import AROUND, PublicBoardFirst
from leaderboard.models import Submission
from leaderboard.services.hosting import edit_phase

from .conftest import client_for, make_user
from .test_api_leaderboard import scored_systems
from .test_api_leaderboard_cache import set_state

PATH = "/api/tasks/small/leaderboard/"
# What each other middleware does, and why a GET of a public board without credentials
# owes it nothing: a new entry in settings.MIDDLEWARE fails the test below until it is
# either applied by the fast path (AROUND) or listed here with its reason.
NOTHING_TO_DO = {
    "whitenoise.middleware.WhiteNoiseMiddleware": "serves /static/ only",
    "django.contrib.sessions.middleware.SessionMiddleware": "the board never reads the session of a public phase",
    "leaderboard.uploads.UploadLimits": "POST uploads only",
    "django.middleware.csrf.CsrfViewMiddleware": "GET is safe; the API view is csrf-exempt",
    "django.contrib.auth.middleware.AuthenticationMiddleware": "a public board needs no user",
    "django.contrib.messages.middleware.MessageMiddleware": "the JSON body shows no messages",
    "leaderboard.errors.ClientErrors": "a malformed parameter goes to Django, which answers the 400",
}


class Counting:
    """The inner application, counting the requests it got."""

    def __init__(self, application):
        self.application, self.calls = application, 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.application(environ, start_response)


@pytest.fixture
def apps(settings):
    """(Django alone, the entry point in front of it); phase rows read fresh on every
    request. Like Django's test client, requests keep the test's database connection."""
    settings.GEC_BOARD_PHASES_SECONDS = 0
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    django = Counting(WSGIHandler())
    yield django, PublicBoardFirst(django)
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


def call(application, path=PATH, **extra):
    captured = {}

    def start_response(status, headers, exc_info=None):
        captured.update(status=status, headers=headers)

    environ = RequestFactory().get(path, **extra).environ
    answer = application(environ, start_response)
    try:
        body = b"".join(answer)
    finally:
        answer.close()
    return captured["status"], sorted(captured["headers"]), body


def same_answer(apps, path=PATH, **extra) -> bool:
    """Both give the same answer; True when the entry point gave it without Django."""
    django, first = apps
    expected = call(django, path, **extra)
    before = django.calls
    assert call(first, path, **extra) == expected, (path, extra)
    return django.calls == before


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


@pytest.fixture
def board(small_texts, phase):
    ids = scored_systems(phase, small_texts, names=("T5", "BART"))
    organizer = make_user("organizer")
    phase.task.organizers.add(organizer)
    team_member = Submission.objects.get(pk=ids["T5"]).submitted_by
    return {"organizer": organizer, "team": team_member}


@pytest.mark.parametrize("revealed", [False, True], ids=["not-revealed", "revealed"])
@pytest.mark.parametrize("visibility", ["public", "after_end", "organizers"])
@pytest.mark.parametrize("state", ["open", "frozen", "ended"])
def test_every_answer_is_djangos_and_only_public_boards_skip_it(apps, board, phase, state, visibility, revealed):
    edit_phase(phase, {"results_visibility": visibility, "revealed": revealed})
    set_state(phase, state)
    cache.clear()
    public = visibility == "public" or revealed or (visibility == "after_end" and state == "ended")
    etag = dict(call(apps[0], HTTP_COOKIE=session_cookie(board["organizer"]))[1])["ETag"]
    viewers = {"anonymous": {}, "team": {"HTTP_COOKIE": session_cookie(board["team"])}, "organizer": {"HTTP_COOKIE": session_cookie(board["organizer"])}}
    variants = ({}, {"HTTP_ACCEPT_ENCODING": "gzip"}, {"HTTP_IF_NONE_MATCH": etag}, {"QUERY_STRING": "metric=errant.cs.f"})
    for (viewer, cookie), variant in itertools.product(viewers.items(), variants):
        query = variant.get("QUERY_STRING", "metric=gotoscorer.f")
        extra = {**cookie, **{k: v for k, v in variant.items() if k != "QUERY_STRING"}}
        skipped_django = same_answer(apps, f"{PATH}?{query}", **extra)
        assert skipped_django == public, (viewer, variant)


def test_the_body_and_its_headers_as_served(apps, board):
    status, headers, body = call(apps[1], f"{PATH}?metric=gotoscorer.f", HTTP_ACCEPT_ENCODING="gzip")
    headers = dict(headers)
    assert status == "200 OK" and headers["Content-Encoding"] == "gzip"
    assert len(__import__("json").loads(gzip.decompress(body))["rows"]) == 2
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin" and headers["Cache-Control"] == "no-cache"


@pytest.mark.parametrize("path, extra", [
    ("/api/tasks/nope/leaderboard/", {}),  # no such task: 404
    (f"{PATH}?phase=test", {}),  # no such phase: 404
    (f"{PATH}?metric=nope.f", {}),  # a malformed parameter: 400
    (f"{PATH}?phase=../x", {}),
    (PATH, {"HTTP_AUTHORIZATION": "Token not-a-token"}),  # credentials: 401 from DRF's rules
    (PATH, {"HTTP_HOST": "evil.example"}),  # a host not allowed: 400
    ("/api/tasks/small/leaderboard/export", {}),
    ("/api/tasks/small/leaderboard", {}),  # Django's slash redirect
])
def test_errors_and_other_urls_are_djangos(apps, board, path, extra):
    assert not same_answer(apps, path, **extra)


def test_a_valid_token_is_djangos_path(apps, board):
    token = client_for(board["team"])._credentials["HTTP_AUTHORIZATION"]
    assert not same_answer(apps, PATH, HTTP_AUTHORIZATION=token)


def test_other_methods_are_djangos(apps, board):
    django, first = apps
    for method in ("post", "head", "options"):
        environ = getattr(RequestFactory(), method)(PATH).environ
        answer = first(environ, lambda *a: None)
        answer.close()
    assert django.calls == 3


def test_an_https_redirect_is_djangos(apps, board, settings):
    settings.SECURE_SSL_REDIRECT = True  # middleware reads it when made
    django = Counting(WSGIHandler())
    first = PublicBoardFirst(django)
    status, headers, _ = call(first, PATH)
    assert status.startswith("301") and dict(headers)["Location"].startswith("https://")
    assert django.calls == 1


def test_every_middleware_is_applied_or_has_nothing_to_do():
    for path in settings.MIDDLEWARE:
        assert import_string(path) in AROUND or path in NOTHING_TO_DO, f"{path}: apply it in leaderboard/fast_board.py or say why not"


def test_phase_rows_are_reread_after_the_window(apps, board, phase, monkeypatch, settings):
    """A phase hidden is refused once the rows a process remembers are older than
    GEC_BOARD_PHASES_SECONDS; until then the board is served as just before."""
    settings.GEC_BOARD_PHASES_SECONDS = 0.1
    django, _ = apps
    first = PublicBoardFirst(django)
    clock = [1000.0]
    monkeypatch.setattr(fast_board.time, "monotonic", lambda: clock[0])
    assert call(first)[0] == "200 OK" and django.calls == 0
    edit_phase(phase, {"results_visibility": "organizers"})
    clock[0] += 0.05
    assert call(first)[0] == "200 OK"
    clock[0] += 0.06
    assert call(first)[0] == "403 Forbidden" and django.calls == 1


def test_the_memo_stays_small(db):
    recent = fast_board.RecentPhases(60)
    for k in range(recent.LIMIT * 3):
        recent(f"no-such-task-{k}", "")
    assert len(recent.read) <= recent.LIMIT
