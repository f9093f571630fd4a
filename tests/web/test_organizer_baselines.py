"""Baselines uploaded from the organizer page: checked now, scored in the queue, outside the limits."""

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import Dataset, Phase, Submission
from leaderboard.services.hosting import phases
from leaderboard.services.hosting.task_creation import create_task
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head, jobs_queued

pytestmark = pytest.mark.django_db
LINES = 4
OUTPUT = insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES).encode()


@pytest.fixture
def organizer(client):
    task = create_task(
        "base",
        title="Base",
        source=OUTPUT.decode(),
        metrics=["errant"],
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
        max_total=0,
    )
    user = User.objects.create_user("olga", password="pw")
    task.organizers.add(user)
    client.force_login(user)
    return client


def upload(client, content=OUTPUT, name="INPUT"):
    return client.post(
        "/tasks/base/baselines/",
        {"phase": "dev", "system_name": name, "file": SimpleUploadedFile("input.txt", content)},
        follow=True,
    )


def test_a_baseline_is_queued_and_scored_outside_limits_and_freezes(organizer, django_capture_on_commit_callbacks):
    phases.freeze(Phase.objects.get())
    with django_capture_on_commit_callbacks(execute=False) as queued:
        html = upload(organizer).content.decode()
    baseline = Submission.objects.get()
    queued = jobs_queued(queued)
    assert baseline.is_baseline and baseline.status == "queued" and len(queued) == 1
    assert "Baseline INPUT is queued for scoring." in html and 'id="baselines"' in html
    queued[0]()
    assert Submission.objects.get().status == "scored"


def test_a_bad_baseline_is_refused_with_its_lines(organizer):
    html = upload(organizer, content=b"one line only\n").content.decode()
    assert "The baseline was not accepted" in html and "line 1: the file ends here" in html
    assert not Submission.objects.exists()


def test_no_baseline_while_the_gold_is_being_prepared(organizer):
    Dataset.objects.update(prepared=b"")
    assert "still being prepared" in upload(organizer).content.decode() and not Submission.objects.exists()


def test_participants_may_not_upload_baselines(organizer, client):
    client.force_login(User.objects.create_user("pat", password="pw"))
    assert upload(client).status_code == 403
