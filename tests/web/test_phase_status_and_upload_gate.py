"""Every task page shows the phase's state, its deadline with a countdown and the team's remaining
submissions; the upload form is disabled with the reason when the user may not upload."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from leaderboard.models import Dataset, Phase, SharedTask, Submission, Team
from leaderboard.services.hosting import phases
from leaderboard.services.hosting.task_creation import create_task
from leaderboard.services.submissions.intake import team_of
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db
LINES = 4
OUTPUT = insight_head(SUBSET_OUTPUTS / "T5.txt", LINES).encode()


@pytest.fixture
def phase(db):
    task = create_task(
        "gate",
        title="Gate",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES),
        metrics=["errant"],
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
        ends_at=timezone.now() + dt.timedelta(days=3),
        max_per_day=2,
        max_total=3,
        time_zone="Asia/Tokyo",
    )
    return task.phases.get()


@pytest.fixture
def pat(client):
    client.force_login(User.objects.create_user("pat", password="pw"))
    return client


def submitted(phase, n, *, status=Submission.Status.SCORED):
    team = team_of(User.objects.get(username="pat"), phase.task)
    for k in range(n):
        Submission.objects.create(
            phase=phase,
            team=team,
            system_name=f"s{k}",
            filename="s.txt",
            content=OUTPUT,
            size=len(OUTPUT),
            status=status,
        )


def used_all_earlier(phase):
    submitted(phase, 3, status=Submission.Status.QUEUED)
    Submission.objects.update(created_at=timezone.now() - dt.timedelta(days=2))


def unapproved(phase):
    Team.objects.update(approved=False)


def teamless_with_signup(signup):
    Team.objects.all().delete()
    SharedTask.objects.update(signup=signup)


def upload(client):
    return client.post("/tasks/gate/submit/", {"system_name": "again", "file": SimpleUploadedFile("t5.txt", OUTPUT)})


def test_the_board_shows_state_deadline_countdown_and_quota(pat, phase):
    submitted(phase, 1)
    submitted(phase, 2, status=Submission.Status.FAILED)  # failures do not count
    html = pat.get("/tasks/gate/").content.decode()
    assert '<span class="state">open</span>' in html and 'class="countdown" datetime="' in html
    assert f'closes <span class="when">{phase.ends_at:%Y-%m-%d %H:%M} UTC (' in html and "Asia/Tokyo)" in html
    assert (
        "your team has 1 of 2 submissions left today (UTC)" in " ".join(html.split())
        and "2 of 3 left in this phase" in html
    )
    assert "upload-closed" not in html


@pytest.mark.parametrize(
    "change, reason",
    [
        (
            lambda p: Phase.objects.filter(pk=p.pk).update(starts_at=timezone.now() + dt.timedelta(days=1)),
            "The dev phase opens on ",
        ),
        (lambda p: phases.freeze(p), "The organizers have frozen the dev phase"),
        (
            lambda p: Phase.objects.filter(pk=p.pk).update(
                starts_at=timezone.now() - dt.timedelta(days=2), ends_at=timezone.now() - dt.timedelta(days=1)
            ),
            "The dev phase ended on ",
        ),
        (lambda p: submitted(p, 2), "Your team has used its 2 submissions for today"),
        (used_all_earlier, "Your team has used all 3 submissions of this phase."),
        (unapproved, "Your team pat waits for the organizers"),
        (lambda p: teamless_with_signup("closed"), "Registration for Gate is closed"),
        (lambda p: teamless_with_signup("approval"), "Register your team first"),
        (lambda p: Dataset.objects.update(prepared=b""), "The gold of the dev phase is still being prepared"),
    ],
)
def test_the_upload_form_is_disabled_with_the_reason(pat, phase, change, reason):
    team_of(User.objects.get(username="pat"), phase.task)
    change(phase)
    page = pat.get("/tasks/gate/submit/")
    html = page.content.decode()
    assert page.status_code == 200 and "<fieldset disabled>" in html and reason in html.replace("&#x27;", "'")
    assert reason in pat.get("/tasks/gate/").content.decode().replace("&#x27;", "'")  # on the board too
    response = upload(pat)
    assert response.status_code == 403 and not Submission.objects.filter(system_name="again").exists()


def test_an_open_phase_offers_the_form(pat, phase):
    html = pat.get("/tasks/gate/submit/").content.decode()
    assert "<fieldset>" in html and "upload-closed" not in html
    assert upload(pat).status_code == 302


def test_the_navigation_shows_only_pages_the_user_may_open(client, phase):
    Phase.objects.filter(pk=phase.pk).update(results_visibility="organizers")
    html = client.get("/tasks/gate/").content.decode()
    assert "Difficulty heat map" not in html and "Per error type" not in html and "Organize" not in html
    organizer = User.objects.create_user("olga", password="pw")
    phase.task.organizers.add(organizer)
    client.force_login(organizer)
    html = client.get("/tasks/gate/").content.decode()
    assert "Difficulty heat map" in html and "Per error type" in html and "/tasks/gate/manage/" in html
