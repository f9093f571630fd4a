"""What makes a campaign's figures trustworthy beyond its controls: a file of judgments is
imported once (the same content again is refused, or replaces the earlier import); the
count of rankings is the one ``scoring human`` says; the meta-evaluation correlates the
submissions a campaign judged, even after a team uploads again under the same name, and
the board's cell stays; a campaign enters the meta table only with enough rankings; and
its organizers, and no one else, delete it outside the admin."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client, override_settings
from django.utils import timezone

from leaderboard.campaigns.board import human_columns, with_human_columns
from leaderboard.campaigns.insights import meta
from leaderboard.campaigns.insights.campaigns import scheme_campaigns
from leaderboard.campaigns.services.publish import set_published
from leaderboard.models import Campaign, Judgment, Judgments, MetricResult, Screen, Submission
from scoring.human import rank_systems
from scoring.meta import read_judgments
from tests.campaigns.support import annotator, careful_ranks, judge_all, make_campaign

pytestmark = pytest.mark.django_db

XML = """<?xml version="1.0"?>
<appraise-results><error-correction-ranking-result>
<ranking-item src-id="3" user="x"><translation system="T5" rank="1"/>
  <translation system="BART INPUT" rank="2"/></ranking-item>
<ranking-item src-id="9" user="y"><translation system="BART" rank="1"/>
  <translation system="T5" rank="2"/></ranking-item>
