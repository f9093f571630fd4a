"""A task's headline metric is one of its score paths, whichever way it is set: a slip
such as ``gleu.scor`` would make every value null and every team first. The model says
why (``SharedTask.headline_problem``); the admin, the host form, the API and
``create_task`` all refuse with that reason."""

import pytest
from django.contrib.auth.models import Permission, User
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from leaderboard.models import SharedTask
from leaderboard.services.hosting.task_creation import create_task
from tests.web.admin_forms import post_change_form

pytestmark = pytest.mark.django_db
SOURCE, REFERENCE = "a b .\nc d .\n", "a c .\nc d .\n"


@pytest.fixture
def task():
    return create_task("slips", source=SOURCE, references=[("r", REFERENCE)], metrics=["errant", "gleu"])


def test_the_model_names_the_slip_and_the_paths_to_choose_from():
    task = SharedTask(slug="t", title="T", metrics=["errant", "gleu"], headline_metric="gleu.scor")
    with pytest.raises(ValidationError) as caught:
        task.full_clean()
    message = caught.value.message_dict["headline_metric"][0]
    assert "gleu.scor is not one of the task's score paths" in message and "gleu.score" in message
    assert SharedTask(metrics=["errant"], headline_metric="gleu.score").headline_problem()  # not a metric of the task
    assert (
        "similarity-weighted"
        in SharedTask(metrics=["cleme2"], headline_metric="cleme2.sim.dependent.corpus.score").headline_problem()
    )
    for path in ("", "gleu.score", "errant.cs.p", "errant.cs.tp"):
        assert SharedTask(metrics=["errant", "gleu"], headline_metric=path).headline_problem() is None


def test_the_admin_refuses_it(client, task):
    client.force_login(User.objects.create_superuser("root", password="pw"))
    url = f"/admin/leaderboard/sharedtask/{task.pk}/change/"
    answer = post_change_form(client, url, {"headline_metric": "gleu.scor"})
    assert (
        answer.status_code == 200 and "gleu.scor is not one of the task&#x27;s score paths" in answer.content.decode()
    )
    assert SharedTask.objects.get(pk=task.pk).headline_metric == ""
    assert post_change_form(client, url, {"headline_metric": "gleu.score"}).status_code == 302
    assert SharedTask.objects.get(pk=task.pk).headline_metric == "gleu.score"


def test_the_host_form_refuses_it_with_the_reason(client):
    host = User.objects.create_user("host", password="pw")
    host.user_permissions.add(Permission.objects.get(codename="host_tasks"))
    client.force_login(host)
    files = {
        "source": SimpleUploadedFile("source.txt", SOURCE.encode()),
        "references": [SimpleUploadedFile("ref.txt", REFERENCE.encode())],
    }
    data = {"title": "Hosted", "slug": "hosted", "metrics": ["errant"], **files}
    answer = client.post("/host/", {**data, "headline_metric": "gleu.scor"})
    assert answer.status_code == 400 and not SharedTask.objects.filter(slug="hosted").exists()
    files = {
        "source": SimpleUploadedFile("source.txt", SOURCE.encode()),
        "references": [SimpleUploadedFile("ref.txt", REFERENCE.encode())],
    }
    answer = client.post("/host/", {**data, **files, "headline_metric": "gleu.score"})  # GLEU is not scored
    assert (
        answer.status_code == 400 and "gleu.score is not one of the task&#x27;s score paths" in answer.content.decode()
    )


def test_the_api_refuses_it_and_takes_a_valid_one(task):
    organizer = User.objects.create_user("org")
    task.organizers.add(organizer)
    api = APIClient()
    api.force_authenticate(organizer)
    answer = api.patch("/api/tasks/slips/", {"headline_metric": "gleu.scor"}, format="json")
    assert answer.status_code == 400 and "gleu.scor is not one of the task's score paths" in answer.content.decode()
    assert SharedTask.objects.get(pk=task.pk).headline_metric == ""
    answer = api.patch("/api/tasks/slips/", {"headline_metric": "gleu.score"}, format="json")
    assert answer.status_code == 200 and answer.json()["ranked_by"] == "gleu.score"
    participant = APIClient()
    participant.force_authenticate(User.objects.create_user("someone"))
    assert participant.patch("/api/tasks/slips/", {"headline_metric": "errant.cs.f"}, format="json").status_code == 403


def test_create_task_refuses_it_and_keeps_nothing(tmp_path):
    (tmp_path / "source.txt").write_text(SOURCE)
    (tmp_path / "ref.txt").write_text(REFERENCE)
    gold = ["--source", str(tmp_path / "source.txt"), "--ref", str(tmp_path / "ref.txt"), "--metrics", "errant,gleu"]
    with pytest.raises(CommandError, match="gleu.scor is not one of the task's score paths"):
        call_command("create_task", "slipped", *gold, "--headline", "gleu.scor")
    assert not SharedTask.objects.filter(slug="slipped").exists()
    call_command("create_task", "ranked", *gold, "--headline", "gleu.score")
    assert SharedTask.objects.get(slug="ranked").headline_metric == "gleu.score"
