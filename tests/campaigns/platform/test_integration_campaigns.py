"""On the real stack, a campaign's screens are sampled and its judgments ranked by a
Celery worker, never in a request: the API answers at once, the worker catches up."""

import pytest
from rest_framework.test import APIClient

from leaderboard.models import Campaign, Screen
from tests.campaigns.support import accept_invitations, annotator, careful_ranks
from tests.conftest import build_insight_task

from ...platform.workers import REAL_STACK, wait_for

pytestmark = REAL_STACK


@pytest.mark.django_db(transaction=True)
def test_a_worker_prepares_and_ranks_a_campaign(workers, settings):
    settings.GEC_CAMPAIGN_RANK_EVERY = 3  # the judgments' job waits 3 s after the first ranking
    data = build_insight_task(
        "camp-worker", teams={"alice": "T5", "bob": "BART"}
    )  # scored inline, before the worker is asked
    annotator("ann1")
    organizer, ann1 = APIClient(), APIClient()
    organizer.force_authenticate(data["organizer"])
    ann1.force_authenticate(annotator("ann1"))
    base = "/api/tasks/camp-worker/campaigns/"
    answer = organizer.post(base, {"name": "live", "annotators": ["ann1"], "screens_per_annotator": 4}, format="json")
    assert answer.status_code == 201 and answer.json()["status"] == "preparing"
    accept_invitations(Campaign.objects.get(name="live"))
    wait_for(
        lambda: Campaign.objects.filter(name="live", status="ready").exists(), what="the screens sampled by the worker"
    )
    for _ in range(4):
        body = ann1.get(base + "live/next/").json()
        ranks = careful_ranks(Screen.objects.get(assignments__pk=body["item"]))
        assert (
            ann1.post(base + "live/judgments/", {"item": body["item"], "ranks": ranks}, format="json").status_code
            == 201
        )
    assert ann1.get(base + "live/next/").status_code == 204
    wait_for(
        lambda: Campaign.objects.filter(name="live", ranked_version=4 + 1).exists(),  # and the acceptance
        what="the ranking by the worker",
    )
    results = organizer.get(base + "live/").json()
    assert results["rankings"] >= 1 and results["systems"] and results["progress"]["done"] == 4
