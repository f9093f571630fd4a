"""``GET /api/tasks/<slug>/meta-evaluation/``: organizers first, everyone after the task; cached per results."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from leaderboard.campaigns.insights import meta
from leaderboard.campaigns.services.judgments import attach_judgments
from leaderboard.campaigns.services.meta_tables import refresh_meta_tables
from leaderboard.models import MetricResult
from tests.support.meta_support_platform import insight_judgments

URL = "/api/tasks/insight/meta-evaluation/"


@pytest.fixture
def judged(insight_task, db):
    attach_judgments(insight_task["phase"], insight_judgments(), ["TS_sent.txt"])
    return insight_task


def test_organizers_get_the_table(judged, client):
    client.force_login(judged["organizer"])
    body = client.get(URL).json()
    entry = body["system"]["errant.cs.f"]["TS_sent"]
    assert entry["n_systems"] == 4 and len(entry["pearson_ci"]) == 2 and -1 <= entry["pearson"] <= 1
    assert body["sets"]["systems"]["system"]["errant.cs.f"]["TS_sent"]["n_systems"] == 3
    assert (
        body["sentence"]["gotoscorer.f"]["sent"]["pairs"] == 5 + 3
    )  # item 1: 6 pairs but the tie BART = INPUT; item 2: 3
    assert body["systems"] == ["BART", "GECToR-BERT", "INPUT", "T5"] and body["files"] == ["TS_sent.txt"]
    assert "samples:1000|seed:12345" in body["signature"] and body["signature"].startswith("scoring:")


@pytest.mark.django_db
def test_participants_wait_until_the_task_ends(judged, client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.get(username="alice"))
    assert client.get(URL).status_code == 403
    judged["task"].phases.update(ends_at=timezone.now() - timedelta(minutes=1))
    client.logout()
    assert client.get(URL).status_code == 200


@pytest.mark.django_db
def test_a_task_without_judgments_is_404(insight_task, client):
    client.force_login(insight_task["organizer"])
    assert client.get(URL).status_code == 404


def test_the_table_is_recomputed_only_when_results_change(judged, client):
    """The worker keeps the table (services/boards/meta_tables.py); reads serve it."""
    client.force_login(judged["organizer"])
    with mock.patch.object(meta, "meta_evaluate", wraps=meta.meta_evaluate) as evaluate:
        refresh_meta_tables(judged["phase"].pk)
        first = client.get(URL).json()
        assert client.get(URL).json() == first and evaluate.call_count == 1
        assert refresh_meta_tables(judged["phase"].pk) == 0  # nothing changed: nothing computed
        result = MetricResult.objects.filter(submission=judged["submissions"]["T5"], metric="errant").get()
        result.save()  # a rescore rewrites the row
        refresh_meta_tables(judged["phase"].pk)
        client.get(URL)
        assert evaluate.call_count == 2
