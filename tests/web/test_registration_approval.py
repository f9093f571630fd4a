"""Organizers may approve registrations: with registration on "approval", a pending team
can neither submit nor download the inputs (and is told why); organizers approve ticked
teams at once; teams from an auto-approved e-mail domain need no approval."""

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import SharedTask, Team
from leaderboard.services.teams.actions import register_team
from tests.support.task_pages_support import OUTPUT, SLUG, api_client_of, client_of, season_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def task(db):
    task = season_task(signup=SharedTask.Signup.APPROVAL)
    Team.objects.filter(task=task).update(approved=False)
    return task


def test_a_pending_team_can_neither_download_nor_submit(task):
    inputs = api_client_of("participant").get(f"/api/tasks/{SLUG}/input/?phase=dev")
    assert (
        inputs.status_code == 403
        and "waits for the organizers' approval before it may download the inputs" in inputs.json()["detail"]
    )
    page = client_of("participant").get(f"/tasks/{SLUG}/input/?phase=dev")
    assert page.status_code == 403 and b"waits for the organizers" in page.content
    upload = api_client_of("participant").post(
        f"/api/tasks/{SLUG}/submissions/", {"system_name": "s", "file": SimpleUploadedFile("s.txt", OUTPUT.encode())}
    )
    assert upload.status_code == 403 and "approval" in upload.json()["errors"][0]["message"]


def test_a_user_without_a_team_is_told_to_register_first(task):
    newcomer = client_of("anonymous")
    newcomer.force_login(User.objects.create_user("new", "new@example.org", "pw"))
    refused = newcomer.get(f"/tasks/{SLUG}/input/?phase=dev")
    assert refused.status_code == 403 and b"Register your team first" in refused.content


def test_organizers_approve_ticked_teams_at_once(task):
    organizer = client_of("organizer")
    listing = organizer.get(f"/tasks/{SLUG}/teams/").content.decode()
    assert listing.count('type="checkbox" name="team"') == 2
    ids = list(Team.objects.filter(task=task).values_list("pk", flat=True))
    assert organizer.post(f"/tasks/{SLUG}/teams/", {"team": ids}).status_code == 302
    assert all(
        approved_at is not None for approved_at in Team.objects.filter(task=task).values_list("approved_at", flat=True)
    )
    assert api_client_of("participant").get(f"/api/tasks/{SLUG}/input/?phase=dev").status_code == 200


def test_participants_cannot_approve(task):
    ids = list(Team.objects.filter(task=task).values_list("pk", flat=True))
    for viewer in ("participant", "other team"):
        assert client_of(viewer).post(f"/tasks/{SLUG}/teams/", {"team": ids}).status_code == 404
        assert client_of(viewer).post(f"/tasks/{SLUG}/manage/approval/", {"signup": "open"}).status_code == 403
    assert not Team.objects.filter(approved=True).exists() and SharedTask.objects.get(slug=SLUG).signup == "approval"


def test_an_auto_approved_domain_needs_no_approval(task):
    organizer = client_of("organizer")
    organizer.post(f"/tasks/{SLUG}/manage/approval/", {"signup": "approval", "domains": "@Uni-Example.edu, lab.org"})
    task.refresh_from_db()
    assert task.auto_approve_domains == ["lab.org", "uni-example.edu"]
    student = register_team(User.objects.create_user("stu", "stu@cs.uni-example.edu", "pw"), task, "Students")
    outsider = register_team(User.objects.create_user("out", "out@elsewhere.com", "pw"), task, "Outsiders")
    assert student.approved and student.approved_at is not None and not outsider.approved


def test_saving_the_domains_approves_pending_teams_from_them(task):
    User.objects.filter(username="pat").update(email="pat@lab.org")
    client_of("organizer").post(f"/tasks/{SLUG}/manage/approval/", {"signup": "approval", "domains": "lab.org"})
    assert dict(Team.objects.filter(task=task).values_list("name", "approved")) == {"P": True, "O": False}


def test_opening_registration_approves_every_pending_team(task):
    client_of("organizer").post(f"/tasks/{SLUG}/manage/approval/", {"signup": "open", "domains": ""})
    assert set(Team.objects.filter(task=task).values_list("approved", flat=True)) == {True}


def test_a_malformed_domain_is_refused(task):
    answer = client_of("organizer").post(
        f"/tasks/{SLUG}/manage/approval/", {"signup": "approval", "domains": "not-a-domain"}, follow=True
    )
    assert "not an e-mail domain: not-a-domain" in answer.content.decode()
    assert SharedTask.objects.get(slug=SLUG).auto_approve_domains == []
