"""A metric is one place: each declares its per-sentence columns and fills them from its
stored statistics, so GLEU and M2 reach the per-sentence download as ERRANT does, and
the platform's download names no metric (leaderboard/insights/per_sentence.py)."""

import csv
import io
from pathlib import Path

import pytest

import scoring
from tests.conftest import build_insight_task, remove_insight_task

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
LINES = 12


@pytest.fixture(scope="module")
def scored(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        data = build_insight_task("per-sentence-columns", lines=LINES, metrics=["errant", "m2", "gleu"])
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def download(data: dict, system: str) -> list[dict]:
    from django.test import Client

    client = Client()
    client.force_login(data["organizer"])
    pk = data["submissions"][system].pk
    response = client.get(f"/tasks/per-sentence-columns/submissions/{pk}/per-sentence/?format=csv")
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_gleu_and_m2_reach_the_per_sentence_download(scored):
    rows = download(scored, "T5")
    assert len(rows) == LINES
    for metric in scoring.metrics_named(["errant", "m2", "gleu"]):
        assert {f"{metric.name} {column}" for column in metric.sentence_columns} <= set(rows[0])
    assert all(0 <= float(row["gleu score"]) <= 1 for row in rows)


def test_m2_rows_sum_to_its_corpus_counts(scored):
    from leaderboard.models import MetricResult

    rows = download(scored, "T5")
    scores = MetricResult.objects.get(submission=scored["submissions"]["T5"], metric="m2").scores
    for key in ("tp", "fp", "fn"):
        assert sum(int(float(row[f"m2 {key}"])) for row in rows) == scores[key]


def test_every_family_declares_its_columns():
    declared = [m for m in scoring.metrics_named() if m.sentence_columns]
    assert {"errant", "m2", "gleu", "gotoscorer", "usim", "cleme", "cleme2"} <= {m.name for m in declared}


def test_the_download_names_no_metric():
    text = (ROOT / "leaderboard" / "insights" / "per_sentence.py").read_text()
    code = text.split('"""', 2)[2]  # after the module's docstring
    assert not [name for name in scoring.metric_names() if f'"{name}"' in code]
