"""Publishing, importing and exporting a campaign: the board's human
column group (page, API, exports), the meta-evaluation's schemes, judgments.xml read back
by ``scoring human`` to the same figures, the CSV, and ``manage.py import_judgments``."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from leaderboard.campaigns.services.publish import set_published
from leaderboard.models import Campaign, Judgment
from scoring.human import rank_systems
from scoring.meta import read_judgments
from tests.campaigns.support import annotator, careful_ranks, careless_ranks, judge_all, make_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def judged(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        screens_per_annotator=14,
        controls=0.4,
        redundancy=2,
        repeats=2,
    )
    judge_all(campaign, annotator("ann1"), django_capture_on_commit_callbacks, careful_ranks)
    judge_all(campaign, annotator("ann2"), django_capture_on_commit_callbacks, careless_ranks)
    campaign.refresh_from_db()
    return campaign


def organizer_client(data) -> Client:
    client = Client()
    client.force_login(data["organizer"])
    return client


def test_exported_xml_reads_back_to_the_same_figures(judged, insight_task):
    answer = organizer_client(insight_task).get("/api/tasks/insight/campaigns/human/judgments.xml")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/xml"
    items = read_judgments(answer.content)
    assert {item.user for item in items} == {"ann1"}  # ann2 is untrusted: left out
    again = rank_systems(items, bootstrap=1000, seed=judged.seed).as_json()
    stored = judged.results
    assert (
        again["systems"] == stored["systems"]
        and again["clusters"] == stored["clusters"]
        and again["agreement"] == stored["agreement"]
    )
    assert len(items) == stored["rankings"]


def test_csv_lists_every_judgment_with_what_counts(judged, insight_task):
    answer = organizer_client(insight_task).get("/api/tasks/insight/campaigns/human/judgments.csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert {r["user"] for r in rows} == {"ann1", "ann2"}
    assert all(r["counted"] == "False" for r in rows if r["user"] == "ann2" or r["kind"] == "control")
    assert any(r["kind"] == "control" for r in rows) and any(r["kind"] == "repeat" for r in rows)


def test_publishing_adds_the_human_column_group(judged, insight_task):
    client = organizer_client(insight_task)
    before = client.get("/api/tasks/insight/leaderboard/").json()
    assert "human" not in before and "human" not in before["rows"][0]
    set_published(judged, True)
    page = client.get("/tasks/insight/").content.decode()
    assert "Human human</a> EW" in page and 'data-campaign="human"' in page
    body = client.get("/api/tasks/insight/leaderboard/").json()
    assert body["human"] == ["human"]
    by_name = {r["system_name"]: r["human"]["human"] for r in body["rows"]}
    for name, values in judged.results["systems"].items():
        assert by_name[name] == {"expected_wins": values["expected_wins"], "cluster": values["cluster"]}
    export = client.get("/api/tasks/insight/leaderboard/export?format=csv").content.decode().splitlines()
    assert "human: human" in export[0] and "EW" in export[1] and "cluster" in export[1]
    assert client.get("/api/tasks/insight/leaderboard/export?format=tex").status_code == 200


def test_a_published_rating_campaign_adds_a_column_per_scale(
    insight_task, tmp_path, django_capture_on_commit_callbacks
):
    """MultiGEC's human evaluation as a board column: each scale's mean z-score and cluster."""
    from django.core.cache import cache

    cache.clear()  # a board body an earlier test cached at this pool version, before its rollback
    path = tmp_path / "ratings.csv"
    rows = [
        f"{a},{i},{s},{scale},{v}"
        for a in ("x", "y")
        for i in (1, 2, 3)
        for scale in ("grammaticality", "fluency")
        for s, v in (("T5", 4), ("BART", 2), ("INPUT", 1))
    ]
    path.write_text("annotator,item,system,scale,value\n" + "\n".join(rows) + "\n")
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_judgments", "insight", str(path), "--campaign", "essays")
    campaign = Campaign.objects.get(name="essays")
    set_published(campaign, True)
    client = organizer_client(insight_task)
    page = client.get("/tasks/insight/").content.decode()
    assert "Human essays:grammaticality</a> z" in page and 'data-campaign="essays:fluency"' in page
    body = client.get("/api/tasks/insight/leaderboard/").json()
    assert body["human"] == ["essays:grammaticality", "essays:fluency"]
    by_name = {r["system_name"]: r["human"] for r in body["rows"]}
    figures = campaign.results["systems"]["T5"]["scales"]["fluency"]
    assert by_name["T5"]["essays:fluency"] == {"z": figures["z"], "mean": 4.0, "cluster": figures["cluster"]}
    assert by_name["GECToR-BERT"]["essays:fluency"] is None  # not rated
    export = client.get("/api/tasks/insight/leaderboard/export?format=csv").content.decode().splitlines()
    assert "human: essays:fluency" in export[0] and "z" in export[1].split(",")


def test_meta_evaluation_counts_published_campaigns(judged, insight_task):
    client = organizer_client(insight_task)
    body = client.get("/api/tasks/insight/meta-evaluation/").json()  # ranked: the organizers count it already
    assert {scheme for per_path in body["system"].values() for scheme in per_path} == {"human:EW", "human:TS"}
    set_published(judged, True)
    body = client.get("/api/tasks/insight/meta-evaluation/").json()
    schemes = {scheme for per_path in body["system"].values() for scheme in per_path}
    assert schemes == {"human:EW", "human:TS"}
    assert client.get("/tasks/insight/meta-evaluation/?scheme=human:TS").status_code == 200


XML = """<?xml version="1.0"?>
<appraise-results><error-correction-ranking-result>
<ranking-item src-id="3" user="x"><translation system="T5" rank="1"/><translation system="BART INPUT" rank="2"/>\
<translation system="GECToR-BERT" rank="3"/></ranking-item>
<ranking-item src-id="9" user="y"><translation system="BART" rank="1"/><translation system="T5" rank="2"/>\
<translation system="INPUT" rank="4"/></ranking-item>
</error-correction-ranking-result></appraise-results>
"""


def test_import_command_creates_the_campaign(insight_task, tmp_path, django_capture_on_commit_callbacks):
    path = tmp_path / "judgments.xml"
    path.write_text(XML)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_judgments", "insight", str(path), "--campaign", "elsewhere")
    campaign = Campaign.objects.get(name="elsewhere")
    assert Judgment.objects.filter(campaign=campaign, imported=True).count() == 2
    assert set(campaign.results["systems"]) == {"T5", "BART", "INPUT", "GECToR-BERT"}
    items = read_judgments(
        organizer_client(insight_task).get("/api/tasks/insight/campaigns/elsewhere/judgments.xml").content
    )
    assert [item.output_groups() for item in items] == [item.output_groups() for item in read_judgments(XML.encode())]


def test_import_command_takes_ratings_as_csv(insight_task, tmp_path, django_capture_on_commit_callbacks):
    """A ``*.csv`` is ratings into a rating campaign; the same rows again are refused (exit 2)."""
    path = tmp_path / "ratings.csv"
    rows = [f"{a},{i},{s},fluency,{v}" for a in ("x", "y") for i in (1, 2) for s, v in (("T5", 4), ("BART", 1))]
    path.write_text("annotator,item,system,scale,value\n" + "\n".join(rows) + "\n")
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_judgments", "insight", str(path), "--campaign", "rated")
    campaign = Campaign.objects.get(name="rated")
    assert campaign.mode == "rating" and campaign.scales == [{"name": "fluency", "min": 1, "max": 4}]
    assert campaign.results["systems"]["T5"]["scales"]["fluency"]["mean"] == 4.0
    with pytest.raises(CommandError, match="imported already") as error:
        call_command("import_judgments", "insight", str(path), "--campaign", "rated")
    assert error.value.returncode == 2
    with pytest.raises(CommandError, match="rates: import its ratings as CSV"):
        (tmp_path / "judgments.xml").write_text(XML)
        call_command("import_judgments", "insight", str(tmp_path / "judgments.xml"), "--campaign", "rated")


def test_import_names_every_unknown_system(insight_task, tmp_path):
    path = tmp_path / "bad.xml"
    path.write_text(XML.replace('"T5"', '"T6"').replace('"BART"', '"Bert"', 1))
    with pytest.raises(CommandError) as error:
        call_command("import_judgments", "insight", str(path), "--campaign", "bad")
    assert error.value.returncode == 2
    assert "T6" in str(error.value) and "Bert" in str(error.value) and str(path) in str(error.value)
    assert not Campaign.objects.filter(name="bad").exists()
    path.write_text(XML.replace('src-id="9"', 'src-id="999"'))
    with pytest.raises(CommandError, match="src-id 999"):
        call_command("import_judgments", "insight", str(path), "--campaign", "bad")


def test_upload_on_the_campaign_page(judged, insight_task, django_capture_on_commit_callbacks):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = organizer_client(insight_task)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(
            "/tasks/insight/campaigns/human/import/", {"file": SimpleUploadedFile("j.xml", XML.encode())}
        )
    assert answer.status_code == 302
    assert Judgment.objects.filter(campaign=judged, imported=True).count() == 2
    bad = client.post(
        "/tasks/insight/campaigns/human/import/",
        {"file": SimpleUploadedFile("j.xml", XML.replace('"T5"', '"T6"').encode())},
    )
    assert bad.status_code == 400 and b"T6" in bad.content
    other = Client()
    other.force_login(annotator("ann1"))
    assert (
        other.post(
            "/tasks/insight/campaigns/human/import/", {"file": SimpleUploadedFile("j.xml", XML.encode())}
        ).status_code
        == 403
    )
