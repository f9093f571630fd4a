"""The meta-evaluation counts every ranked campaign for the organizers and only published
ones for everyone else: the page, the API and the navigation link, for four
viewers in an open phase and one ended with public results; the two audiences' tables are
cached apart; a phase judged only by an unpublished campaign is the organizers' alone."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from leaderboard.campaigns.insights import meta
from leaderboard.campaigns.services.judgments import attach_judgments
from leaderboard.campaigns.services.meta_tables import refresh_meta_tables
from leaderboard.campaigns.services.publish import set_published
from leaderboard.models import Campaign, Judgments, Phase
from scoring.meta import HumanJudgments
from tests.campaigns.support import annotator, careful_ranks, judge_all, make_campaign
from tests.support.meta_support_platform import insight_judgments

pytestmark = pytest.mark.django_db

PAGE, API, TASK = "/tasks/insight/meta-evaluation/", "/api/tasks/insight/meta-evaluation/", "/tasks/insight/"
SECRET, OPEN = "secretcamp", "opencamp"
VIEWERS = ("anonymous", "alice", "bob", "organizer")  # alice a participant, bob another team's member


def ranked_campaign(
    data, name: str, *, published: bool, version: int = 1, systems=("T5", "BART", "GECToR-BERT", "INPUT")
) -> Campaign:
    """A campaign as the ranking job leaves it (its figures stored), without screens."""
    figures = {
        s: {"expected_wins": 0.9 - 0.2 * k + 0.01 * version, "trueskill": 3.0 - k, "cluster": k + 1}
        for k, s in enumerate(systems)
    }
    return Campaign.objects.create(
        task=data["task"],
        phase=data["phase"],
        name=name,
        screens_per_annotator=1,
        status=Campaign.Status.READY,
        published=published,
        version=version,
        ranked_version=version,
        results={"systems": figures, "clusters": [], "rankings": 600},
        ranked_at=timezone.now(),
    )


def three_system_judgments() -> HumanJudgments:
    """The insight judgments' TS_sent without INPUT: the public table's systems are three."""
    scores = insight_judgments().schemes["TS_sent"]
    return HumanJudgments(schemes={"TS_sent": {s: scores[s] for s in ("T5", "BART", "GECToR-BERT")}})


def end_phase(data) -> None:
    Phase.objects.filter(pk=data["phase"].pk).update(
        starts_at=timezone.now() - dt.timedelta(days=10), ends_at=timezone.now() - dt.timedelta(days=1)
    )


def client_of(data, viewer: str) -> Client:
    client = Client()
    if viewer == "organizer":
        client.force_login(data["organizer"])
    elif viewer != "anonymous":
        client.force_login(User.objects.get(username=viewer))
    return client


def schemes_of(body: dict) -> set[str]:
    return {scheme for per_path in body["system"].values() for scheme in per_path}


@pytest.fixture
def judged(insight_task):
    """Attached judgments (three systems), a published campaign and an unpublished one that
    also ranks INPUT."""
    attach_judgments(insight_task["phase"], three_system_judgments(), ["TS_sent.txt"])
    ranked_campaign(insight_task, OPEN, published=True, systems=("T5", "BART", "GECToR-BERT"))
    ranked_campaign(insight_task, SECRET, published=False)
    return insight_task


@pytest.mark.parametrize("ended", [False, True], ids=["open", "ended"])
@pytest.mark.parametrize("viewer", VIEWERS)
def test_page_api_and_link_by_viewer_and_state(judged, viewer, ended):
    if ended:
        end_phase(judged)
    client = client_of(judged, viewer)
    page, answer = client.get(PAGE), client.get(API)
    link = ">Meta-evaluation</a>" in client.get(TASK).content.decode()
    if viewer == "organizer":
        assert page.status_code == answer.status_code == 200 and link
        body = answer.json()
        assert schemes_of(body) == {"TS_sent", f"{OPEN}:EW", f"{OPEN}:TS", f"{SECRET}:EW", f"{SECRET}:TS"}
        assert "INPUT" in body["systems"] and f"{SECRET}:TS" in page.content.decode()
    elif not ended:
        assert page.status_code == answer.status_code == 403 and not link
    else:
        assert page.status_code == answer.status_code == 200 and link
        body = answer.json()
        assert schemes_of(body) == {"TS_sent", f"{OPEN}:EW", f"{OPEN}:TS"}
        assert body["systems"] == ["BART", "GECToR-BERT", "T5"]  # INPUT only the unpublished campaign ranks
        assert SECRET not in json.dumps(body) and SECRET not in page.content.decode()
        assert "over 3 systems: BART, GECToR-BERT, T5" in page.content.decode()


def test_publishing_shows_the_campaign_to_the_public(judged):
    end_phase(judged)
    public = client_of(judged, "bob")
    assert f"{SECRET}:EW" not in schemes_of(public.get(API).json())
    set_published(Campaign.objects.get(name=SECRET), True)
    body = public.get(API).json()
    assert {f"{SECRET}:EW", f"{SECRET}:TS"} <= schemes_of(body) and "INPUT" in body["systems"]
    set_published(Campaign.objects.get(name=SECRET), False)
    assert SECRET not in json.dumps(public.get(API).json())


def counting_computations(monkeypatch) -> list:
    calls = []
    real = meta.compute_table

    def counted(judgments, human, submissions):
        calls.append(sorted(human.schemes))
        return real(judgments, human, submissions)

    monkeypatch.setattr(meta, "compute_table", counted)
    return calls


def worker_refresh(data) -> None:
    """What the worker does once results, judgments or campaigns change: keep the tables."""
    refresh_meta_tables(data["phase"].pk)


def test_the_organizers_table_never_serves_the_public(judged, monkeypatch):
    end_phase(judged)
    calls = counting_computations(monkeypatch)
    worker_refresh(judged)
    assert len(calls) == 2 and all(SECRET not in scheme for scheme in calls[0])  # the public's, from its own schemes
    organizer, public = client_of(judged, "organizer"), client_of(judged, "anonymous")
    assert f"{SECRET}:EW" in schemes_of(organizer.get(API).json())
    body = public.get(API).json()
    assert SECRET not in json.dumps(body) and body["systems"] == ["BART", "GECToR-BERT", "T5"]
    row = Judgments.objects.get(phase=judged["phase"])
    assert SECRET in json.dumps(row.organizer_table) and SECRET not in json.dumps(row.table)
    assert row.table_key and row.organizer_table_key and row.table_key != row.organizer_table_key
    organizer.get(API), public.get(API), organizer.get(PAGE), public.get(PAGE)
    assert len(calls) == 2  # both kept


def test_keys_follow_rankings_and_publishing(judged, monkeypatch):
    end_phase(judged)
    calls = counting_computations(monkeypatch)
    organizer, public = client_of(judged, "organizer"), client_of(judged, "anonymous")
    worker_refresh(judged)
    before = organizer.get(API).json()
    public.get(API)
    assert len(calls) == 2  # both computed by the worker, none by a read
    secret = Campaign.objects.get(name=SECRET)
    figures = {
        **secret.results,
        "systems": {**secret.results["systems"], "T5": {"expected_wins": 0.01, "trueskill": -5.0, "cluster": 4}},
    }
    Campaign.objects.filter(pk=secret.pk).update(results=figures, version=2, ranked_version=2)  # ranked again
    worker_refresh(judged)
    public.get(API)
    assert len(calls) == 3  # nothing the public counts changed: only the organizers' table again
    assert organizer.get(API).json()["system"] != before["system"] and len(calls) == 3
    set_published(secret, True)
    worker_refresh(judged)
    public_body = public.get(API).json()
    assert len(calls) == 4 and f"{SECRET}:EW" in schemes_of(public_body)
    assert (
        organizer.get(API).json() == public_body and len(calls) == 4
    )  # the same campaigns: the public slot serves both


def test_without_unpublished_campaigns_both_read_the_public_slot(insight_task, monkeypatch):
    attach_judgments(insight_task["phase"], three_system_judgments(), ["TS_sent.txt"])
    ranked_campaign(insight_task, OPEN, published=True, systems=("T5", "BART", "GECToR-BERT"))
    calls = counting_computations(monkeypatch)
    worker_refresh(insight_task)
    client_of(insight_task, "organizer").get(API)
    end_phase(insight_task)
    client_of(insight_task, "anonymous").get(API)
    row = Judgments.objects.get(phase=insight_task["phase"])
    assert len(calls) == 1 and row.organizer_table is None and row.table is not None


def test_a_read_of_a_stale_table_computes_it_and_keeps_nothing(judged, monkeypatch):
    """Reads write nothing: a stale table is computed for the answer, the worker keeps it."""
    end_phase(judged)
    calls = counting_computations(monkeypatch)
    public = client_of(judged, "anonymous")
    with CaptureQueriesContext(connection) as captured:
        body = public.get(API).json()
    writes = [
        q["sql"] for q in captured.captured_queries if "UPDATE" in q["sql"] and "leaderboard_judgments" in q["sql"]
    ]
    assert body["systems"] == ["BART", "GECToR-BERT", "T5"] and len(calls) == 1 and not writes
    assert Judgments.objects.get(phase=judged["phase"]).table is None
    worker_refresh(judged)
    assert public.get(API).json() == body and len(calls) == 3


def test_a_phase_judged_only_by_an_unpublished_campaign(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(
        insight_task["task"],
        insight_task["organizer"],
        django_capture_on_commit_callbacks,
        screens_per_annotator=14,
        controls=0.4,
        redundancy=2,
        repeats=2,
    )
    for name in ("ann1", "ann2"):
        judge_all(campaign, annotator(name), django_capture_on_commit_callbacks, careful_ranks)
    campaign.refresh_from_db()
    assert campaign.results["systems"]
    row = Judgments.objects.get(phase=insight_task["phase"])  # the ranking job made it, and refreshed the tables
    assert row.files == [] and row.organizer_table is not None and row.table is None
    end_phase(insight_task)
    for viewer in ("anonymous", "alice", "bob"):
        client = client_of(insight_task, viewer)
        assert client.get(PAGE).status_code == 404 and client.get(API).status_code == 404
        assert ">Meta-evaluation</a>" not in client.get(TASK).content.decode()
    organizer = client_of(insight_task, "organizer")
    assert schemes_of(organizer.get(API).json()) == {"human:EW", "human:TS"}
    assert organizer.get(PAGE).status_code == 200 and ">Meta-evaluation</a>" in organizer.get(TASK).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        set_published(campaign, True)  # the job refreshes the public table in the worker
    assert Judgments.objects.get(phase=insight_task["phase"]).table is not None
    public = client_of(insight_task, "bob")
    assert schemes_of(public.get(API).json()) == {"human:EW", "human:TS"}
    assert ">Meta-evaluation</a>" in public.get(TASK).content.decode()


def queries_of(client, url) -> int:
    client.get(url)  # the first request of a client sets up its session and rate bucket
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_query_cost_does_not_grow_with_campaigns(judged):
    end_phase(judged)
    organizer, public = client_of(judged, "organizer"), client_of(judged, "anonymous")
    worker_refresh(judged)
    before = {url: (queries_of(organizer, url), queries_of(public, url)) for url in (API, PAGE)}
    for k in range(4):
        ranked_campaign(judged, f"more{k}", published=k % 2 == 0)
    worker_refresh(judged)
    after = {url: (queries_of(organizer, url), queries_of(public, url)) for url in (API, PAGE)}
    assert after == before
