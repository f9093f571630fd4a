"""Once a campaign is published, everyone who may see its results got its annotators'
usernames (the summary's annotators, progress and controls): anyone but the organizers
now gets counts (leaderboard/access.py, ``may_see_annotators``)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from leaderboard.campaigns.services.publish import set_published
from tests.campaigns.support import annotator, careful_ranks, judge_all, make_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks)
    judge_all(campaign, annotator("ann1"), django_capture_on_commit_callbacks, careful_ranks)
    set_published(campaign, True)
    campaign.refresh_from_db()
    return campaign


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_the_public_gets_counts_not_usernames(insight_task, published):
    url = f"/api/tasks/insight/campaigns/{published.name}/"
    body = client_of().get(url).json()
    text = json.dumps(body)
    assert "ann1" not in text and "ann2" not in text
    assert body["annotators"] == [] and body["annotator_count"] >= 1 and body["progress"]["annotators"] == {}
    assert body["progress"]["total"] > 0  # counts kept
    page = client_of().get(f"/tasks/insight/campaigns/{published.name}/").content.decode()
    assert "ann1" not in page


def test_an_annotator_gets_counts_too(insight_task, published):
    text = json.dumps(client_of(annotator("ann2")).get(f"/api/tasks/insight/campaigns/{published.name}/").json())
    assert "ann1" not in text


def test_the_organizers_see_who_annotated(insight_task, published):
    organizer = client_of(insight_task["organizer"])
    assert "ann1" in json.dumps(organizer.get(f"/api/tasks/insight/campaigns/{published.name}/").json())
    assert "ann1" in organizer.get(f"/tasks/insight/campaigns/{published.name}/").content.decode()
