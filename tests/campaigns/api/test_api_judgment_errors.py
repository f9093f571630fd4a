"""A refused judgment says what is wrong in plain words naming the key at fault, in a few
lines and at once: ranks are whole numbers ("1", "1.0" and 1.0 are not, 0 is out of range),
and 100,000 bad ranks were 13 s of work answered with 8 MB of ``ErrorDetail`` reprs."""

from __future__ import annotations

import json
import time

import pytest
from rest_framework.test import APIClient

from leaderboard.api.errors import MAX_MESSAGES
from leaderboard.models import Judgment
from tests.campaigns.support import annotator, make_campaign

pytestmark = pytest.mark.django_db
URL = "/api/tasks/insight/campaigns/human/"


@pytest.fixture
def screen(insight_task, django_capture_on_commit_callbacks):
    make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, screens_per_annotator=2
    )
    client = APIClient()
    client.force_authenticate(annotator("ann1"))
    body = client.get(URL + "next/").json()
    return client, body["item"], [o["key"] for o in body["outputs"]]


def post(client, body):
    return client.post(URL + "judgments/", json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("bad", ["1", "1.0", 1.0, 0, -1, True, None, [1], 99])
def test_a_rank_is_a_whole_number_on_the_screen(screen, bad):
    client, item, keys = screen
    ranks = {key: rank for rank, key in enumerate(keys, start=1)}
    ranks[keys[0]] = bad
    answer = post(client, {"item": item, "ranks": ranks})
    assert answer.status_code == 400, (bad, answer.content)
    messages = [e["message"] for e in answer.json()["errors"]]
    assert messages == [f"ranks: {keys[0]}'s rank must be a whole number from 1 (best) to {len(keys)} (got {bad!r})"], (
        messages
    )
    assert not Judgment.objects.exists()


def test_whole_ranks_are_stored(screen, django_capture_on_commit_callbacks):
    client, item, keys = screen
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(client, {"item": item, "ranks": {key: 1 for key in keys}})  # ties allowed
    assert answer.status_code == 201, answer.content


def test_a_hundred_thousand_bad_ranks_are_refused_at_once_in_a_few_lines(screen, settings):
    settings.GEC_MAX_JSON_BODY_BYTES = 8 * 1024 * 1024  # the size limit is another test's: this is the checks' cost
    client, item, keys = screen
    ranks = {**{key: 0 for key in keys}, **{f"x{i}": "1.0" for i in range(100_000)}}
    started = time.perf_counter()
    answer = post(client, {"item": item, "ranks": ranks})
    seconds = time.perf_counter() - started
    assert answer.status_code == 400
    assert len(answer.content) < 20_000 and "ErrorDetail" not in answer.content.decode()
    messages = [e["message"] for e in answer.json()["errors"]]
    assert len(messages) <= MAX_MESSAGES + 1
    assert any(m.startswith("ranks: no output x0, x1") for m in messages), messages
    assert any(m.startswith(f"ranks: {keys[0]}'s rank must be a whole number") for m in messages), messages
    assert seconds < 5, f"{seconds:.1f} s"  # 13 s before, on a quiet machine


def test_bad_edits_name_the_key_without_reprs(screen):
    client, item, keys = screen
    answer = post(client, {"item": item, "ranks": {k: 1 for k in keys}, "edits": {keys[0]: ["yes"] * 50_000}})
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "ErrorDetail" not in text and len(text) < 5_000 and "edits" in text


def test_a_value_sent_back_in_an_error_is_cut_short(screen):
    client, item, keys = screen
    answer = post(client, {"item": item, "ranks": {**{k: 1 for k in keys}, keys[0]: "9" * 100_000}})
    assert answer.status_code == 400 and len(answer.content) < 1_000