<ranking-item src-id="4" user="y"></ranking-item>
</error-correction-ranking-result></appraise-results>
"""


@pytest.fixture
def judged(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks, screens_per_annotator=6
    )
    judge_all(campaign, annotator("ann1"), django_capture_on_commit_callbacks, careful_ranks)
    campaign.refresh_from_db()
    return campaign


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_a_file_is_imported_once_or_replaced(insight_task, tmp_path, django_capture_on_commit_callbacks, capsys):
    path = tmp_path / "judgments.xml"
    path.write_text(XML)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_judgments", "insight", str(path), "--campaign", "elsewhere")
    said = capsys.readouterr().out
    assert "2 rankings imported into campaign elsewhere (1 more rank fewer than two systems: not counted)" in said
    with pytest.raises(CommandError) as error:
        call_command("import_judgments", "insight", str(path), "--campaign", "elsewhere")
    assert error.value.returncode == 2 and "already imported into campaign elsewhere (2 rankings)" in str(error.value)
    campaign = Campaign.objects.get(name="elsewhere")
    assert Judgment.objects.filter(campaign=campaign).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_judgments", "insight", str(path), "--campaign", "elsewhere", "--replace")
    assert "they replace the 2 of the same file's earlier import" in capsys.readouterr().out
    assert Judgment.objects.filter(campaign=campaign).count() == 2
    other = tmp_path / "other.xml"  # another file's content is another import
    other.write_text(XML.replace('user="x"', 'user="z"'))
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_judgments", "insight", str(other), "--campaign", "elsewhere")
    campaign.refresh_from_db()
    assert Judgment.objects.filter(campaign=campaign).count() == 4 and campaign.results["rankings"] == 4


def test_the_api_refuses_a_file_imported_before_and_replaces_on_request(insight_task):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = client_of(insight_task["organizer"])
    url = "/api/tasks/insight/campaigns/elsewhere/import/"
    first = client.post(url, {"file": SimpleUploadedFile("j.xml", XML.encode())})
    assert first.status_code == 201 and (first.json()["imported"], first.json()["left_out"]) == (2, 1)
    again = client.post(url, {"file": SimpleUploadedFile("j.xml", XML.encode())})
    assert again.status_code == 400 and "already imported" in again.json()["errors"][0]["message"]
    replaced = client.post(url, {"file": SimpleUploadedFile("j.xml", XML.encode()), "replace": "true"})
    assert replaced.status_code == 201 and replaced.json()["replaced"] == 2


def test_results_count_rankings_as_scoring_human_does(insight_task, tmp_path, django_capture_on_commit_callbacks):
    path = tmp_path / "judgments.xml"
    path.write_text(XML)
    with django_capture_on_commit_callbacks(execute=True):
        call_command("import_judgments", "insight", str(path), "--campaign", "counted")
    results = Campaign.objects.get(name="counted").results
    assert results["rankings"] == rank_systems(read_judgments(XML.encode()), bootstrap=0).rankings == 2


def test_meta_evaluation_keeps_the_submissions_a_campaign_judged(judged, insight_task):
    ids = judged.results["system_ids"]
    name = sorted(ids)[0]
    judged_one = Submission.objects.get(pk=ids[name])
    again = Submission.objects.get(pk=judged_one.pk)
    again.pk = None
    again.created_at = timezone.now()
    again.save()  # the team uploads again under the same name: the latest scored one
    for result in MetricResult.objects.filter(submission=judged_one):
        result.pk, result.submission = None, again
        result.save()
    judgments = Judgments.objects.get(phase=judged.phase)
    campaigns = scheme_campaigns(judged.phase, unpublished=True)
    human, submissions = meta.judged(judgments, campaigns)
    assert submissions[name].pk == judged_one.pk != again.pk
    assert name in human.schemes["human:EW"]
    set_published(judged, True)
    columns = human_columns(judged.phase)
    row = {"submission_id": again.pk, "team": judged_one.team.name, "system_name": name}
    cell = with_human_columns([row], columns)[0]["human"]["human"]
    assert cell == {
        "expected_wins": judged.results["systems"][name]["expected_wins"],
        "cluster": judged.results["systems"][name]["cluster"],
    }


def test_a_campaign_enters_the_meta_table_only_with_enough_rankings(judged):
    assert [row[1] for row in scheme_campaigns(judged.phase, unpublished=True)] == ["human"]
    rankings = judged.results["rankings"]
    with override_settings(GEC_CAMPAIGN_MIN_RANKINGS=rankings + 1):
        assert scheme_campaigns(judged.phase, unpublished=True) == []
    with override_settings(GEC_CAMPAIGN_MIN_RANKINGS=rankings):
        assert len(scheme_campaigns(judged.phase, unpublished=True)) == 1


@pytest.mark.parametrize("who", ["anonymous", "annotator", "participant"])
def test_only_organizers_delete_a_campaign(judged, insight_task, who):
    from django.contrib.auth.models import User

    participant = User.objects.get(username="alice")
    user = {"anonymous": None, "annotator": annotator("ann1"), "participant": participant}[who]
    client = client_of(user)
    answer = client.delete("/api/tasks/insight/campaigns/human/")
    assert answer.status_code in (401, 403)
    page = client.post("/tasks/insight/campaigns/human/delete/", {"confirm": "on"})
    assert page.status_code in (302, 403) and (page.status_code == 403 or "/login" in page["Location"])
    assert Campaign.objects.filter(pk=judged.pk).exists()


def test_organizers_delete_a_campaign_by_the_api(judged, insight_task):
    client = client_of(insight_task["organizer"])
    answer = client.delete("/api/tasks/insight/campaigns/human/")
    assert answer.status_code == 200 and answer.json()["deleted"] and answer.json()["judgments"] > 0
    assert not Campaign.objects.filter(pk=judged.pk).exists() and not Screen.objects.filter(campaign_id=judged.pk)
    assert client.delete("/api/tasks/insight/campaigns/human/").status_code == 404


def test_organizers_delete_a_campaign_on_its_page_once_confirmed(judged, insight_task):
    client = client_of(insight_task["organizer"])
    assert b'id="delete-campaign"' in client.get("/tasks/insight/campaigns/human/").content
    unconfirmed = client.post("/tasks/insight/campaigns/human/delete/")
    assert unconfirmed.status_code == 302 and Campaign.objects.filter(pk=judged.pk).exists()
    done = client.post("/tasks/insight/campaigns/human/delete/", {"confirm": "on"})
    assert done.status_code == 302 and done["Location"].endswith("/tasks/insight/campaigns/")
    assert not Campaign.objects.filter(pk=judged.pk).exists()


def test_meta_intervals_of_a_campaign_resample_its_judgments(judged, insight_task):
    from leaderboard.campaigns.insights.campaigns import campaign_summary

    samples = judged.results["samples"]["expected_wins"]
    assert set(samples) == set(judged.results["systems"]) and {len(v) for v in samples.values()} == {1000}
    assert "samples" not in campaign_summary(judged)
    body = client_of(insight_task["organizer"]).get("/api/tasks/insight/meta-evaluation/").json()
    entries = [per_scheme for per_scheme in body["system"].values()]
    assert entries and all(e["human:EW"].get("resampled") == "sentences+judgments" for e in entries)
    assert all("resampled" not in e["human:TS"] for e in entries)


def test_a_prepared_campaigns_controls_are_further_from_every_reference(
    insight_task, django_capture_on_commit_callbacks
):
    from leaderboard.campaigns.services.controls import surely_worse
    from leaderboard.services.data.datasets import load_dataset

    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        name="controlled",
        screens_per_annotator=12,
        controls=0.5,
        threshold=0.5,
    )
    dataset = load_dataset(campaign.phase.dataset_id)
    screens = list(Screen.objects.filter(campaign=campaign, is_control=True))
    assert len(screens) == 12  # 6 each: none lacked a surely worse copy
    for screen in screens:
        copy = next(o for o in screen.outputs if o["control_of"])
        original = next(o for o in screen.outputs if o["key"] == copy["control_of"])
        references = [r.tokens[screen.line] for r in dataset.references if r.edits[screen.line] is not None]
        assert surely_worse(copy["text"].split(), original["text"].split(), references)
