"""A published rating campaign's built-in outputs (ORIGINAL, REFERENCE) on the board: marked
rows at the table's foot and the board API's ``builtin``, never ranked rows, and gone again
when the campaign is withdrawn (the same rule as the campaign's columns)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from leaderboard.campaigns.services.publish import set_published
from leaderboard.campaigns.services.ratings import record_ratings
from tests.campaigns.support import annotator, make_campaign

pytestmark = pytest.mark.django_db
SCALES = [{"name": "grammaticality", "min": 1, "max": 4}]


def rate_everything(campaign, capture) -> None:
    """Each annotator rates each output of their screens: fewer edits, lower (ORIGINAL: 1)."""
    for name in ("ann1", "ann2"):
        user = annotator(name)
        for assignment in campaign.assignments.filter(annotator=user).select_related("screen"):
            values = {o["key"]: {"grammaticality": min(4, 1 + len(o["edits"]))} for o in assignment.screen.outputs}
            with capture(execute=True):
                record_ratings(campaign, user, assignment.pk, values)


def test_builtin_outputs_show_on_the_board_while_published(insight_task, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    cache.clear()  # a board body an earlier test cached at this pool version, before its rollback
    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        capture,
        name="essays",
        mode="rating",
        scales=SCALES,
        builtin=["ORIGINAL", "REFERENCE"],
        outputs_per_screen=5,
        redundancy=2,
    )
    rate_everything(campaign, capture)
    campaign.refresh_from_db()
    systems = campaign.results["systems"]
    assert {"ORIGINAL", "REFERENCE"} <= set(systems), campaign.results.get("message")
    client = Client()
    client.force_login(insight_task["organizer"])
    with capture(execute=True):
        set_published(campaign, True)

    page = client.get("/tasks/insight/").content.decode()
    for name, label in (("ORIGINAL", "ORIGINAL (uncorrected input)"), ("REFERENCE", "REFERENCE (first reference)")):
        assert f'<tr class="builtin" data-builtin="{name}"' in page
        assert f"{label}, rated by annotators" in page
    assert 'id="builtin-note"' in page and ">built-in</span>" in page
    body = client.get("/api/tasks/insight/leaderboard/").json()
    figures = systems["REFERENCE"]["scales"]["grammaticality"]
    assert body["builtin"]["essays:grammaticality"]["REFERENCE"] == {
        "z": figures["z"],
        "mean": figures["mean"],
        "cluster": figures["cluster"],
    }
    assert set(body["builtin"]["essays:grammaticality"]) == {"ORIGINAL", "REFERENCE"}
    assert body["human"] == ["essays:grammaticality"]  # the columns as before
    assert all(row["system_name"] not in ("ORIGINAL", "REFERENCE") for row in body["rows"])

    with capture(execute=True):
        set_published(campaign, False)
    page = client.get("/tasks/insight/").content.decode()
    assert 'class="builtin"' not in page and "ORIGINAL (uncorrected input)" not in page
    body = client.get("/api/tasks/insight/leaderboard/").json()
    assert "builtin" not in body and "human" not in body
