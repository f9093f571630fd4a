"""One integer parser for every query parameter, form and import field: ASCII digits,
bounded, a clear error otherwise. ``'²'.isdigit()`` is true and ``int('²')`` fails, so a
check by ``isdigit`` then ``int`` was a 500 at the ratings import (item), team approval,
reassigning screens and the campaign form's scales; ``import_judgments`` printed a
traceback instead of exiting 2."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from leaderboard import params
from leaderboard.models import Campaign, Invitation
from scoring.fields.integers import whole_number
from tests.campaigns.support import make_campaign

pytestmark = pytest.mark.django_db
HOSTILE_DIGITS = ["²", "٣", "１", "-1", "1" * 13, " 1", "1_0", "+1", "", "0x1"]


def web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("text", HOSTILE_DIGITS)
def test_the_parser_takes_ascii_digits_only(text):
    assert whole_number(text, minimum=0) is None
    with pytest.raises(params.BadParameter, match="ASCII digits"):
        params.integer(text, "page")


def test_the_parser_reads_what_it_should():
    assert whole_number("42") == 42 and whole_number("-3", minimum=-5) == -3
    assert whole_number("7", maximum=6) is None and params.integer("0", "page") == 0


def ratings_csv(insight_task, item: str) -> bytes:
    system = next(iter(insight_task["submissions"].values())).system_name
    return f"annotator,item,system,scale,value\nann,{item},{system},fluency,3\n".encode()


@pytest.mark.parametrize("item", ["²", "٣", "１"])
def test_a_ratings_item_in_other_digits_is_a_400_naming_the_line(insight_task, item):
    answer = web(insight_task["organizer"]).post(
        "/api/tasks/insight/campaigns/digits/import/",
        {"file": SimpleUploadedFile("r.csv", ratings_csv(insight_task, item))},
    )
    assert answer.status_code == 400, answer.content[:500]
    assert answer.json()["errors"][0]["line"] == 2 and "item" in answer.json()["errors"][0]["message"]


def test_import_judgments_exits_2_with_a_message(insight_task, tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(ratings_csv(insight_task, "²"))
    with pytest.raises(CommandError) as raised:
        call_command("import_judgments", "insight", str(path), "--campaign", "digits")
    assert raised.value.returncode == 2 and "item '²'" in str(raised.value)


def test_team_approval_with_other_digits_is_a_400(insight_task):
    answer = web(insight_task["organizer"]).post("/tasks/insight/teams/", {"team": ["²"]})
    assert answer.status_code == 400 and "team" in answer.content.decode()


def test_reassigning_with_other_digits_is_a_400(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks)
    target = Invitation.objects.filter(campaign=campaign).first()
    answer = web(insight_task["organizer"]).post(
        f"/tasks/insight/campaigns/{campaign.name}/reassign/", {"from": "²", "to": str(target.pk)}
    )
    assert answer.status_code == 400 and "from" in answer.content.decode()


def test_the_campaign_forms_scales_in_other_digits_are_named(insight_task):
    fields = {
        "name": "digits",
        "phase": "dev",
        "annotators": "ann1",
        "screens_per_annotator": 4,
        "outputs_per_screen": 1,
        "redundancy": 1,
        "repeats": 0,
        "controls": 0,
        "threshold": 0.05,
        "mode": "rating",
        "seed": 0,
        "practice": 0,
        "scales": "fluency 1 ²",
    }
    answer = web(insight_task["organizer"]).post("/tasks/insight/campaigns/", fields)
    assert answer.status_code == 400 and "min and max integers" in answer.content.decode()
    assert not Campaign.objects.filter(name="digits").exists()


@pytest.mark.parametrize(
    "point", ["²", "--1", "1" * 5000, "٣"], ids=["superscript", "two-minus", "5000-digits", "arabic"]
)
def test_a_scales_label_at_a_point_in_other_digits_is_a_400(insight_task, point):
    """A label's point was read by ``point.lstrip('-').isdigit()`` then ``int``: ``'²'``,
    ``'--1'`` and 5,000 digits (past Python's int string limit) were 500s at campaign
    creation, and ``'٣'`` was taken as 3."""
    body = {
        "name": "labels",
        "phase": "dev",
        "annotators": ["ann1"],
        "screens_per_annotator": 4,
        "outputs_per_screen": 1,
        "redundancy": 1,
        "mode": "rating",
        "scales": [{"name": "fluency", "min": 1, "max": 4, "labels": {point: "bad", "4": "good"}}],
    }
    client = Client(raise_request_exception=False)
    client.force_login(insight_task["organizer"])
    answer = client.post("/api/tasks/insight/campaigns/", body, content_type="application/json")
    assert answer.status_code == 400, answer.content[:300]
    assert "labels" in answer.content.decode()
    assert not Campaign.objects.filter(name="labels").exists()
