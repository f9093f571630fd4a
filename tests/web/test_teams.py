"""Teams per task: register, rename, invite and join, leave; the task's signup setting (open, approval, closed)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leaderboard.models import Membership, SharedTask, Team
from leaderboard.services.submissions.intake import accept_submission, team_of
from leaderboard.services.teams import actions as teams
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head

pytestmark = pytest.mark.django_db
LINES = 5


@pytest.fixture
def task(db):
    from leaderboard.services.hosting.task_creation import create_task

    return create_task(
        "teams",
        title="Teams",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES),
        metrics=["errant"],
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
    )


@pytest.fixture
def users(db):
    return {
        name: User.objects.create_user(name, email=f"{name}@example.org", password="pw")
        for name in ("ann", "ben", "cat")
    }


def upload(task, user):
    content = insight_head(SUBSET_OUTPUTS / "T5.txt", LINES).encode()
    return accept_submission(task.phases.get(), user, system_name="t5", filename="t5.txt", content=content, queue=False)


def test_register_rename_invite_join_and_leave(task, users):
    team = teams.register_team(users["ann"], task, "  Fast   Fixers ")
    assert team.name == "Fast Fixers" and team.approved and team_of(users["ann"], task, create=False) == team
    with pytest.raises(teams.TeamError, match="already registered"):
        teams.register_team(users["ben"], task, "Fast Fixers")
    assert teams.join_team(users["ben"], task, team.invite_code) == team
    with pytest.raises(teams.TeamError, match="no team of this task"):
        teams.join_team(users["cat"], task, "not-a-code")
    teams.rename_team(team, "Slow Fixers")
    old_code = team.invite_code
    teams.new_invite(team)
    with pytest.raises(teams.TeamError):
        teams.join_team(users["cat"], task, old_code)
    teams.leave_team(users["ben"], task)
    assert team_of(users["ben"], task, create=False) is None
    assert Team.objects.get(pk=team.pk).name == "Slow Fixers"


def test_one_team_per_task(task, users):
    team = teams.register_team(users["ann"], task, "A")
    other = teams.register_team(users["ben"], task, "B")
    with pytest.raises(teams.TeamError, match="already in a team"):
        teams.register_team(users["ann"], task, "C")
    with pytest.raises(teams.TeamError, match="leave it first"):
        teams.join_team(users["ann"], task, other.invite_code)
    assert teams.join_team(users["ann"], task, team.invite_code) == team  # joining one's own team again is harmless


def test_the_last_member_removes_an_empty_team_but_not_one_with_submissions(task, users):
    empty = teams.register_team(users["ann"], task, "Empty")
    teams.leave_team(users["ann"], task)
    assert not Team.objects.filter(pk=empty.pk).exists()
    busy = teams.register_team(users["ben"], task, "Busy")
    upload(task, users["ben"])
    with pytest.raises(teams.TeamError, match="last member"):
        teams.leave_team(users["ben"], task)
    teams.join_team(users["cat"], task, busy.invite_code)
    teams.leave_team(users["ben"], task)
    assert list(Membership.objects.filter(team=busy).values_list("user__username", flat=True)) == ["cat"]


def test_an_upload_without_a_team_registers_one_named_after_the_user(task, users):
    submission = upload(task, users["ann"])
    assert submission.team.name == "ann" and submission.team.task == task


def test_approval_signup_lets_a_team_submit_once_approved(task, users):
    SharedTask.objects.filter(pk=task.pk).update(signup="approval")
    task.refresh_from_db()
    team = teams.register_team(users["ann"], task, "Waiting")
    assert not team.approved
    with pytest.raises(teams.TeamError, match="approval"):
        upload(task, users["ann"])
    teams.approve_team(team)
    assert upload(task, users["ann"]).team == team


def test_closed_signup_refuses_new_teams_but_not_joining(task, users):
    team = teams.register_team(users["ann"], task, "Early")
    SharedTask.objects.filter(pk=task.pk).update(signup="closed")
    task.refresh_from_db()
    with pytest.raises(teams.TeamError, match="closed"):
        teams.register_team(users["ben"], task, "Late")
    with pytest.raises(teams.TeamError, match="closed"):
        upload(task, users["ben"])  # no personal team either
    assert teams.join_team(users["ben"], task, team.invite_code) == team
    assert upload(task, users["ben"]).team == team


def test_the_upload_page_and_api_refuse_an_unapproved_team(task, users):
    from django.core.files.uploadedfile import SimpleUploadedFile

    SharedTask.objects.filter(pk=task.pk).update(signup="approval")
    client = Client()
    client.force_login(users["ann"])
    content = insight_head(SUBSET_OUTPUTS / "T5.txt", LINES).encode()
    page = client.post("/tasks/teams/submit/", {"system_name": "x", "file": SimpleUploadedFile("x.txt", content)})
    assert page.status_code == 403 and "approval" in page.content.decode()
    api = client.post(
        "/api/tasks/teams/submissions/", {"system_name": "x", "file": SimpleUploadedFile("x.txt", content)}
    )
    assert api.status_code == 403 and "approval" in api.json()["errors"][0]["message"]


def test_team_pages_register_join_by_link_and_organizers_approve(task, users):
    SharedTask.objects.filter(pk=task.pk).update(signup="approval")
    ann, ben = Client(), Client()
    ann.force_login(users["ann"])
    ben.force_login(users["ben"])
    assert "Register a team" in ann.get("/tasks/teams/team/").content.decode()
    ann.post("/tasks/teams/team/create/", {"name": "Ann's team"})
    page = ann.get("/tasks/teams/team/").content.decode()
    team = Team.objects.get(task=task, name="Ann's team")
    assert "waits for the organizers' approval" in page and f"/tasks/teams/join/?code={team.invite_code}" in page
    assert "Join team" in ben.get(f"/tasks/teams/join/?code={team.invite_code}").content.decode()
    ben.post("/tasks/teams/team/join/", {"code": team.invite_code})
    assert team_of(users["ben"], task, create=False) == team
    assert "not valid" in ben.get("/tasks/teams/join/?code=nope").content.decode()
    assert ann.get("/tasks/teams/teams/").status_code == 404  # participants do not see the team list
    organizer = User.objects.create_user("org", password="pw")
    task.organizers.add(organizer)
    boss = Client()
    boss.force_login(organizer)
    assert "Ann&#x27;s team" in boss.get("/tasks/teams/teams/").content.decode()
    boss.post("/tasks/teams/teams/", {"team": team.pk})
    assert Team.objects.get(pk=team.pk).approved


def test_team_errors_are_shown_not_raised(task, users):
    client = Client()
    client.force_login(users["ann"])
    response = client.post("/tasks/teams/team/join/", {"code": "nope"}, follow=True)
    assert "no team of this task has that invite code" in response.content.decode()
    assert client.post("/tasks/teams/team/explode/").status_code == 404


def test_an_approved_team_is_told(task, users, django_capture_on_commit_callbacks):
    from django.core import mail

    SharedTask.objects.filter(pk=task.pk).update(signup="approval")
    task.refresh_from_db()
    team = teams.register_team(users["ann"], task, "Patient")
    with django_capture_on_commit_callbacks(execute=True):
        teams.approve_team(team)
    assert [m.to for m in mail.outbox] == [["ann@example.org"]] and "approved" in mail.outbox[0].subject
    assert "/tasks/teams/submit/" in mail.outbox[0].body
