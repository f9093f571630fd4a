"""The Meta-evaluation tab shows only on a task with human judgments."""

import pytest
from django.contrib.auth.models import User

from leaderboard.models import Judgments

pytestmark = pytest.mark.django_db


def test_no_judgments_no_tab(insight_task, client):
    client.force_login(User.objects.get(username="insight-organizer"))
    assert "Meta-evaluation" not in client.get("/tasks/insight/").content.decode()


def test_judgments_bring_the_tab(insight_task, client):
    Judgments.objects.create(phase=insight_task["phase"], data={})
    client.force_login(User.objects.get(username="insight-organizer"))
    assert ">Meta-evaluation</a>" in client.get("/tasks/insight/").content.decode()
