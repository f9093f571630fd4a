"""The fair queue with a real Celery worker: one team's uploads queued
first do not hold another team's for more than one job each, and a team over
GEC_MAX_QUEUED_UPLOADS gets a 429 until its uploads are scored."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import Submission
from leaderboard.services.hosting.task_creation import create_task

from .conftest import SMALL_METRICS, client_for, make_user
from .workers import REAL_STACK, scored, wait_for

pytestmark = [*REAL_STACK, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def task(small_texts):
    return create_task(
        "small",
        title="Small",
        source=small_texts["source"],
        metrics=SMALL_METRICS,
        references=[("REF0", small_texts["REF0"]), ("REF1", small_texts["REF1"])],
    )


def upload(client, text: str, name: str):
    return client.post(
        "/api/tasks/small/submissions/",
        {"file": SimpleUploadedFile(f"{name}.txt", text.encode()), "system_name": name},
        format="multipart",
    )


def variants(small_texts, count: int) -> list[str]:
    """Distinct outputs (a line of each system swapped in), so no two are the same file."""
    base = small_texts["T5"].splitlines()
    others = small_texts["BART"].splitlines()
    return ["\n".join(others[k] if i == k else line for i, line in enumerate(base)) + "\n" for k in range(count)]


def test_the_second_team_waits_at_most_one_job_per_team(task, small_texts, workers):
    first, second = client_for(make_user("first")), client_for(make_user("second"))
    texts = variants(small_texts, 6)
    a = [upload(first, text, f"a{k}").json()["id"] for k, text in enumerate(texts[:4])]
    b = [upload(second, text, f"b{k}").json()["id"] for k, text in enumerate(texts[4:])]
    wait_for(scored(*a, *b), what="all six scored")
    rows = {s.pk: s for s in Submission.objects.all()}
    # first come first served would run a0 a1 a2 a3 b0 b1, b0 waiting for three of the
    # first team's jobs: the teams take turns, so from the moment a job of the second team
    # could go (queued, and its team's previous job started) at most one of the first's starts
    previous = None
    for pk in b:
        free = max(rows[pk].created_at, rows[previous].started_at) if previous else rows[pk].created_at
        ahead = [x for x in a if free < rows[x].started_at < rows[pk].started_at]
        assert len(ahead) <= 1, (pk, ahead)
        previous = pk
    assert rows[b[1]].started_at < rows[a[3]].started_at
    assert not Submission.objects.filter(dispatched_at__isnull=True).exists()


def test_a_team_over_the_queued_limit_gets_429_until_its_uploads_are_scored(task, small_texts, workers, settings):
    settings.GEC_MAX_QUEUED_UPLOADS = 2
    client = client_for(make_user("eager"))
    texts = variants(small_texts, 3)
    ids = [upload(client, texts[k], f"s{k}").json()["id"] for k in range(2)]
    refused = upload(client, texts[2], "s2")
    assert refused.status_code == 429
    assert "GEC_MAX_QUEUED_UPLOADS" in refused.json()["errors"][0]["message"]
    wait_for(scored(*ids), what="the two scored")
    accepted = upload(client, texts[2], "s2")
    assert accepted.status_code == 201
    wait_for(scored(accepted.json()["id"]), what="the third scored")
