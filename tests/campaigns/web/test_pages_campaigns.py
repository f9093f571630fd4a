"""The campaign pages: the list and form, the live campaign page, the judging page,
publishing and importing, for every role and state."""

from __future__ import annotations

import pytest
from django.test import Client

from leaderboard.models import Campaign
from tests.campaigns.support import annotator, careful_ranks, careless_ranks, judge_all, make_campaign

pytestmark = pytest.mark.django_db


def web(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def campaign(insight_task, django_capture_on_commit_callbacks):
    return make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        screens_per_annotator=12,
        controls=0.5,
        redundancy=1,
    )


def test_organizer_creates_a_campaign_with_the_form(insight_task, django_capture_on_commit_callbacks):
    annotator("ann1")
    organizer = web(insight_task["organizer"])
    page = organizer.get("/tasks/insight/campaigns/")
    assert page.status_code == 200 and b"New campaign" in page.content
    with django_capture_on_commit_callbacks(execute=True):
        answer = organizer.post(
            "/tasks/insight/campaigns/",
            {
                "name": "by-form",
                "phase": "dev",
                "annotators": "ann1\nann1@example.org",
                "screens_per_annotator": 4,
                "outputs_per_screen": 5,
                "redundancy": 1,
                "repeats": 0,
                "controls": 0.25,
                "threshold": 0.5,
                "mode": "ranking",
                "seed": 3,
            },
        )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    campaign = Campaign.objects.get(name="by-form")
    assert campaign.status == "ready" and campaign.seed == 3
    bad = organizer.post(
        "/tasks/insight/campaigns/",
        {
            "name": "bad",
            "phase": "dev",
            "annotators": "no@body@here",
            "screens_per_annotator": 4,
            "outputs_per_screen": 5,
            "redundancy": 1,
            "repeats": 0,
            "controls": 0.25,
            "threshold": 0.05,
            "mode": "ranking",
            "seed": 0,
        },
    )
    assert bad.status_code == 400 and bad.content.count(b"no@body@here") == 2  # the field's value, and the error once


def test_the_form_is_the_organizers(insight_task):
    page = web(annotator("alice")).get("/tasks/insight/campaigns/")
    assert page.status_code == 200 and b"New campaign" not in page.content
    assert web(annotator("alice")).post("/tasks/insight/campaigns/", {"name": "x"}).status_code == 403


def test_campaign_page_by_role_and_state(campaign, insight_task, django_capture_on_commit_callbacks):
    url = "/tasks/insight/campaigns/human/"
    judge_all(campaign, annotator("ann1"), django_capture_on_commit_callbacks, careful_ranks)
    judge_all(campaign, annotator("ann2"), django_capture_on_commit_callbacks, careless_ranks)
    organizer = web(insight_task["organizer"])
    page = organizer.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert (
        'id="ranking"' in text
        and 'data-user="ann2" data-trusted="0"' in text
        and 'data-user="ann1" data-trusted="1"' in text
    )
    assert 'id="correlations"' in text and "data-path=" in text
    assert organizer.get(url + "?part=live").status_code == 200
    assert web(annotator("ann1")).get(url).status_code == 302  # to the judging page
    assert web(annotator("alice")).get(url).status_code == 403
    assert web().get(url).status_code == 403
    assert web(annotator("alice")).post(url + "publish/", {"published": "1"}).status_code == 403
    assert organizer.post(url + "publish/", {"published": "1"}).status_code == 302
    for user in (annotator("ann1"), annotator("alice"), None):
        assert web(user).get(url).status_code == 200
    assert web().get("/tasks/insight/campaigns/nope/").status_code == 404


def test_judging_page_is_the_annotators(campaign, insight_task):
    url = "/tasks/insight/campaigns/human/judge/"
    assert web(annotator("ann1")).get(url).status_code == 200
    for user in (insight_task["organizer"], annotator("alice")):
        assert web(user).get(url).status_code == 403
    assert web().get(url).status_code == 302  # to the log-in


def test_the_tab_shows_for_annotators_and_organizers(campaign, insight_task):
    assert b"Human evaluation" in web(annotator("ann1")).get("/tasks/insight/").content
    assert b"Human evaluation" in web(insight_task["organizer"]).get("/tasks/insight/").content
    assert b"Human evaluation" not in web(annotator("alice")).get("/tasks/insight/").content
