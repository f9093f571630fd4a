"""Every bad request body is a 4xx, refused before it costs anything: JSON nested a
thousand deep is a 400 (it was a ``RecursionError``, a 500, anonymously), a JSON or form
body over ``GEC_MAX_JSON_BODY_BYTES`` is a 413 before it is read (DRF reads the stream
itself, past Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``; the password throttle parsed a 68 MB
body first), and an error answer stays small whatever the body held."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.parsers import MultiPartParser
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from leaderboard.api.errors import MAX_MESSAGE_CHARS, MAX_MESSAGES
from leaderboard.api.parsers import BOUNDED, MAX_DEPTH
from leaderboard.models import SharedTask
from tests.campaigns.support import annotator

pytestmark = pytest.mark.django_db
TOKEN = "/api/auth/token/"


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


class Unread:
    """A request body that must not be read: the refusal comes from its declared length."""

    def read(self, *_):
        raise AssertionError("the body was read")

    readline = read


@pytest.mark.parametrize(
    "body",
    [
        nested(1000),
        '{"username": ' + nested(1000, '"ann"') + ', "password": "x"}',
        '{"username": "ann", "password": ' + nested(MAX_DEPTH + 1) + "}",
        "{" * 5000,
    ],
    ids=["a deep array", "deep inside username", "one level too deep", "unclosed"],
)
def test_deep_json_to_the_token_endpoint_is_a_400(body):
    answer = Client().post(TOKEN, body, content_type="application/json")
    assert answer.status_code == 400, answer.content
    message = answer.json()["errors"][0]["message"]
    assert message.startswith("JSON parse error") and len(answer.content) < 1000


def test_json_as_deep_as_allowed_is_parsed():
    body = {"username": "ann", "password": json.loads(nested(MAX_DEPTH - 1))}
    answer = Client().post(TOKEN, body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["errors"][0]["message"].startswith(
        "password: "
    )  # read, then refused


def test_deep_json_to_a_judgment_is_a_400(settings):
    user = annotator("deep")
    client = APIClient()
    client.force_authenticate(user)
    answer = client.post(
        "/api/tasks/nowhere/campaigns/none/judgments/",
        '{"item": 1, "ranks": {"A": ' + nested(1000) + "}}",
        content_type="application/json",
    )
    assert answer.status_code in (400, 404)  # parsed before the campaign is looked up, or after: never a 500


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b"]
)
def test_a_body_over_the_limit_is_a_413_before_it_is_read(settings, content_type):
    settings.GEC_MAX_JSON_BODY_BYTES = 1000
    answer = Client().generic(
        "POST", TOKEN, **{"wsgi.input": Unread(), "CONTENT_LENGTH": "68000000", "CONTENT_TYPE": content_type}
    )
    assert answer.status_code == 413, answer.content
    assert "GEC_MAX_JSON_BODY_BYTES" in answer.json()["detail"]


def test_a_body_at_the_limit_is_read(settings):
    body = json.dumps({"username": "ann", "password": "x" * 100})
    settings.GEC_MAX_JSON_BODY_BYTES = len(body)
    assert Client().post(TOKEN, body, content_type="application/json").status_code == 401
    settings.GEC_MAX_JSON_BODY_BYTES = len(body) - 1
    assert Client().post(TOKEN, body, content_type="application/json").status_code == 413


def test_an_oversized_judgment_is_a_413(settings):
    settings.GEC_MAX_JSON_BODY_BYTES = 1000
    client = APIClient()
    client.force_authenticate(annotator("big"))
    body = json.dumps({"item": 1, "ranks": {f"k{i}": 1 for i in range(500)}})
    answer = client.post("/api/tasks/insight/campaigns/human/judgments/", body, content_type="application/json")
    assert answer.status_code in (404, 413)  # no such task here: a 404 if it was looked up first
    answer = client.post("/api/tasks/x/campaigns/y/judgments/", body, content_type="application/json")
    assert answer.status_code != 500


def test_the_password_throttle_reads_a_username_not_a_structure(settings):
    User.objects.create_user("ann", password="right password")
    for username in ([["ann"]], {"a": [1] * 1000}, 12, "x" * 10_000):
        answer = Client().post(TOKEN, {"username": username, "password": "x"}, content_type="application/json")
        assert answer.status_code == (400 if isinstance(username, (list, dict)) else 401), (username, answer.content)


def api_views() -> list[tuple[str, type]]:
    """Every API view class the URLs route to."""
    found = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and hasattr(pattern.callback, "cls"):
                found.append((prefix + str(pattern.pattern), pattern.callback.cls))

    walk(get_resolver().url_patterns, "")
    return found


def test_every_api_view_parses_bodies_within_the_bounds():
    assert set(api_settings.DEFAULT_PARSER_CLASSES) <= set(BOUNDED)
    views = api_views()
    assert any(route.startswith("api/auth/token") for route, _ in views)
    for route, view in views:
        assert set(view.parser_classes) <= set(BOUNDED), (route, view.parser_classes)
        if MultiPartParser in view.parser_classes:  # no limit but the uploads': only where a file is sent
            assert route.endswith(("submissions/", "import/")), route


def test_an_error_answer_is_bounded():
    """A serializer that finds a problem in each of thousands of values answers a few lines."""
    organizer = User.objects.create_user("organizer", password="pw")
    SharedTask.objects.create(slug="bounded", title="Bounded").organizers.add(organizer)
    client = APIClient()
    client.force_authenticate(organizer)
    body = {"name": "x", "annotators": [[]] * 5000, "screens_per_annotator": 2, "systems": ["x" * 5000]}
    answer = client.post("/api/tasks/bounded/campaigns/", body, format="json")
    assert answer.status_code == 400
    messages = [e["message"] for e in answer.json()["errors"]]
    assert len(messages) == MAX_MESSAGES + 1 and messages[-1].startswith("... and ")
    assert all(len(m) <= MAX_MESSAGE_CHARS for m in messages) and "ErrorDetail" not in answer.content.decode()
    assert messages[0].startswith("annotators.0: ")  # the key at fault, dotted
