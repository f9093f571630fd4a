"""End to end on the real stack: PostgreSQL, Redis and `celery -A leaderboard worker`
processes started here, scoring the SEEDA subset (391 sentences) uploaded through the API.

The test database is pytest-django's (transactional tests, so the worker sees committed
rows); the worker gets its URL and a private Redis database number through its
environment. Metrics: ERRANT and GoToScorer (the platform scores whatever is registered;
two metrics keep the test near a minute).
"""

import json
import subprocess
import sys
import time

import pytest

from leaderboard.models import GoldChunk, MetricResult, Pool, Submission
from leaderboard.services.hosting.task_creation import create_task
from leaderboard.services.jobs.sweeper import sweep_stuck_submissions
from leaderboard.services.pool import membership as pool
from scoring import REGISTRY
from tests.conftest import ROOT, SUBSET_OUTPUTS, SUBSET_REFS
from tests.support.waits import until

from .conftest import client_for, make_user
from .workers import REAL_STACK, scored, wait_for

METRICS = ["errant", "gotoscorer"]
SYSTEMS = ["T5", "BART", "GECToR-BERT"]

pytestmark = REAL_STACK


def upload(client, name, team_client_name=None):
    with open(SUBSET_OUTPUTS / f"{name}.txt", "rb") as file:
        response = client.post("/api/tasks/seeda/submissions/", {"file": file, "system_name": name}, format="multipart")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def cli_scores(names):
    """``python -m scoring --json`` on the same files: the pool is the systems given."""
    command = [
        sys.executable,
        "-m",
        "scoring",
        "--source",
        str(SUBSET_OUTPUTS / "INPUT.txt"),
        "--metrics",
        ",".join(METRICS),
        "--json",
    ]
    for ref in SUBSET_REFS:
        command += ["--ref", str(ref)]
    for name in names:
        command += ["--hyp", f"{name}={SUBSET_OUTPUTS / name}.txt"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["systems"]


def api_scores(client, submission_id):
    body = client.get(f"/api/submissions/{submission_id}/").json()
    assert body["status"] == "scored"
    return body["scores"]


def fresh_pool(phase):
    stats = dict(
        MetricResult.objects.filter(submission__pool_membership__pool__phase=phase, metric="gotoscorer").values_list(
            "submission_id", "statistics"
        )
    )
    return REGISTRY["gotoscorer"](phase.task.scoring_options()).score_pool(stats)


@pytest.mark.django_db(transaction=True)
def test_uploads_are_scored_by_workers_and_pool_stays_exact(workers):
    task = create_task(
        "seeda",
        title="SEEDA subset",
        metrics=METRICS,
        source=(SUBSET_OUTPUTS / "INPUT.txt").read_text(encoding="utf-8"),
        references=[(p.stem, p.read_text(encoding="utf-8")) for p in SUBSET_REFS],
    )
    phase = task.phases.get()
    clients = [client_for(make_user(f"team{k}")) for k in range(4)]

    # (e) a malformed upload: a 400 naming the line, and no rows
    lines = (SUBSET_OUTPUTS / "T5.txt").read_bytes().split(b"\n")
    lines[9] = b"bad \xff\xfe bytes"
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = clients[0].post(
        "/api/tasks/seeda/submissions/",
        {"file": SimpleUploadedFile("t5.txt", b"\n".join(lines)), "system_name": "T5"},
        format="multipart",
    )
    assert response.status_code == 400
    assert [e["line"] for e in response.json()["errors"]] == [10]
    assert not Submission.objects.exists()

    # three systems through the API, scored by the worker
    first = upload(clients[0], SYSTEMS[0])
    second = upload(clients[1], SYSTEMS[1])
    wait_for(scored(first, second), what="two systems scored")
    two_pool = api_scores(clients[0], first)["gotoscorer"]
    third = upload(clients[2], SYSTEMS[2])
    wait_for(scored(third), what="the third system scored")

    # (a) leaderboard and submission scores equal the CLI's on the same pool
    expected = cli_scores(SYSTEMS)
    board = clients[0].get("/api/tasks/seeda/leaderboard/?metric=gotoscorer.f").json()
    assert {row["submission_id"] for row in board["rows"]} == {first, second, third}
    by_name = {row["system_name"]: row for row in board["rows"]}
    for name, submission_id in zip(SYSTEMS, (first, second, third)):
        scores = api_scores(clients[0], submission_id)
        assert scores["gotoscorer"] == expected[name]["gotoscorer"]
        assert scores["errant"] == expected[name]["errant"]
        assert by_name[name]["scores"]["gotoscorer"] == expected[name]["gotoscorer"]
        assert by_name[name]["scores"]["errant"]["cs"] == expected[name]["errant"]["cs"]
    # (b) system 1's GoToScorer scores moved when system 3 joined, to the fresh pool's
    assert two_pool != api_scores(clients[0], first)["gotoscorer"]
    assert fresh_pool(phase)[first] == api_scores(clients[0], first)["gotoscorer"]
    # (c) n_i in PostgreSQL equals a recount
    assert pool.stored_counts(phase.pk) == pool.counts_from_members(phase.pk)
    assert GoldChunk.objects.filter(phase=phase).with_n().filter(n__gt=0).exists()

    # (d) the worker dies mid-scoring; a new one (and the sweeper) finish the job once
    fourth = upload(clients[3], "UEDIN-MS")
    wait_for(
        lambda: Submission.objects.get(pk=fourth).status == "running", every=0.02, what="the fourth system running"
    )
    workers.kill(workers.processes[0])  # at once: a warm worker scores these 391 lines in about a second
    assert Submission.objects.get(pk=fourth).status == "running"
    workers.start()
    until(  # what beat runs every GEC_SWEEP_EVERY seconds, once the job has been silent 5 s
        lambda: fourth in sweep_stuck_submissions(older_than=5) or Submission.objects.get(pk=fourth).status == "scored",
        timeout=60,
        every=0.5,
        what="the fourth system re-queued by the sweeper",
    )
    wait_for(scored(fourth), what="the fourth system scored after the kill")
    time.sleep(2)  # a redelivered duplicate, if any, has time to run (and change nothing)
    assert Submission.objects.filter(status="scored").count() == 4
    assert MetricResult.objects.filter(submission_id=fourth).count() == len(METRICS)
    assert Pool.objects.get(phase=phase).size == 4
    assert pool.stored_counts(phase.pk) == pool.counts_from_members(phase.pk)
    stored = dict(MetricResult.objects.filter(metric="gotoscorer").values_list("submission_id", "scores"))
    assert stored == fresh_pool(phase)

    # (f) the board's significance groups come from the worker, asked for by the scores
    # landing (services/boards/ties.py board_rows_changed), never by a render: the worker
    # stores them and moves the board's version on, and the next render has them
    def groups_shown() -> str:
        return clients[0].get("/tasks/seeda/", {"metric": "errant.cs.f"}).content.decode()

    wait_for(lambda: groups_shown().count("data-group=") == 4, what="the tie groups computed and shown")
    html = groups_shown()
    assert html.count("data-group=") == 4 and 'id="ties-note"' in html
