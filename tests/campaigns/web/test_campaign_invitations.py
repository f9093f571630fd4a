"""Annotators as Appraise serves them: invitations (nobody annotates before accepting, no
answer says who has an account), reassigning a dropped annotator's screens, reminders,
practice screens, skipping a broken screen, time per screen in the XML, guidelines,
keys in mode edits, the edit marks per system, and the organizer's page's live version."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from leaderboard.campaigns.services.invitations import InvitationError, accept, parse_invitees, remind
from leaderboard.models import Assignment, Campaign, Invitation, Judgment, Screen
from tests.campaigns.support import annotator, careful_ranks, judge_all, make_campaign

pytestmark = pytest.mark.django_db
BASE = "/api/tasks/insight/campaigns/"


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def web(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_pasted_lists_and_csv_files_give_the_invitees():
    assert parse_invitees("a@x.org, b\nc;d\td") == ["a@x.org", "b", "c", "d"]
    assert parse_invitees("name,email\nAnn,ann@x.org\nBob,bob@x.org\n") == ["ann@x.org", "bob@x.org"]
    assert parse_invitees("") == []


def test_answers_never_tell_whether_an_address_has_an_account(insight_task, django_capture_on_commit_callbacks):
    annotator("known")
    organizer = api(insight_task["organizer"])
    bodies = []
    for name, invitee in (("one", "known@example.org"), ("two", "nobody@example.org")):
        with django_capture_on_commit_callbacks(execute=True):
            answer = organizer.post(
                BASE, {"name": name, "annotators": [invitee], "screens_per_annotator": 3}, format="json"
            )
        assert answer.status_code == 201, answer.content
        listed = organizer.get(BASE + f"{name}/invitations/").json()
        bodies.append((answer.json()["annotators"], [(i["status"], i["user"]) for i in listed["invitations"]]))
    assert bodies[0] == bodies[1] == ([], [("pending", None)])
    # both addresses get the same mail: a link to the invitation and one to sign up
    assert sorted(m.to[0] for m in mail.outbox) == ["known@example.org", "nobody@example.org"]
    assert all("/invitations/" in m.body and "/accounts/signup/" in m.body for m in mail.outbox)
    # an unknown username is no 400 either, and gets no mail (there is no address to send it to)
    mail.outbox.clear()
    answer = organizer.post(
        BASE, {"name": "three", "annotators": ["ghost-user"], "screens_per_annotator": 3}, format="json"
    )
    assert answer.status_code == 201 and mail.outbox == []


def test_nobody_annotates_before_accepting(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, accepted=False
    )
    ann1 = annotator("ann1")
    assert not campaign.annotators.exists()
    assert api(ann1).get(BASE + "human/next/").status_code == 403
    invitation = Invitation.objects.get(campaign=campaign, invitee="ann1")
    page = web().get(f"/invitations/{invitation.token}/")  # anyone with the link: sign up or log in
    assert page.status_code == 200 and b"/accounts/signup/?next=" in page.content
    assert b"/invitations/" in web(ann1).get("/tasks/insight/campaigns/").content  # their own pending invitation
    with django_capture_on_commit_callbacks(execute=True):
        answer = web(ann1).post(f"/invitations/{invitation.token}/", {"answer": "accept"})
    assert answer.status_code == 302 and answer["Location"].endswith("/campaigns/human/judge/")
    assert api(ann1).get(BASE + "human/next/").status_code == 200
    assert Assignment.objects.filter(invitation=invitation, annotator=ann1).count() == 10
    with pytest.raises(InvitationError, match="accepted already"):
        accept(invitation, annotator("ann2"))
    listed = api(insight_task["organizer"]).get(BASE + "human/invitations/").json()["invitations"]
    assert [(i["invitee"], i["status"], i["user"]) for i in listed] == [
        ("ann1", "accepted", "ann1"),
        ("ann2", "pending", None),
    ]


def test_declining_ends_the_invitation(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, accepted=False
    )
    invitation = Invitation.objects.get(campaign=campaign, invitee="ann2")
    web(annotator("ann2")).post(f"/invitations/{invitation.token}/", {"answer": "decline"})
    invitation.refresh_from_db()
    assert invitation.status == "declined" and not campaign.annotators.exists()


def test_a_dropped_annotators_screens_go_to_another(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, redundancy=1
    )
    ann1, ann2 = annotator("ann1"), annotator("ann2")
    first = Assignment.objects.filter(annotator=ann1).order_by("position").first()
    with django_capture_on_commit_callbacks(execute=True):
        from leaderboard.campaigns.services.judging import record_judgment

        record_judgment(campaign, ann1, first.pk, careful_ranks(first.screen))
    source = Invitation.objects.get(campaign=campaign, invitee="ann1")
    target = Invitation.objects.get(campaign=campaign, invitee="ann2")
    organizer = api(insight_task["organizer"])
    answer = organizer.post(BASE + f"human/invitations/{source.pk}/reassign/", {"to": target.pk}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["moved"] == 9
    assert Assignment.objects.filter(annotator=ann2).count() == 19
    assert Assignment.objects.filter(annotator=ann1).count() == 1  # the judged one stays theirs
    assert api(ann1).get(BASE + "human/next/").status_code == 403  # dropped
    positions = list(Assignment.objects.filter(annotator=ann2).values_list("position", flat=True))
    assert sorted(positions) == list(range(19))
    assert judge_all(campaign, ann2, django_capture_on_commit_callbacks) == 19
    again = organizer.post(BASE + f"human/invitations/{target.pk}/reassign/", {"to": source.pk}, format="json")
    assert again.status_code == 400 and "dropped" in json.dumps(again.json())


def test_reminders_go_to_those_behind_once_in_a_while(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, accepted=False
    )
    accept(Invitation.objects.get(campaign=campaign, invitee="ann1"), annotator("ann1"))
    mail.outbox.clear()
    assert api(insight_task["organizer"]).post(BASE + "human/remind/").json() == {"reminded": 2}
    bodies = sorted(m.body for m in mail.outbox)
    assert "screens in campaign human are still to judge" in bodies[0] and "/invitations/" in bodies[1]
    assert remind(campaign, site="") == 0  # not again within 12 hours
    assert api(annotator("ann1")).post(BASE + "human/remind/").status_code == 403


def test_practice_screens_come_first_and_count_for_nothing(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, practice=2, redundancy=1
    )
    ann1 = annotator("ann1")
    client = api(ann1)
    practised = []
    for _ in range(2):
        screen = client.get(BASE + "human/next/").json()
        assert screen["practice"] is True
        row = Screen.objects.get(assignments__pk=screen["item"])
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(
                BASE + "human/judgments/", {"item": screen["item"], "ranks": careful_ranks(row)}, format="json"
            )
        assert answer.status_code == 201 and answer.json()["judgment"] is None
        practised.append(screen["item"])
    assert client.get(BASE + "human/next/").json()["practice"] is False
    assert not Judgment.objects.filter(campaign=campaign).exists()
    mine = Assignment.objects.filter(annotator=ann1)
    assert mine.count() == 12
    real = set(mine.filter(practice=False).values_list("screen_id", flat=True))
    assert not real & set(mine.filter(practice=True).values_list("screen_id", flat=True))  # others' screens


def test_a_broken_screen_is_skipped_with_a_comment(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks)
    client = api(annotator("ann1"))
    screen = client.get(BASE + "human/next/").json()
    assert client.post(BASE + "human/skip/", {"item": screen["item"], "comment": " "}, format="json").status_code == 400
    answer = client.post(
        BASE + "human/skip/", {"item": screen["item"], "comment": "outputs cut off", "duration": 4.5}, format="json"
    )
    assert answer.status_code == 201
    assert client.get(BASE + "human/next/").json()["item"] != screen["item"]
    assert client.post(BASE + "human/skip/", {"item": screen["item"], "comment": "x"}, format="json").status_code == 409
    skipped = api(insight_task["organizer"]).get(BASE + "human/invitations/").json()["skipped"]
    assert skipped == [
        {"item": screen["item"], "line": skipped[0]["line"], "user": "ann1", "comment": "outputs cut off"}
    ]
    assert not Judgment.objects.filter(campaign=campaign).exists()


def test_time_per_screen_is_the_xmls_duration(insight_task, django_capture_on_commit_callbacks):
    from scoring.human import read_judgments

    make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, controls=0.0)
    client = api(annotator("ann1"))
    screen = client.get(BASE + "human/next/").json()
    row = Screen.objects.get(assignments__pk=screen["item"])
    body = {"item": screen["item"], "ranks": careful_ranks(row), "duration": 83.25}
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(BASE + "human/judgments/", body, format="json").status_code == 201
    bad = client.post(BASE + "human/judgments/", {**body, "duration": -1}, format="json")
    assert bad.status_code == 400 and "duration" in json.dumps(bad.json())
    xml = api(insight_task["organizer"]).get(BASE + "human/judgments.xml").content
    assert b'duration="0:01:23.250000"' in xml
    assert len(read_judgments(xml)) == 1  # read back as before: the attribute is Appraise's


def test_guidelines_are_sanitised_and_shown_first(insight_task, django_capture_on_commit_callbacks):
    make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        guidelines="# Read me\n\nRank **fluency** first.<script>alert(1)</script>",
    )
    page = web(annotator("ann1")).get("/tasks/insight/campaigns/human/judge/").content.decode()
    assert "<h1>Read me</h1>" in page and "<strong>fluency</strong>" in page
    assert "alert(1)" not in page.split('id="guidelines"')[1].split("</section>")[0]
    assert 'id="start"' in page and "leaderboard/judge.js" in page


def test_edit_mode_keys_never_name_i_or_v():
    from leaderboard.campaigns.registry import mode_named

    keys = [mode_named("edits").key(i) for i in range(10)]
    assert keys == ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K"]
    assert [mode_named("ranking").key(i) for i in range(10)] == list("ABCDEFGHIJ")


def test_edit_marks_per_system_on_the_page_and_in_the_json(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, mode="edits", redundancy=1
    )
    judge_all(campaign, annotator("ann1"), django_capture_on_commit_callbacks)
    body = api(insight_task["organizer"]).get(BASE + "human/").json()
    marks = body["edit_marks"]
    assert set(marks) >= {"T5", "BART"}
    for figures in marks.values():
        assert figures["valid"] == figures["edits"]  # judge_all marks every edit valid
        assert figures["valid_share"] in (None, 1.0)
    page = web(insight_task["organizer"]).get("/tasks/insight/campaigns/human/").content.decode()
    assert 'id="edit-marks"' in page


def test_the_organizers_page_follows_a_version_not_a_loop(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks)
    organizer = web(insight_task["organizer"])
    page = organizer.get("/tasks/insight/campaigns/human/").content.decode()
    # static/leaderboard/pages.js hands the box to gecLive.follow: no loop, no script in the page
    assert 'data-live-version="?part=version" data-live-fragment="?part=live"' in page and "setTimeout" not in page
    before = organizer.get("/tasks/insight/campaigns/human/?part=version").content
    assert f'data-version="{before.decode()}"' in page
    judge_all(campaign, annotator("ann1"), django_capture_on_commit_callbacks)
    assert organizer.get("/tasks/insight/campaigns/human/?part=version").content != before
    assert web(annotator("alice")).get("/tasks/insight/campaigns/human/?part=version").status_code == 403


def test_the_organizers_page_invites_reassigns_reminds_and_lists_skips(
    insight_task, django_capture_on_commit_callbacks
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, redundancy=1
    )
    organizer = web(insight_task["organizer"])
    url = "/tasks/insight/campaigns/human/"
    mail.outbox.clear()
    csv_file = SimpleUploadedFile("people.csv", b"name,email\nCarol,carol@example.org\nDan,dan@example.org\n")
    with django_capture_on_commit_callbacks(execute=True):
        answer = organizer.post(url + "invite/", {"invitees": "erin@example.org, ann1", "file": csv_file})
    assert answer.status_code == 302
    invited = list(Invitation.objects.filter(campaign=campaign).values_list("invitee", flat=True))
    assert invited == ["ann1", "ann2", "erin@example.org", "carol@example.org", "dan@example.org"]  # ann1 once
    assert sorted(m.to[0] for m in mail.outbox) == ["carol@example.org", "dan@example.org", "erin@example.org"]
    source = Invitation.objects.get(campaign=campaign, invitee="ann2")
    target = Invitation.objects.get(campaign=campaign, invitee="erin@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        organizer.post(url + "reassign/", {"from": str(source.pk), "to": str(target.pk)})
    assert Assignment.objects.filter(invitation=target).count() == 10
    erin = annotator("erin")
    accept(target, erin)
    assert Assignment.objects.filter(annotator=erin).count() == 10
    organizer.post(url + "remind/")
    client = api(erin)
    item = client.get(BASE + "human/next/").json()["item"]
    client.post(BASE + "human/skip/", {"item": item, "comment": "the source is cut in half"}, format="json")
    page = organizer.get(url).content.decode()
    assert 'id="invitation-list"' in page and "the source is cut in half" in page
    assert 'data-status="dropped"' in page and "erin@example.org (erin)" in page
    # an annotator sees none of it (and may not act)
    assert web(erin).post(url + "remind/").status_code == 403


def test_the_form_takes_a_csv_and_says_each_problem_once(insight_task, django_capture_on_commit_callbacks):
    from django.core.files.uploadedfile import SimpleUploadedFile

    organizer = web(insight_task["organizer"])
    fields = {
        "name": "from-csv",
        "phase": "dev",
        "annotators": "",
        "screens_per_annotator": 4,
        "outputs_per_screen": 5,
        "redundancy": 1,
        "repeats": 0,
        "controls": 0,
        "threshold": 0.05,
        "mode": "ranking",
        "seed": 0,
        "practice": 1,
        "guidelines": "Rank *fluency*.",
    }
    upload = SimpleUploadedFile("a.csv", b"username\nann1\nann2\n")
    with django_capture_on_commit_callbacks(execute=True):
        answer = organizer.post("/tasks/insight/campaigns/", {**fields, "annotators_file": upload})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    campaign = Campaign.objects.get(name="from-csv")
    assert list(campaign.invitations.values_list("invitee", flat=True)) == ["ann1", "ann2"]
    assert campaign.practice == 1 and campaign.guidelines == "Rank *fluency*."
    empty = organizer.post("/tasks/insight/campaigns/", {**fields, "name": "nobody"})
    assert empty.status_code == 400 and empty.content.decode().count("invite at least one annotator") == 1


def test_a_pending_invitations_controls_test_nobody(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        accepted=False,
        screens_per_annotator=12,
        controls=0.5,
        redundancy=1,
    )
    ann1 = annotator("ann1")
    with django_capture_on_commit_callbacks(execute=True):
        accept(Invitation.objects.get(campaign=campaign, invitee="ann1"), ann1)
    assert judge_all(campaign, ann1, django_capture_on_commit_callbacks) == 12
    campaign.refresh_from_db()
    assert [c["user"] for c in campaign.results["controls"]] == ["ann1"]  # ann2 has not accepted
    assert campaign.results["systems"] and campaign.results["annotators"][0]["trusted"]


def test_the_meta_evaluation_says_no_empty_judgments_sentence(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks)
    for name in ("ann1", "ann2"):
        judge_all(campaign, annotator(name), django_capture_on_commit_callbacks)
    page = web(insight_task["organizer"]).get("/tasks/insight/meta-evaluation/?phase=dev")
    assert page.status_code == 200 and b"Which metric agrees" in page.content
    assert b"Judgments: ." not in page.content and b"Judgments:" not in page.content  # no file: nothing to name
