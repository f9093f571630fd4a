"""The API's defaults with a public dev and a hidden test phase open: uploads and the
board without ``phase`` mean dev; with only the hidden phase open an upload must name it."""

import io

import pytest
from django.utils import timezone

from leaderboard.models import Phase
from leaderboard.services.hosting.task_creation import add_phase

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def dev_and_test(small_task):
    dev = small_task.phases.get()
    test = add_phase(small_task, dev.dataset, kind="test", results_visibility=Phase.Visibility.ORGANIZERS)
    return dev, test


def upload(api, text, **fields):
    return api.post(
        "/api/tasks/small/submissions/",
        {"file": io.BytesIO(text.encode()), "system_name": "t5", **fields},
        format="multipart",
    )


def test_an_upload_without_phase_lands_in_dev(dev_and_test, alice, small_texts):
    response = upload(client_for(alice), small_texts["T5"])
    assert response.status_code == 201, response.content
    assert response.json()["phase"] == "dev"


def test_only_the_hidden_phase_open_an_upload_must_name_it(dev_and_test, alice, small_texts):
    dev, test = dev_and_test
    Phase.objects.filter(pk=dev.pk).update(frozen_at=timezone.now())
    api = client_for(alice)
    refused = upload(api, small_texts["T5"])
    assert refused.status_code == 400
    body = refused.json()
    assert body["phases"] == [
        {
            "kind": "test",
            "name": "test",
            "results_public": False,
            "results": "results hidden until the organizers reveal them",
        }
    ]
    assert "name the phase" in body["errors"][0]["message"]
    named = upload(api, small_texts["T5"], phase="test")
    assert named.status_code == 201 and named.json()["phase"] == "test"


def test_the_board_and_the_task_default_to_dev(dev_and_test, alice):
    api = client_for(alice)
    board = api.get("/api/tasks/small/leaderboard/")
    assert board.status_code == 200 and board.json()["phase"] == "dev"
    task = api.get("/api/tasks/small/").json()
    assert task["default_phase"] == "dev"
    assert {p["kind"]: p["results_public"] for p in task["phases"]} == {"dev": True, "test": False}
