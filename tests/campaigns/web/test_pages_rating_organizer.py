"""The organizer's page of a rating campaign and what an invitee reads: the invitations
table with the numbers Reassign asks for, the screens skipped with their comments, a column
of each annotator's consistency once the figures carry it, one count of a
queue everywhere (practice screens left out, in every table and in the annotator's own
progress), the scale's point labels from the form, and the invitation worded for ratings."""

from __future__ import annotations

import pytest
from django.test import Client

from leaderboard.campaigns.insights.campaigns import annotator_progress, next_screen, progress
from leaderboard.campaigns.selectors.invitations import invitation_rows
from leaderboard.campaigns.services.judging import skip_screen
from leaderboard.campaigns.services.ratings import record_ratings
from leaderboard.campaigns.views.campaigns import scales_of
from leaderboard.models import Campaign, Invitation
from tests.campaigns.support import annotator, make_campaign

pytestmark = pytest.mark.django_db
SCALES = [{"name": "fluency", "min": 1, "max": 4, "labels": {"1": "incomprehensible", "4": "native-like"}}]


def web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def rated(insight_task, django_capture_on_commit_callbacks):
    """A rating campaign with a practice screen each: ann1 rates the practice, skips one
    screen with a comment and rates one; ann2 has not started."""
    capture = django_capture_on_commit_callbacks
    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        capture,
        name="rated",
        mode="rating",
        outputs_per_screen=2,
        redundancy=1,
        controls=0,
        screens_per_annotator=4,
        practice=1,
        scales=SCALES,
    )
    ann1 = annotator("ann1")
    with capture(execute=True):
        for step in ("practice", "skip", "rate"):
            screen = next_screen(campaign, ann1)
            if step == "skip":
                skip_screen(campaign, ann1, screen["item"], "zqv the outputs are cut off", 3.5)
            else:
                values = {o["key"]: {"fluency": 3} for o in screen["outputs"]}
                record_ratings(campaign, ann1, screen["item"], values, 2.0)
    campaign.refresh_from_db()
    return campaign


def test_one_count_of_a_queue_everywhere(rated):
    ann1 = annotator("ann1")
    per = progress(rated)["annotators"]
    rows = {r["user"]: r for r in invitation_rows(rated) if r["user"]}
    assert per["ann1"] == {"done": 2, "total": 4} == annotator_progress(rated, ann1)
    assert {k: rows["ann1"][k] for k in ("done", "total")} == per["ann1"]
    assert {k: rows["ann2"][k] for k in ("done", "total")} == per["ann2"] == {"done": 0, "total": 4}


def test_the_page_shows_invitations_skips_and_counts(rated, insight_task):
    page = web(insight_task["organizer"]).get("/tasks/insight/campaigns/rated/").content.decode()
    for invitation in Invitation.objects.filter(campaign=rated):
        assert f'data-invitation="{invitation.pk}"' in page
    assert 'id="skipped"' in page and "zqv the outputs are cut off" in page
    assert "2 of 8 screens rated" in page and "<td>2/4</td>" in page
    assert "consistency (fluency)" in page  # the results carry each annotator's alpha (None while unrepeated)


def test_a_consistency_column_once_the_figures_carry_it(rated, insight_task):
    results = dict(rated.results)
    results["annotators"] = [{"user": "ann1", "screens": 2, "controls": 0, "p_value": None, "trusted": True}]
    results["agreement"] = {**results.get("agreement", {}), "intra_alpha_by_annotator": {"fluency": {"ann1": 0.8123}}}
    Campaign.objects.filter(pk=rated.pk).update(results=results)
    page = web(insight_task["organizer"]).get("/tasks/insight/campaigns/rated/").content.decode()
    assert "consistency (fluency)" in page and 'data-alpha="0.8123"' in page and ">0.812<" in page


def test_the_rating_screen_and_invitation_speak_of_ratings(rated):
    page = web(annotator("ann2")).get("/tasks/insight/campaigns/rated/judge/").content.decode()
    assert 'data-mode="rating"' in page and 'id="skip"' in page and 'id="practice"' in page
    assert "leaderboard/judge.js" in page and "leaderboard/screen_text.js" in page and "<script>" not in page
    invitation = Invitation.objects.filter(campaign=rated, invitee="ann2")
    invitation.update(status=Invitation.Status.PENDING)  # as a new invitee finds it
    token = invitation.get().token
    invitation = Client().get(f"/invitations/{token}/").content.decode()
    assert "rate corrections" in invitation and "fluency from 1 to 4" in invitation and "you rank" not in invitation
    screen = next_screen(rated, annotator("ann2"))
    assert screen["scales"] == SCALES and screen["practice"] is True


def test_point_labels_from_the_form_and_their_problems():
    assert scales_of("fluency 1 4 1=incomprehensible; 4=native-like") == SCALES
    from leaderboard.campaigns.services.ratings import checked_scales

    problems: list[str] = []
    checked_scales([{"name": "fluency", "min": 1, "max": 4, "labels": {"7": "x"}}], problems)
    assert problems == ["scales[0].labels: '7' is not a point of the scale 1-4"]
    problems = []
    checked_scales(scales_of("fluency 1 4 bad labels"), problems)
    assert problems and "each label 1 to 80 characters" in problems[0]
