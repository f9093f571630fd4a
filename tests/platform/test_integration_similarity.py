"""Similarity-weighted CLEME2.0 scored by a real prefork Celery worker (as docker/compose.yaml
runs it): the ONNX export and the per-core embedding threads live in the pool's child
process, and the stored scores equal the command line's on the same files."""

import json
import subprocess
import sys

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import SharedTask, Submission
from leaderboard.services.hosting.task_creation import create_task
from tests.conftest import ROOT, SUBSET_OUTPUTS, SUBSET_REFS, insight_head

from .conftest import SMALL_LINES, client_for, make_user
from .workers import REAL_STACK, scored, started_workers, wait_for

pytestmark = REAL_STACK


@pytest.fixture
def prefork_worker(tmp_path, settings):
    group = started_workers(tmp_path, settings, pool="prefork")
    yield group
    group.stop_all()


def cli_sim_scores(tmp_path, system: str) -> dict:
    files = {
        "source": SUBSET_OUTPUTS / "INPUT.txt",
        system: SUBSET_OUTPUTS / f"{system}.txt",
        **{p.stem: p for p in SUBSET_REFS},
    }
    cut = {}
    for name, path in files.items():
        cut[name] = tmp_path / f"{name}.txt"
        cut[name].write_text(insight_head(path, SMALL_LINES), encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "scoring",
        "--source",
        str(cut["source"]),
        "--metrics",
        "cleme2",
        "--sim",
        "--json",
        "--hyp",
        f"{system}={cut[system]}",
    ]
    for ref in SUBSET_REFS:
        command += ["--ref", str(cut[ref.stem])]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)["systems"][system]["cleme2"]


@pytest.mark.django_db(transaction=True)
def test_a_prefork_worker_scores_similarity_weighted_cleme2(prefork_worker, tmp_path):
    task = create_task(
        "simtask",
        title="Similarity",
        metrics=["cleme2"],
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt"),
        references=[(p.stem, insight_head(p)) for p in SUBSET_REFS],
    )
    SharedTask.objects.filter(pk=task.pk).update(sim=True)
    client = client_for(make_user("team"))
    response = client.post(
        "/api/tasks/simtask/submissions/",
        {
            "file": SimpleUploadedFile("bart.txt", insight_head(SUBSET_OUTPUTS / "BART.txt").encode()),
            "system_name": "BART",
        },
        format="multipart",
    )
    assert response.status_code == 201, response.content
    submission = response.json()["id"]
    wait_for(lambda: Submission.objects.get(pk=submission).status in ("scored", "failed"), what="the similarity job")
    assert scored(submission)(), Submission.objects.get(pk=submission).status

    stored = client.get(f"/api/submissions/{submission}/").json()["scores"]["cleme2"]
    assert stored["sim"] == cli_sim_scores(tmp_path, "BART")["sim"]
