"""Free text has a length limit and names hold no invisible characters, on every path:
forms, the API, services and the models (a 1,000,000-character
description was stored and served; names could hold U+202E)."""

import unicodedata

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

import scoring
from leaderboard.models import Phase, SharedTask, Submission, Team
from leaderboard.models.text import SUBMISSION_DESCRIPTION_MAX, TASK_DESCRIPTION_MAX, invisible_characters
from leaderboard.services.submissions.intake import accept_submission
from leaderboard.services.teams import actions as teams
from leaderboard.views.hosting_forms import PhaseForm, TaskForm
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db
LINES = 5
HUGE = "x" * 1_000_000
BIDI = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200e",
    "\u200f",
    "\u061c",
]
OTHER_INVISIBLE = ["\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad", "\x07"]


@pytest.fixture
def task(db):
    from leaderboard.services.hosting.task_creation import create_task

    return create_task(
        "limits",
        title="Limits",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES),
        metrics=["errant"],
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
    )


@pytest.fixture
def ann(db):
    return User.objects.create_user("ann", password="pw")


def output() -> bytes:
    return insight_head(SUBSET_OUTPUTS / "T5.txt", LINES).encode()


@pytest.mark.parametrize("char", BIDI + OTHER_INVISIBLE)
def test_every_bidirectional_control_and_invisible_character_is_named(char):
    assert invisible_characters(f"team{char}name") == [f"U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')})"]


def test_ordinary_names_in_any_script_pass():
    for name in ("Fast Fixers", "Équipe Été", "Команда", "فريق", "צוות", "チーム", "team_2 (v1.0)"):
        assert invisible_characters(name) == []


def test_the_api_refuses_a_huge_description_and_a_reversed_system_name(task, ann):
    client = APIClient()
    client.force_authenticate(ann)

    def upload(**fields):
        return client.post(
            "/api/tasks/limits/submissions/",
            {"file": SimpleUploadedFile("t5.txt", output()), **fields},
            format="multipart",
        )

    huge = upload(system_name="t5", description=HUGE)
    assert (
        huge.status_code == 400
        and f"no more than {SUBMISSION_DESCRIPTION_MAX} characters" in huge.json()["errors"][0]["message"]
    )
    reversed_name = upload(system_name="good\u202edab")
    assert (
        reversed_name.status_code == 400
        and "U+202E (RIGHT-TO-LEFT OVERRIDE)" in reversed_name.json()["errors"][0]["message"]
    )
    assert not Submission.objects.exists()


def test_the_upload_page_refuses_them_too(task, ann):
    client = Client()
    client.force_login(ann)
    page = client.post(
        "/tasks/limits/submit/",
        {"system_name": "t5\u2067", "description": HUGE, "file": SimpleUploadedFile("t5.txt", output())},
    )
    html = page.content.decode()
    assert "U+2067 (RIGHT-TO-LEFT ISOLATE)" in html and f"at most {SUBMISSION_DESCRIPTION_MAX} characters" in html
    assert not Submission.objects.exists()


def test_the_service_refuses_them_whatever_calls_it(task, ann):
    with pytest.raises(scoring.InputError, match="description: at most 2000 characters"):
        accept_submission(
            task.phases.get(), ann, system_name="t5", filename="t5.txt", content=output(), description=HUGE, queue=False
        )
    with pytest.raises(scoring.InputError, match="system name: a name may not hold"):
        accept_submission(
            task.phases.get(), ann, system_name="t5\u200f", filename="t5.txt", content=output(), queue=False
        )


def test_team_names_refuse_invisible_characters(task, ann):
    with pytest.raises(teams.TeamError, match="team name: a name may not hold .*U\\+202E"):
        teams.register_team(ann, task, "Fixers\u202e")
    team = teams.register_team(ann, task, "Fixers")
    with pytest.raises(teams.TeamError, match="U\\+200B"):
        teams.rename_team(team, "Fix\u200bers")
    client = Client()
    client.force_login(User.objects.create_user("ben", password="pw"))
    page = client.post("/tasks/limits/team/create/", {"name": "Evil\u202eTeam"}, follow=True).content.decode()
    assert "a name may not hold" in page and not Team.objects.filter(name__startswith="Evil").exists()


def test_the_database_keeps_descriptions_within_their_limits(task, ann):
    team = teams.register_team(ann, task, "Fixers")
    with pytest.raises(IntegrityError), transaction.atomic():
        Submission.objects.create(
            phase=task.phases.get(), team=team, system_name="s", filename="f", content=b"", size=0, description=HUGE
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        SharedTask.objects.filter(pk=task.pk).update(description="x" * (TASK_DESCRIPTION_MAX + 1))


def test_model_validation_refuses_reversed_names(task):
    with pytest.raises(ValidationError, match="RIGHT-TO-LEFT OVERRIDE"):
        Team(task=task, name="abc\u202e").full_clean()
    with pytest.raises(ValidationError, match="at most 20000 characters"):
        SharedTask(slug="x", title="X", description=HUGE).full_clean()


def test_the_organizer_forms_refuse_long_or_reversed_text(task):
    form = TaskForm(
        {
            "title": "Title\u202e",
            "slug": "new",
            "description": HUGE,
            "metrics": ["errant"],
            "tracks": ", ".join(f"t{k}" for k in range(21)),
        }
    )
    assert not form.is_valid()
    assert "RIGHT-TO-LEFT OVERRIDE" in str(form.errors["title"]) and "at most 20000" in str(form.errors["description"])
    assert "at most 20 tracks" in str(form.errors["tracks"])
    assert "at most 32 characters" in str(TaskForm({"tracks": "x" * 33}).errors["tracks"])
    phase = task.phases.get()
    edit = PhaseForm(
        {
            "name": "Test\u2066",
            "time_zone": "UTC",
            "starts_at": "2026-01-01T00:00",
            "results_visibility": "public",
            "counting": "latest",
        },
        instance=phase,
        task=task,
    )
    assert not edit.is_valid() and "LEFT-TO-RIGHT ISOLATE" in str(edit.errors["name"])
    assert Phase.objects.get(pk=phase.pk).name == ""


def test_tasks_made_by_command_obey_the_same_rules():
    from leaderboard.services.hosting.task_creation import create_task

    with pytest.raises(scoring.InputError, match="title: a name may not hold .*U\\+202E"):
        create_task("cmd", title="Task\u202e", source="a b\n", references=[("r", "a b\n")], metrics=["errant"])
    assert not SharedTask.objects.filter(slug="cmd").exists()
