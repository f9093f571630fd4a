"""A published campaign's figures follow its phase's secrecy, as the board's human column
does: its ranking, clusters and correlations rank the phase's systems, so while the
phase's results are the organizers' its page and API are too, published or not. Every
role, in every state of the phase."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from leaderboard.campaigns.services.publish import set_published
from leaderboard.models import Membership, Phase, Team
from tests.campaigns.support import annotator, make_campaign

pytestmark = pytest.mark.django_db
PAGE, API = "/tasks/insight/campaigns/human/", "/api/tasks/insight/campaigns/human/"
PAST, FUTURE = timezone.now() - dt.timedelta(days=1), timezone.now() + dt.timedelta(days=30)
STATES = {  # (results visibility, revealed, ends at) -> public?
    "public while open": ((Phase.Visibility.PUBLIC, False, FUTURE), True),
    "organizers only": ((Phase.Visibility.ORGANIZERS, False, FUTURE), False),
    "after the end, still open": ((Phase.Visibility.AFTER_END, False, FUTURE), False),
    "after the end, ended": ((Phase.Visibility.AFTER_END, False, PAST), True),
    "organizers only, revealed": ((Phase.Visibility.ORGANIZERS, True, PAST), True),
}
# A judged system's name as a word: a CSRF token or nonce may hold the letters "T5".
SYSTEM = re.compile(r"\bT5\b")
ROLES = ["anonymous", "participant", "other team", "annotator", "organizer"]


@pytest.fixture
def published(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, screens_per_annotator=4
    )
    set_published(campaign, True)
    return campaign


def user_of(role: str, insight_task):
    if role == "anonymous":
        return None
    if role == "other team":
        user = annotator("dora")
        team = Team.objects.create(task=insight_task["task"], name="Dora's team")
        Membership.objects.create(user=user, team=team, task=insight_task["task"])
        return user
    return {"participant": annotator("alice"), "annotator": annotator("ann1"), "organizer": insight_task["organizer"]}[
        role
    ]


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("role", ROLES)
def test_published_results_follow_the_phase(published, insight_task, state, role):
    (visibility, revealed, ends_at), public = STATES[state]
    Phase.objects.filter(pk=published.phase_id).update(
        results_visibility=visibility, revealed=revealed, ends_at=ends_at
    )
    user = user_of(role, insight_task)
    api, web = APIClient(), Client()
    if user is not None:
        api.force_authenticate(user)
        web.force_login(user)
    sees = public or role == "organizer"
    answer = api.get(API)
    assert answer.status_code == (200 if sees else 403 if user else 401), answer.content
    if sees:
        assert "systems" in answer.json()
    else:
        assert "results of its phase" in answer.json()["detail"] and not SYSTEM.search(answer.content.decode())
    page = web.get(PAGE)
    assert page.status_code == (200 if sees else 302 if role == "annotator" else 403)
    if not sees:
        assert not SYSTEM.search(page.content.decode()) and web.get(PAGE + "?part=live").status_code in (302, 403)
