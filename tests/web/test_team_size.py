"""A team-size limit per task (there was none): organizers set it on
the task's form, its organizer page and the API; joining a full team is refused, saying why."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from leaderboard.models import Membership, SharedTask
from leaderboard.services.teams import actions as teams
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db
LINES = 5


@pytest.fixture
def task(db):
    from leaderboard.services.hosting.task_creation import create_task

    task = create_task(
        "sized",
        title="Sized",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES),
        metrics=["errant"],
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
    )
    task.organizers.add(User.objects.create_user("org", password="pw"))
    return task


@pytest.fixture
def users(db):
    return [User.objects.create_user(f"u{k}", password="pw") for k in range(4)]


def test_a_task_allows_ten_members_by_default(task):
    assert task.max_team_size == 10


def test_joining_a_full_team_is_refused(task, users):
    teams.set_team_size(task, 2)
    team = teams.register_team(users[0], task, "Pair")
    teams.join_team(users[1], task, team.invite_code)
    with pytest.raises(teams.TeamError, match="team Pair is full: Sized allows at most 2 members per team"):
        teams.join_team(users[2], task, team.invite_code)
    assert Membership.objects.filter(team=team).count() == 2


def test_the_join_page_says_the_team_is_full(task, users):
    teams.set_team_size(task, 1)
    team = teams.register_team(users[0], task, "Solo")
    client = Client()
    client.force_login(users[1])
    page = client.post("/tasks/sized/team/join/", {"code": team.invite_code}, follow=True).content.decode()
    assert "team Solo is full" in page


def test_organizers_set_it_on_their_page(task, users):
    client = Client()
    client.force_login(User.objects.get(username="org"))
    assert 'id="team-size-form"' in client.get("/tasks/sized/manage/").content.decode()
    client.post("/tasks/sized/manage/team-size/", {"max_team_size": "3"})
    assert SharedTask.objects.get(pk=task.pk).max_team_size == 3
    page = client.post("/tasks/sized/manage/team-size/", {"max_team_size": "0"}, follow=True).content.decode()
    assert "The team size was not changed" in page and SharedTask.objects.get(pk=task.pk).max_team_size == 3
    client.force_login(users[0])
    assert client.post("/tasks/sized/manage/team-size/", {"max_team_size": "50"}).status_code == 403


def test_organizers_set_it_through_the_api(task, users):
    organizer = APIClient()
    organizer.force_authenticate(User.objects.get(username="org"))
    response = organizer.patch("/api/tasks/sized/", {"max_team_size": 4}, format="json")
    assert response.status_code == 200 and response.json()["max_team_size"] == 4
    assert organizer.patch("/api/tasks/sized/", {"max_team_size": 0}, format="json").status_code == 400
    participant = APIClient()
    participant.force_authenticate(users[0])
    assert participant.patch("/api/tasks/sized/", {"max_team_size": 99}, format="json").status_code == 403
    assert APIClient().patch("/api/tasks/sized/", {"max_team_size": 99}, format="json").status_code == 401
    assert SharedTask.objects.get(pk=task.pk).max_team_size == 4


def test_the_host_form_sets_it_for_a_new_task(client, django_capture_on_commit_callbacks):
    from django.contrib.auth.models import Permission
    from django.core.files.uploadedfile import SimpleUploadedFile

    host = User.objects.create_user("hannah", password="pw")
    host.user_permissions.add(Permission.objects.get(codename="host_tasks"))
    client.force_login(host)
    gold = {
        "source": SimpleUploadedFile("source.txt", insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES).encode()),
        "references": [SimpleUploadedFile(p.name, insight_head(p, LINES).encode()) for p in SUBSET_REFS],
    }
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            "/host/", {"title": "Trios", "slug": "trios", "metrics": ["errant"], "max_team_size": "3", **gold}
        )
    assert response.status_code == 302 and SharedTask.objects.get(slug="trios").max_team_size == 3
