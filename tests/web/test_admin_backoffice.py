"""The admin as the organizer's back office: every model, filters and search, the phase actions,
queued rescores, re-queued submissions and failed submissions with their error."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User

from leaderboard.models import OrganizerJob, Phase, Submission
from leaderboard.services.hosting.task_creation import create_task
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head, jobs_queued

pytestmark = pytest.mark.django_db
LINES = 4
OUTPUT = insight_head(SUBSET_OUTPUTS / "T5.txt", LINES).encode()


@pytest.fixture
def staff(client):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    return client


@pytest.fixture
def phase(db):
    task = create_task(
        "office",
        title="Office",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES),
        metrics=["errant"],
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
        kind="test",
        results_visibility="organizers",
    )
    return task.phases.get()


def failed_submission(phase, error="line 3: the file ends here", cause=Submission.FailureCause.INPUT):
    from leaderboard.services.submissions.intake import team_of

    team = team_of(User.objects.get(username="root"), phase.task)
    return Submission.objects.create(
        phase=phase,
        team=team,
        system_name="broken",
        filename="b.txt",
        content=OUTPUT,
        size=len(OUTPUT),
        status=Submission.Status.FAILED,
        error=error,
        failure_cause=cause,
    )


def test_every_model_is_registered_with_filters_and_search():
    for model in apps.get_app_config("leaderboard").get_models():
        model_admin = admin.site._registry.get(model)
        assert model_admin is not None, f"{model.__name__} is not in the admin"
        assert model_admin.list_filter and model_admin.search_fields, model.__name__


@pytest.mark.parametrize("model", [m._meta.model_name for m in apps.get_app_config("leaderboard").get_models()])
def test_every_changelist_opens(staff, phase, model):
    failed_submission(phase)
    response = staff.get(f"/admin/leaderboard/{model}/", {"q": "x"})
    assert response.status_code == 200


def act(client, model, action, pks):
    return client.post(f"/admin/leaderboard/{model}/", {"action": action, "_selected_action": pks}, follow=True)


def test_phase_actions_freeze_reveal_and_undo(staff, phase):
    for action, check in [
        ("freeze", lambda p: p.frozen_at is not None),
        ("unfreeze", lambda p: p.frozen_at is None),
        ("reveal", lambda p: p.revealed),
        ("hide", lambda p: not p.revealed),
    ]:
        assert act(staff, "phase", action, [phase.pk]).status_code == 200
        assert check(Phase.objects.get(pk=phase.pk)), action


def test_rescore_from_the_admin_is_queued(staff, phase, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = act(staff, "phase", "rescore", [phase.pk])
    job = OrganizerJob.objects.get()
    assert (job.kind, job.status, len(queued)) == ("rescore", "queued", 1)
    assert f"/tasks/office/jobs/{job.pk}/" in response.content.decode()


def test_failed_submissions_show_their_error_and_can_be_requeued(staff, phase, django_capture_on_commit_callbacks):
    broken = failed_submission(phase)
    html = staff.get("/admin/leaderboard/submission/", {"failure": "input"}).content.decode()
    assert "line 3: the file ends here" in html and "broken" in html
    assert "broken" not in staff.get("/admin/leaderboard/submission/", {"failure": "platform"}).content.decode()
    with django_capture_on_commit_callbacks(execute=False) as queued:
        act(staff, "submission", "requeue", [broken.pk])
    assert Submission.objects.get(pk=broken.pk).status == "queued" and len(jobs_queued(queued)) == 1


def test_a_failed_job_runs_again(staff, phase, django_capture_on_commit_callbacks):
    job = OrganizerJob.objects.create(kind="rescore", task=phase.task, status="failed", message="worker lost")
    with django_capture_on_commit_callbacks(execute=True):
        act(staff, "organizerjob", "run_again", [job.pk])
    job.refresh_from_db()
    assert job.status == "done" and "changes" in job.result
