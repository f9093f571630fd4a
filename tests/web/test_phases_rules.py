"""Phase rules: a hidden (optionally blind) test phase, freeze and reveal by the organizer, rescore."""

import pytest
from django.test import Client

from leaderboard.models import Phase
from tests.conftest import build_insight_task, remove_insight_task

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def hidden_task(django_db_setup, django_db_blocker):
    """A blind test phase whose results only the organizers see; team dave submits T5."""
    with django_db_blocker.unblock():
        data = build_insight_task(
            "hidden", lines=10, teams={"dave": "T5"}, kind="test", results_visibility="organizers", blind=True
        )
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def login(client, username):
    from django.contrib.auth.models import User

    client.force_login(User.objects.get(username=username))
    return client


def test_hidden_phase_shows_no_scores_and_blind_shows_only_received(hidden_task, client):
    login(client, "dave")
    own = hidden_task["submissions"]["T5"]
    html = client.get("/tasks/hidden/").content.decode()
    assert "not public yet" in html and 'data-status="received"' in html and 'id="leaderboard"' not in html
    body = client.get(f"/api/submissions/{own.pk}/").json()
    assert body["status"] == "received" and body["scores"] == {}
    assert client.get("/api/tasks/hidden/leaderboard/").status_code == 403


def test_hidden_but_not_blind_phase_says_scored(hidden_task, client):
    Phase.objects.filter(pk=hidden_task["phase"].pk).update(blind=False)
    login(client, "dave")
    body = client.get(f"/api/submissions/{hidden_task['submissions']['T5'].pk}/").json()
    assert body["status"] == "scored" and body["scores"] == {}
    assert 'data-status="scored"' in client.get("/tasks/hidden/").content.decode()


def test_organizer_reveals_the_results(hidden_task, client):
    login(client, "hidden-organizer")
    assert 'id="leaderboard"' in client.get("/tasks/hidden/").content.decode()
    response = client.post("/tasks/hidden/phase/reveal/?phase=test", {"confirmed": "yes"})
    assert response.status_code == 302
    visitor = Client()
    assert 'id="leaderboard"' in visitor.get("/tasks/hidden/").content.decode()
    assert visitor.get("/api/tasks/hidden/leaderboard/").status_code == 200
    assert login(Client(), "dave").get(f"/api/submissions/{hidden_task['submissions']['T5'].pk}/").json()["scores"]


def test_freeze_refuses_further_uploads(hidden_task, client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    login(client, "hidden-organizer").post("/tasks/hidden/phase/freeze/?phase=test", {"confirmed": "yes"})
    assert Phase.objects.get(pk=hidden_task["phase"].pk).state() == "frozen"
    dave = login(Client(), "dave")
    text = bytes(hidden_task["submissions"]["T5"].content)
    response = dave.post(
        "/api/tasks/hidden/submissions/",
        {"file": SimpleUploadedFile("t5.txt", text), "system_name": "again", "phase": "test"},
    )
    assert response.status_code == 403


def test_only_organizers_act_and_forms_need_csrf(hidden_task):
    assert login(Client(), "dave").post("/tasks/hidden/phase/reveal/?phase=test").status_code == 403
    strict = login(Client(enforce_csrf_checks=True), "hidden-organizer")
    assert strict.post("/tasks/hidden/phase/reveal/?phase=test").status_code == 403
    assert Phase.objects.get(pk=hidden_task["phase"].pk).results_visibility == "organizers"


def test_rescore_everything_is_queued_and_shows_the_ranks(hidden_task, client, django_capture_on_commit_callbacks):
    login(client, "hidden-organizer")
    assert "Rescore everything" in client.get("/tasks/hidden/rescore/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the worker's turn (sync mode)
        response = client.post("/tasks/hidden/rescore/", {"confirmed": "yes"})
    assert response.status_code == 302 and "/tasks/hidden/jobs/" in response["Location"]
    html = client.get(response["Location"]).content.decode()
    table = html.split('id="rank-changes"')[1]
    assert "dave/T5" in table and "Rank before" in html
    assert login(Client(), "dave").post("/tasks/hidden/rescore/").status_code == 403


def test_a_declared_track_must_be_one_of_the_tasks(hidden_task, client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from leaderboard.models import SharedTask

    SharedTask.objects.filter(slug="hidden").update(tracks=["restricted"])
    dave = login(client, "dave")
    text = bytes(hidden_task["submissions"]["T5"].content)
    bad = dave.post(
        "/api/tasks/hidden/submissions/",
        {"file": SimpleUploadedFile("t.txt", text), "system_name": "x", "phase": "test", "track": "open"},
    )
    assert bad.status_code == 400 and "restricted" in bad.json()["errors"][0]["message"]
    good = dave.post(
        "/api/tasks/hidden/submissions/",
        {"file": SimpleUploadedFile("t.txt", text), "system_name": "x", "phase": "test", "track": "restricted"},
    )
    assert good.status_code == 201 and good.json()["track"] == "restricted"
