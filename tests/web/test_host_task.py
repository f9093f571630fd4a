"""A host creates a task from gold files on a page; a worker job prepares it; phases are added on the web."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import GoldChunk, OrganizerJob, Phase, SharedTask
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db
LINES = 8


def gold_files():
    return {
        "source": SimpleUploadedFile("source.txt", insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES).encode()),
        "references": [SimpleUploadedFile(p.name, insight_head(p, LINES).encode()) for p in SUBSET_REFS],
    }


def create(client, slug="shared", **extra):
    data = {
        "title": "Shared",
        "slug": slug,
        "description": "a test task",
        "metrics": ["errant", "gotoscorer"],
        "tracks": "restricted, open",
        **gold_files(),
        **extra,
    }
    return client.post("/host/", data)


def test_the_task_is_prepared_in_a_job_with_visible_progress(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = create(host)
    assert response.status_code == 302 and response["Location"] == "/tasks/shared/manage/"
    task = SharedTask.objects.get(slug="shared")
    assert task.status == "preparing" and task.tracks == ["restricted", "open"] and task.datasets.get().prepared == b""
    assert 'href="/tasks/shared/"' not in host.get("/").content.decode()  # not listed while preparing
    assert "Preparing the gold" in host.get("/tasks/shared/manage/").content.decode()
    for callback in queued:  # the worker's turn (sync mode runs the job inline)
        callback()
    task.refresh_from_db()
    job = OrganizerJob.objects.get(task=task)
    assert (task.status, task.progress, job.status, job.result["n_sentences"]) == ("ready", 1.0, "done", LINES)
    assert "Ready" in host.get("/tasks/shared/manage/status/").content.decode()
    assert (
        'href="/tasks/shared/manage/"' in host.get("/host/").content.decode()
    )  # listed for everyone once it has a phase


def test_phases_are_added_with_dates_in_a_time_zone_and_their_own_gold(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create(host)
        dev = host.post(
            "/tasks/shared/phases/new/",
            {
                "kind": "dev",
                "name": "Development",
                "reuse": SharedTask.objects.get(slug="shared").datasets.get().pk,
                "time_zone": "Europe/Berlin",
                "starts_at": "2026-01-01T10:00",
                "ends_at": "2027-03-01T13:00",
                "max_per_day": 3,
                "max_total": 20,
                "results_visibility": "public",
                "counting": "best",
            },
        )
        test = host.post(
            "/tasks/shared/phases/new/",
            {
                "kind": "test",
                "time_zone": "UTC",
                "starts_at": "2026-01-01T00:00",
                "ends_at": "2027-03-01T12:00",
                "max_total": 2,
                "results_visibility": "organizers",
                "blind": "on",
                "counting": "chosen",
                **gold_files(),
            },
        )
    assert dev.status_code == 302 and test.status_code == 302
    dev, test = Phase.objects.get(kind="dev"), Phase.objects.get(kind="test")
    assert dev.ends_at == dt.datetime(2027, 3, 1, 12, 0, tzinfo=dt.UTC)  # 13:00 in Berlin
    assert (dev.counting, dev.max_per_day, dev.time_zone) == ("best", 3, "Europe/Berlin")
    assert test.dataset_id != dev.dataset_id and test.dataset.is_prepared and test.blind
    assert GoldChunk.objects.filter(phase=test).count() == GoldChunk.objects.filter(phase=dev).count() > 0
    page = host.get("/tasks/shared/manage/").content.decode()
    assert "2027-03-01 12:00 UTC (2027-03-01 13:00 Europe/Berlin)" in page
    edit = host.get("/tasks/shared/phases/dev/edit/").content.decode()
    assert 'value="2027-03-01T13:00"' in edit  # shown back in its own zone


def test_a_second_phase_with_the_same_key_is_a_form_error(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create(host)
    dataset = SharedTask.objects.get(slug="shared").datasets.get().pk
    fields = {
        "kind": "dev",
        "reuse": dataset,
        "time_zone": "UTC",
        "starts_at": "2026-01-01T00:00",
        "results_visibility": "public",
        "counting": "latest",
    }
    assert host.post("/tasks/shared/phases/new/", fields).status_code == 302
    again = host.post("/tasks/shared/phases/new/", fields)
    assert again.status_code == 400 and "has a phase dev already" in again.content.decode()
    assert Phase.objects.filter(kind="dev").count() == 1


def test_phase_must_end_after_it_starts_and_needs_gold(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create(host)
    html = host.post(
        "/tasks/shared/phases/new/",
        {
            "kind": "dev",
            "time_zone": "UTC",
            "starts_at": "2026-02-01T00:00",
            "ends_at": "2026-01-01T00:00",
            "results_visibility": "public",
            "counting": "latest",
        },
    ).content.decode()
    assert "the phase must end after it starts" in html
    html = host.post(
        "/tasks/shared/phases/new/",
        {
            "kind": "dev",
            "time_zone": "UTC",
            "starts_at": "2026-02-01T00:00",
            "results_visibility": "public",
            "counting": "latest",
        },
    ).content.decode()
    assert "choose the task&#x27;s gold or upload new gold files" in html


def test_only_hosts_create_tasks_and_the_403_says_how_to_become_one(client):
    client.force_login(User.objects.create_user("pat", password="pw"))
    response = client.get("/host/")
    assert response.status_code == 403 and "grant_host" in response.content.decode()
    assert "Host a task" not in client.get("/").content.decode()


def test_an_existing_slug_is_a_form_error(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create(host)
    response = create(host)
    assert response.status_code == 400 and "exists already" in response.content.decode()


def test_a_failed_preparation_says_why_and_runs_again(host, django_capture_on_commit_callbacks):
    from leaderboard.services.hosting.organizer_jobs import fail_job

    with django_capture_on_commit_callbacks(execute=False):
        create(host)
    job = OrganizerJob.objects.get()
    fail_job(job.pk, "internal error: the worker was lost")
    assert SharedTask.objects.get().status == "failed"
    status = host.get("/tasks/shared/manage/status/").content.decode()
    assert "the worker was lost" in status and f"/tasks/shared/jobs/{job.pk}/" in status
    assert "Run it again" in host.get(f"/tasks/shared/jobs/{job.pk}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        host.post(f"/tasks/shared/jobs/{job.pk}/again/")
    assert SharedTask.objects.get().status == "ready" and OrganizerJob.objects.get().status == "done"


def test_a_phase_is_edited_in_its_time_zone_and_keeps_its_key(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create(host)
    dataset = SharedTask.objects.get(slug="shared").datasets.get().pk
    host.post(
        "/tasks/shared/phases/new/",
        {
            "kind": "dev",
            "reuse": dataset,
            "time_zone": "UTC",
            "starts_at": "2026-01-01T00:00",
            "results_visibility": "public",
            "counting": "latest",
        },
    )
    response = host.post(
        "/tasks/shared/phases/dev/edit/",
        {
            "kind": "renamed",
            "name": "Dev",
            "time_zone": "America/New_York",
            "starts_at": "2026-01-01T07:00",
            "ends_at": "2026-12-31T19:00",
            "max_total": 9,
            "results_visibility": "after_end",
            "counting": "chosen",
        },
    )
    assert response.status_code == 302
    phase = Phase.objects.get()
    assert (phase.kind, phase.name, phase.max_total, phase.counting, phase.results_visibility) == (
        "dev",
        "Dev",
        9,
        "chosen",
        "after_end",
    )
    assert phase.starts_at == dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC) and phase.ends_at == dt.datetime(
        2027, 1, 1, 0, tzinfo=dt.UTC
    )


def test_the_headline_metric_must_be_one_of_the_chosen_metrics(host):
    response = create(host, metrics=["errant"], headline_metric="usim.f")
    assert (
        response.status_code == 400 and "usim.f is not one of the task&#x27;s score paths" in response.content.decode()
    )


def test_the_new_phase_form_offers_dev_then_a_hidden_test(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create(host)
    first = host.get("/tasks/shared/phases/new/").content.decode()
    assert 'name="kind" value="dev"' in first and '<option value="public" selected>' in first
    dataset = SharedTask.objects.get(slug="shared").datasets.get().pk
    host.post(
        "/tasks/shared/phases/new/",
        {
            "kind": "dev",
            "reuse": dataset,
            "time_zone": "UTC",
            "starts_at": "2026-01-01T00:00",
            "results_visibility": "public",
            "counting": "latest",
        },
    )
    second = host.get("/tasks/shared/phases/new/").content.decode()
    assert 'name="kind" value="test"' in second and '<option value="organizers" selected>' in second


def test_a_task_is_neither_listed_nor_served_until_its_gold_is_ready_and_it_has_a_phase(
    host, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        create(host)
    assert client.get("/api/tasks/shared/").status_code == 404  # preparing
    for callback in queued:
        callback()
    assert client.get("/api/tasks/shared/").status_code == 404  # ready, but no phase to open
    assert 'href="/tasks/shared/"' not in client.get("/").content.decode()
    assert [t["slug"] for t in client.get("/api/tasks/").json()] == []
    dataset = SharedTask.objects.get(slug="shared").datasets.get().pk
    host.post(
        "/tasks/shared/phases/new/",
        {
            "kind": "dev",
            "reuse": dataset,
            "time_zone": "UTC",
            "starts_at": "2026-01-01T00:00",
            "results_visibility": "public",
            "counting": "latest",
        },
    )
    assert client.get("/api/tasks/shared/").json()["phases"][0]["kind"] == "dev"
    assert 'href="/tasks/shared/"' in client.get("/").content.decode()
    assert [t["slug"] for t in client.get("/api/tasks/").json()] == ["shared"]


def test_a_new_phase_without_a_start_opens_now_whatever_the_time_zone(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create(host)
    assert 'name="starts_at" value=' not in host.get("/tasks/shared/phases/new/").content.decode()
    dataset = SharedTask.objects.get(slug="shared").datasets.get().pk
    response = host.post(
        "/tasks/shared/phases/new/",
        {
            "kind": "dev",
            "reuse": dataset,
            "time_zone": "Etc/GMT+12",
            "starts_at": "",
            "results_visibility": "public",
            "counting": "latest",
        },
    )
    assert response.status_code == 302
    assert Phase.objects.get(kind="dev").state() == "open"
