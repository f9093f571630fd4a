"""Imported ratings are finite and on a scale a campaign may have: ``1e308`` made a
309-digit scale, an OverflowError in the worker and a campaign stuck ``ready`` with no
message; imported scale names are checked as at creation; the row and byte limits apply
while the file is read (a 40 MB CSV cost 35.6 s and 800 MB before its rows were counted);
and a ranking that fails says so on the campaign."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

import scoring
from leaderboard.campaigns.modes import rating as rating_mode
from leaderboard.campaigns.services.rating_imports import MAX_IMPORT_BYTES, import_file
from leaderboard.models import Campaign
from scoring.human.ratings import read_ratings

pytestmark = pytest.mark.django_db
HEADER = "annotator,item,system,scale,value"


def system_of(insight_task) -> str:
    return next(iter(insight_task["submissions"].values())).system_name


def upload(insight_task, rows: list[str], name: str = "rated"):
    client = Client()
    client.force_login(insight_task["organizer"])
    text = "\n".join([HEADER, *rows]) + "\n"
    return client.post(
        f"/api/tasks/insight/campaigns/{name}/import/", {"file": SimpleUploadedFile("r.csv", text.encode())}
    )


@pytest.mark.parametrize("value", ["1e308", "-1e308", "nan", "inf", "-Infinity", "１", "1_0"])
def test_a_value_that_is_no_plain_finite_number_is_named(insight_task, value):
    answer = upload(insight_task, [f"ann,1,{system_of(insight_task)},fluency,{value}"])
    assert answer.status_code == 400, answer.content[:400]
    assert answer.json()["errors"][0]["line"] == 2 and "value" in answer.json()["errors"][0]["message"]
    assert not Campaign.objects.filter(name="rated").exists()


@pytest.mark.parametrize(
    ("scale", "value", "said"),
    [("fluency", "5000", "at most 1000 apart"), ("Bad Name!", "3", "scales[0].name"), ("=1+2", "3", ".name")],
)
def test_a_new_campaigns_scales_are_checked_as_at_creation(insight_task, scale, value, said):
    system = system_of(insight_task)
    answer = upload(insight_task, [f"ann,1,{system},{scale},1", f"ann,2,{system},{scale},{value}"])
    assert answer.status_code == 400, answer.content[:400]
    assert said in answer.content.decode()
    assert not Campaign.objects.filter(name="rated").exists()


def test_reading_stops_at_the_row_past_the_limit():
    rows = "".join(f"ann,{i},S,fluency,3\n" for i in range(1, 10))
    with pytest.raises(scoring.InputError) as raised:
        read_ratings((HEADER + "\n" + rows).encode(), max_rows=3)
    assert [(p.line, p.message) for p in raised.value.problems] == [(5, "more than 3 ratings: the limit is 3")]


def test_a_file_over_the_byte_limit_is_refused_before_it_is_read(insight_task):
    phase = insight_task["task"].current_phase()
    data = (HEADER + "\n").encode() + b"ann,1,S,fluency,3\n" * (MAX_IMPORT_BYTES // 18 + 1)
    with pytest.raises(scoring.InputError, match=f"the limit is {MAX_IMPORT_BYTES}"):
        import_file(phase, "big", data, filename="big.csv")


def test_a_ranking_that_fails_says_so_on_the_campaign(insight_task, monkeypatch, django_capture_on_commit_callbacks):
    def broken(campaign):
        raise OverflowError("int too large to convert to float")

    monkeypatch.setattr(rating_mode, "rating_results", broken)
    with django_capture_on_commit_callbacks(execute=True):
        answer = upload(insight_task, [f"ann,1,{system_of(insight_task)},fluency,3"])
    assert answer.status_code == 201, answer.content[:400]
    campaign = Campaign.objects.get(name="rated")
    assert "Ranking the judgments failed (OverflowError" in campaign.message
    assert campaign.ranked_version == campaign.version  # not waiting for a ranking that will not come
    client = Client()
    client.force_login(insight_task["organizer"])
    assert "Ranking the judgments failed" in client.get("/tasks/insight/campaigns/rated/").content.decode()
