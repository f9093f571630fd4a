"""A rating campaign's pages: made with the form (its scales a line each), rated through
the rating page, its live page with the figures per system and scale, and a CSV of ratings
uploaded on it."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from leaderboard.campaigns.services.ratings import record_ratings
from leaderboard.models import Campaign, Screen
from tests.campaigns.support import accept_invitations, annotator

pytestmark = pytest.mark.django_db
FORM = {
    "name": "essays",
    "phase": "dev",
    "annotators": "ann1\nann2",
    "screens_per_annotator": 4,
    "outputs_per_screen": 1,
    "redundancy": 2,
    "repeats": 0,
    "controls": 0,
    "threshold": 0.05,
    "mode": "rating",
    "seed": 1,
    "scales": "grammaticality 1 4\nfluency 1 4",
}


def web(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_form_page_rating_and_upload(insight_task, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    ann1, ann2 = annotator("ann1"), annotator("ann2")
    organizer = web(insight_task["organizer"])
    bad = organizer.post("/tasks/insight/campaigns/", FORM | {"name": "bad", "scales": "fluency high"})
    assert bad.status_code == 400 and b"scales[0]" in bad.content
    with capture(execute=True):
        answer = organizer.post("/tasks/insight/campaigns/", FORM)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    campaign = Campaign.objects.get(name="essays")
    with capture(execute=True):
        accept_invitations(campaign)
    assert campaign.status == "ready" and [s["name"] for s in campaign.scales] == ["grammaticality", "fluency"]

    page = web(ann1).get("/tasks/insight/campaigns/essays/judge/")
    assert page.status_code == 200 and b'data-mode="rating"' in page.content and b"grammaticality 1" in page.content

    for user in (ann1, ann2):
        for assignment in campaign.assignments.filter(annotator=user).select_related("screen"):
            row: Screen = assignment.screen
            values = {o["key"]: {"grammaticality": 1 + len(o["edits"]) % 4, "fluency": 3} for o in row.outputs}
            with capture(execute=True):
                record_ratings(campaign, user, assignment.pk, values)
    live = organizer.get("/tasks/insight/campaigns/essays/?part=live").content.decode()
    assert 'id="ratings"' in live and "grammaticality" in live and 'data-cluster="1"' in live
    assert 'class="alpha" data-scale="grammaticality"' in live
    assert '<span class="intra-alpha" data-scale="fluency">–</span>' in live  # no repeats: no consistency figure
    whole = organizer.get("/tasks/insight/campaigns/essays/").content.decode()
    assert "Publish: open the figures to everyone" in whole and 'id="ratings"' in whole

    name = next(iter(campaign.systems.all())).system_name
    upload = SimpleUploadedFile("more.csv", f"annotator,item,system,scale,value\nfile,1,{name},fluency,9\n".encode())
    refused = organizer.post("/tasks/insight/campaigns/essays/import/", {"file": upload})
    assert refused.status_code == 400 and b"off the fluency scale" in refused.content
    upload = SimpleUploadedFile("more.csv", f"annotator,item,system,scale,value\nfile,1,{name},fluency,2\n".encode())
    with capture(execute=True):
        done = organizer.post("/tasks/insight/campaigns/essays/import/", {"file": upload})
    assert done.status_code == 302
    campaign.refresh_from_db()
    assert "file" in {a["user"] for a in campaign.results["annotators"]}
