"""The campaign API and who may call it, in every state and role.

Roles: anonymous, a participant who is no annotator, an annotator, the organizer.
States: preparing, ready, done, published. Blind: nothing an annotator receives names a
system, team, submission, score or reference.
"""

from __future__ import annotations

import json
import re

import pytest
from rest_framework.test import APIClient

from leaderboard.models import Campaign, Screen
from tests.campaigns.support import accept_invitations, annotator, careful_ranks

CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="\w+"')

pytestmark = pytest.mark.django_db
BASE = "/api/tasks/insight/campaigns/"


def client_of(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def organizer(insight_task):
    return client_of(insight_task["organizer"])


@pytest.fixture
def campaign(insight_task, organizer, django_capture_on_commit_callbacks):
    annotator("ann1"), annotator("ann2")
    with django_capture_on_commit_callbacks(execute=True):
        answer = organizer.post(
            BASE,
            {
                "name": "human",
                "annotators": ["ann1", "ann2@example.org"],
                "screens_per_annotator": 6,
                "controls": 0.34,
                "threshold": 0.25,
            },
            format="json",
        )
    assert answer.status_code == 201, answer.content
    assert answer.json()["name"] == "human"
    found = Campaign.objects.get(name="human")
    with django_capture_on_commit_callbacks(execute=True):
        accept_invitations(found)  # as both would from their invitation's link
    return found


def judge(client, screen_body, capture):
    row = Screen.objects.get(assignments__pk=screen_body["item"])
    with capture(execute=True):
        return client.post(
            BASE + "human/judgments/", {"item": screen_body["item"], "ranks": careful_ranks(row)}, format="json"
        )


def test_create_needs_an_organizer(insight_task):
    body = {"name": "x", "annotators": ["ann1"], "screens_per_annotator": 2}
    assert client_of().post(BASE, body, format="json").status_code in (401, 403)
    assert client_of(annotator("someone")).post(BASE, body, format="json").status_code == 403


def test_create_names_every_problem(organizer):
    answer = organizer.post(
        BASE, {"name": "x", "annotators": ["gh ost"], "screens_per_annotator": 2, "systems": [123456]}, format="json"
    )
    assert answer.status_code == 400
    text = json.dumps(answer.json())
    assert "gh ost" in text and "123456" in text  # malformed, not unknown: unknown invitees are never named
    answer = organizer.post(BASE, {"name": "x", "annotators": "ann1", "screens_per_annotator": "many"}, format="json")
    assert answer.status_code == 400 and "screens_per_annotator" in json.dumps(answer.json())
    answer = organizer.post(
        BASE, {"name": "x", "annotators": ["ghost"], "screens_per_annotator": 20, "controls": 0.1}, format="json"
    )
    assert answer.status_code == 400 and "2 control screens" in json.dumps(answer.json())  # p >= 0.25: nobody trusted


def test_annotator_judges_to_the_end(campaign, django_capture_on_commit_callbacks):
    ann1 = client_of(annotator("ann1"))
    seen = 0
    while True:
        answer = ann1.get(BASE + "human/next/")
        if answer.status_code == 204:
            break
        assert answer.status_code == 200
        body = answer.json()
        assert set(body) >= {"item", "source", "context", "outputs"} and set(body["context"]) == {"before", "after"}
        assert all(set(o) == {"key", "text", "edits"} for o in body["outputs"])
        assert judge(ann1, body, django_capture_on_commit_callbacks).status_code == 201
        again = judge(ann1, body, django_capture_on_commit_callbacks)
        assert again.status_code == 409
        seen += 1
    assert seen == 6


def test_bad_judgments_are_400_naming_the_problem(campaign):
    ann1 = client_of(annotator("ann1"))
    body = ann1.get(BASE + "human/next/").json()
    for payload, words in (
        ({"item": body["item"], "ranks": {}}, "no rank for"),
        ({"item": body["item"], "ranks": {"ZZ": 1}}, "no output ZZ"),
        ({"item": "one", "ranks": {}}, "item"),
        ({"ranks": {}}, "item"),
        ({"item": 10**9, "ranks": {"A": 1}}, "not one of your screens"),
    ):
        answer = ann1.post(BASE + "human/judgments/", payload, format="json")
        assert answer.status_code == 400, payload
        assert words in json.dumps(answer.json()), (payload, answer.json())


@pytest.mark.parametrize("who", ["anonymous", "participant", "organizer"])
def test_only_annotators_get_screens_and_judge(campaign, insight_task, who):
    user = {"anonymous": None, "participant": annotator("alice"), "organizer": insight_task["organizer"]}[who]
    client = client_of(user)
    assert client.get(BASE + "human/next/").status_code == 403
    assert client.post(BASE + "human/judgments/", {"item": 1, "ranks": {"A": 1}}, format="json").status_code == 403


def test_results_by_role_and_state(campaign, insight_task, organizer):
    url = BASE + "human/"
    ann1, participant, anonymous = client_of(annotator("ann1")), client_of(annotator("alice")), client_of()
    body = organizer.get(url).json()
    assert set(body) >= {"systems", "clusters", "agreement", "rankings", "annotators", "signature", "progress"}
    assert {a["user"] for a in body["annotators"]} == {"ann1", "ann2"}
    assert set(body["annotators"][0]) >= {"user", "screens", "controls", "p_value", "trusted"}
    for client in (ann1, participant):
        assert client.get(url).status_code == 403
    assert anonymous.get(url).status_code in (401, 403)
    assert organizer.get(BASE + "human/judgments.xml").status_code == 200
    for client in (ann1, participant):
        assert client.get(BASE + "human/judgments.xml").status_code == 403
        assert client.get(BASE + "human/judgments.csv").status_code == 403
        assert client.post(BASE + "human/publish/", {"published": True}, format="json").status_code == 403
    assert organizer.post(BASE + "human/publish/", {"published": True}, format="json").status_code == 200
    for client in (ann1, participant, anonymous):
        assert client.get(url).status_code == 200
        assert client.get(BASE + "human/judgments.xml").status_code in (401, 403)
    assert client_of().get(BASE + "nope/").status_code == 404


def test_a_preparing_campaign_answers_409(insight_task, organizer):
    annotator("ann1")
    answer = organizer.post(
        BASE, {"name": "later", "annotators": ["ann1"], "screens_per_annotator": 2}, format="json"
    )  # not committed: not prepared
    assert answer.status_code == 201 and answer.json()["status"] == "preparing"
    assert client_of(annotator("ann1")).get(BASE + "later/next/").status_code == 403  # not accepted yet
    accept_invitations(Campaign.objects.get(name="later"))
    assert client_of(annotator("ann1")).get(BASE + "later/next/").status_code == 409


def test_nothing_reaches_an_annotator_that_names_a_system(campaign, insight_task, django_capture_on_commit_callbacks):
    """Blind: every screen's body and the annotator's page hold no system, team,
    submission id, score or reference text."""
    from scoring import read_text

    ann1 = annotator("ann1")
    client = client_of(ann1)
    forbidden = set()
    for name, submission in insight_task["submissions"].items():
        forbidden |= {name, submission.team.name, f"submission {submission.pk}", f"/submissions/{submission.pk}/"}
    dataset = insight_task["phase"].dataset
    outputs = {
        line for submission in insight_task["submissions"].values() for line in read_text(bytes(submission.content))
    }
    sources = set(read_text(dataset.source.encode()))
    references = {line for ref in dataset.references for line in read_text(ref["text"].encode())} - outputs - sources
    pages = []
    web = __import__("django.test", fromlist=["Client"]).Client()
    web.force_login(ann1)
    while (answer := client.get(BASE + "human/next/")).status_code == 200:
        body = answer.json()
        pages.append(answer.content.decode())
        pages.append(web.get("/tasks/insight/campaigns/human/judge/").content.decode())
        for text in pages[-2:]:
            shown = CSRF_TOKEN.sub("", text.replace(body["source"], ""))  # a random token may spell a name
            for word in forbidden:
                assert not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", shown), word
        fields = [body["source"], *body["context"].values(), *(o["text"] for o in body["outputs"])]
        assert not references & set(fields)
        for key in ("systems", "control_of", "score", "reference", "team", "submission"):
            assert key not in json.dumps(body)
        judge(client, body, django_capture_on_commit_callbacks)
    assert pages
