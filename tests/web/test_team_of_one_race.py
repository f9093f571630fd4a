"""A new user's first uploads, sent at once, all land in one team of their own (four
parallel first uploads once gave 3 x 201 and 1 x 403 "a team called 'frank' is
already registered"). Real concurrency: threads with their own connections, on PostgreSQL."""

import functools

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from leaderboard.models import Membership, Submission, Team
from leaderboard.services.submissions import intake
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, insight_head
from tests.support import needs
from tests.support.concurrency import at_once

UPLOADS = 4
LINES = 5


@pytest.fixture
def race_task(transactional_db, monkeypatch):
    from leaderboard.services.hosting.task_creation import create_task

    if connection.vendor != "postgresql":
        needs.missing("PostgreSQL at 127.0.0.1:5432: the race needs its row locks (scripts/services starts it)")
    monkeypatch.setattr(
        intake.score_queued, "enqueue", lambda submission_id: None
    )  # the race is in the intake, not in scoring
    return create_task(
        "race",
        title="Race",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES),
        metrics=["errant"],
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
    )


def test_parallel_first_uploads_share_one_team_of_one(race_task):
    frank = User.objects.create_user("frank", password="pw")
    key = Token.objects.create(user=frank).key
    content = insight_head(SUBSET_OUTPUTS / "T5.txt", LINES).encode()

    def upload(k):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        file = SimpleUploadedFile(f"t5-{k}.txt", content)
        return client.post(
            "/api/tasks/race/submissions/", {"file": file, "system_name": f"t5-{k}"}, format="multipart"
        ).status_code

    statuses = at_once([functools.partial(upload, k) for k in range(UPLOADS)])
    assert statuses == [201] * UPLOADS
    team = Team.objects.get(task=race_task)
    assert team.name == "frank" and Membership.objects.filter(user=frank).count() == 1
    assert Submission.objects.filter(team=team).count() == UPLOADS
