"""Participants accept a task's terms before their first submission: the upload page, the
API and the client's upload are refused with a message naming how to accept; accepting
(web or API) is recorded with the time and the terms' version, and new terms ask again."""

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import Submission, TermsAcceptance
from leaderboard.models.pages import terms_version
from leaderboard.services.hosting.task_pages import save_page
from tests.support.task_pages_support import OUTPUT, SLUG, api_client_of, client_of, season_task

pytestmark = pytest.mark.django_db
TERMS = "Use the data for research only."


@pytest.fixture
def task(db):
    task = season_task()
    save_page(task, "terms", TERMS)
    return task


def upload(client, url):
    return client.post(url, {"system_name": "s", "phase": "dev", "file": SimpleUploadedFile("s.txt", OUTPUT.encode())})


def test_uploads_are_refused_until_the_terms_are_accepted(task):
    page = upload(client_of("participant"), f"/tasks/{SLUG}/submit/?phase=dev")
    assert page.status_code == 403
    text = page.content.decode()
    assert "You have not accepted the terms yet" in text and f"/tasks/{SLUG}/pages/terms/" in text
    api = upload(api_client_of("participant"), f"/api/tasks/{SLUG}/submissions/")
    message = api.json()["errors"][0]["message"]
    assert (
        api.status_code == 403
        and f"gec-submit accept-terms {SLUG}" in message
        and f"POST /api/tasks/{SLUG}/terms/" in message
    )
    assert not Submission.objects.exists()


def test_accepting_on_the_terms_tab_records_time_and_version(task):
    client = client_of("participant")
    tab = client.get(f"/tasks/{SLUG}/pages/terms/").content.decode()
    assert TERMS in tab and "I accept these terms" in tab
    client.post(f"/tasks/{SLUG}/terms/accept/", {"version": terms_version(TERMS)})
    acceptance = TermsAcceptance.objects.get(user__username="pat")
    assert acceptance.version == terms_version(TERMS) and acceptance.accepted_at is not None
    assert "You accepted these terms on" in client.get(f"/tasks/{SLUG}/pages/terms/").content.decode()
    assert upload(client, f"/tasks/{SLUG}/submit/?phase=dev").status_code == 302


def test_accepting_over_the_api(task):
    client = api_client_of("participant")
    read = client.get(f"/api/tasks/{SLUG}/terms/").json()
    assert read == {"task": SLUG, "version": terms_version(TERMS), "markdown": TERMS, "accepted_at": None}
    accepted = client.post(f"/api/tasks/{SLUG}/terms/", {"version": read["version"]})
    assert accepted.status_code == 200 and accepted.json()["version"] == read["version"]
    assert client.get(f"/api/tasks/{SLUG}/terms/").json()["accepted_at"] == accepted.json()["accepted_at"]
    assert upload(client, f"/api/tasks/{SLUG}/submissions/").status_code == 201


def test_new_terms_ask_again_and_a_stale_version_is_refused(task):
    client = api_client_of("participant")
    client.post(f"/api/tasks/{SLUG}/terms/", {"version": terms_version(TERMS)})
    save_page(task, "terms", TERMS + " Cite the overview paper.")
    refused = upload(client, f"/api/tasks/{SLUG}/submissions/")
    assert (
        refused.status_code == 403
        and "The terms changed since you accepted them" in refused.json()["errors"][0]["message"]
    )
    stale = client.post(f"/api/tasks/{SLUG}/terms/", {"version": terms_version(TERMS)})
    assert stale.status_code == 409 and "read them again" in stale.json()["errors"][0]["message"]
    assert client.post(f"/api/tasks/{SLUG}/terms/", {}).status_code == 200
    assert TermsAcceptance.objects.filter(user__username="pat").count() == 2


def test_anonymous_visitors_read_the_terms_but_cannot_accept(task):
    assert TERMS in client_of("anonymous").get(f"/tasks/{SLUG}/pages/terms/").content.decode()
    assert api_client_of("anonymous").post(f"/api/tasks/{SLUG}/terms/", {}).status_code in (401, 403)
    assert client_of("anonymous").post(f"/tasks/{SLUG}/terms/accept/").status_code == 302  # to the log-in page
    assert not TermsAcceptance.objects.exists()


def test_a_task_without_terms_asks_nothing_and_baselines_skip_the_terms(task):
    from leaderboard.services.submissions.intake import accept_submission

    organizer = User.objects.get(username="org")
    accept_submission(
        task.phases.get(kind="dev"),
        organizer,
        system_name="b",
        filename="b.txt",
        content=OUTPUT.encode(),
        is_baseline=True,
        enforce_limits=False,
        queue=False,
    )
    save_page(task, "terms", "")
    assert upload(api_client_of("participant"), f"/api/tasks/{SLUG}/submissions/").status_code == 201
