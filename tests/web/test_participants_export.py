"""Organizers export the participants' list as CSV (web and API): username, e-mail, team,
registered, approved and terms-accepted times, submission counts. Nobody else may."""

import csv
import io

import pytest
from django.contrib.auth.models import User

from leaderboard.models import Submission, Team
from leaderboard.services.hosting.task_pages import save_page
from leaderboard.services.teams.actions import approve_team
from leaderboard.services.teams.terms import accept_terms
from tests.support.task_pages_support import OUTPUT, SLUG, VIEWERS, api_client_of, client_of, season_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def task(db):
    task = season_task()
    save_page(task, "terms", "Research only.")
    pat = User.objects.get(username="pat")
    accept_terms(pat, task)
    accept_terms(User.objects.create_user("lurker", "lurker@example.org", "pw"), task)  # accepted, no team yet
    team = Team.objects.get(task=task, name="P")
    team.approved = False
    approve_team(team)
    for k in range(2):
        Submission.objects.create(
            phase=task.phases.get(kind="dev"),
            team=team,
            submitted_by=pat,
            system_name=f"s{k}",
            filename="s.txt",
            content=OUTPUT.encode(),
            size=len(OUTPUT),
        )
    return task


def rows(answer) -> list[dict]:
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    assert answer["Content-Disposition"] == f'attachment; filename="{SLUG}-participants.csv"'
    return list(csv.DictReader(io.StringIO(answer.content.decode())))


def test_organizers_export_every_participant(task):
    for answer in (
        client_of("organizer").get(f"/tasks/{SLUG}/participants.csv"),
        api_client_of("organizer").get(f"/api/tasks/{SLUG}/participants/export"),
    ):
        listed = {row["Username"]: row for row in rows(answer)}
        assert set(listed) == {"pat", "oli", "lurker"}
        pat = listed["pat"]
        assert pat["E-mail"] == "pat@example.org" and pat["Team"] == "P" and pat["Team approved"] == "yes"
        assert pat["Registered"].endswith("Z") and pat["Approved"].endswith("Z") and pat["Terms accepted"].endswith("Z")
        assert pat["Current terms"] == "yes" and pat["Submissions"] == "2" and pat["Team submissions"] == "2"
        assert (
            listed["oli"]["Terms accepted"] == ""
            and listed["oli"]["Current terms"] == "no"
            and listed["oli"]["Submissions"] == "0"
        )
        assert listed["lurker"]["Team"] == "" and listed["lurker"]["Terms accepted"]


def test_new_terms_show_who_accepted_an_older_version(task):
    save_page(task, "terms", "Research only; cite the paper.")
    listed = {row["Username"]: row for row in rows(client_of("organizer").get(f"/tasks/{SLUG}/participants.csv"))}
    assert listed["pat"]["Terms accepted"] and listed["pat"]["Current terms"] == "no"


@pytest.mark.parametrize("viewer", [v for v in VIEWERS if v != "organizer"])
def test_nobody_else_gets_it(task, viewer):
    web = client_of(viewer).get(f"/tasks/{SLUG}/participants.csv")
    api = api_client_of(viewer).get(f"/api/tasks/{SLUG}/participants/export")
    assert web.status_code in (302, 403) and api.status_code in (401, 403)
    assert b"pat@example.org" not in web.content + api.content


def test_a_team_name_cannot_run_as_a_formula(task):
    Team.objects.filter(name="O").update(name='=HYPERLINK("http://x")')
    listed = {row["Username"]: row for row in rows(client_of("organizer").get(f"/tasks/{SLUG}/participants.csv"))}
    assert not listed["oli"]["Team"].startswith("=")
