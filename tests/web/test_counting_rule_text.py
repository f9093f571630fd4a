"""The counting rule reads as a sentence wherever it is quoted (no "the the")."""

import pytest
from django.contrib.auth.models import User

from leaderboard.services.submissions import actions

pytestmark = pytest.mark.django_db


def test_choosing_in_a_latest_phase_says_why_not(insight_task):
    with pytest.raises(actions.ActionRefused) as refused:
        actions.choose(insight_task["submissions"]["T5"])
    assert (
        str(refused.value) == "in the dev phase the team's latest scored submission counts; there is nothing to choose"
    )


def test_my_submissions_quotes_it(insight_task, client):
    client.force_login(User.objects.get(username="alice"))
    html = client.get("/tasks/insight/submissions/").content.decode()
    assert "In this phase the team&#x27;s latest scored submission counts" in html and "the the" not in html
