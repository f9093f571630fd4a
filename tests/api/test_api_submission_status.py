"""``GET /api/submissions/<id>/status/``: status and progress only, under 1 KB, for the
submission's team and organizers; the submission page polls it; the detail endpoint keeps
the scores."""

import json

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def as_user(client, username):
    client.force_login(User.objects.get(username=username))
    return client


def test_status_is_small_and_scores_stay_on_the_detail(insight_task, client):
    t5 = insight_task["submissions"]["T5"]
    alice = as_user(client, "alice")
    response = alice.get(f"/api/submissions/{t5.pk}/status/")
    assert response.status_code == 200 and len(response.content) < 1024
    assert json.loads(response.content) == {"id": t5.pk, "status": "scored", "finished": True, "progress": 1.0}
    detail = alice.get(f"/api/submissions/{t5.pk}/").json()
    assert detail["scores"]["errant"]["cs"]["f"] > 0 and len(json.dumps(detail)) > 1024


def test_only_its_team_and_organizers_poll_it(insight_task, client):
    t5 = insight_task["submissions"]["T5"]
    assert as_user(client, "bob").get(f"/api/submissions/{t5.pk}/status/").status_code == 404
    assert as_user(client, "insight-organizer").get(f"/api/submissions/{t5.pk}/status/").status_code == 200


def test_the_submission_page_polls_it(insight_task, client):
    """A member's page polls the team's channel for it (the same answer, served by the
    proxy); an organizer's page the API, which may tell them more."""
    from leaderboard.services.boards.channels import submission_channel

    t5 = insight_task["submissions"]["T5"]
    html = as_user(client, "alice").get(f"/tasks/insight/submissions/{t5.pk}/").content.decode()
    channel = submission_channel(t5.pk).url
    assert f'data-url="{channel}"' in html
    assert client.get(channel).json() == client.get(f"/api/submissions/{t5.pk}/status/").json()
    html = as_user(client, "insight-organizer").get(f"/tasks/insight/submissions/{t5.pk}/").content.decode()
    assert f'data-url="/api/submissions/{t5.pk}/status/"' in html
