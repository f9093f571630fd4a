"""The upload page without ``?phase``: dev when a public dev and a hidden test phase are
open; a choice of phases (never a default) when only the hidden one is open."""

import pytest
from django.utils import timezone

from leaderboard.models import Phase
from leaderboard.services.hosting.task_creation import add_phase
from tests.conftest import build_insight_task, remove_insight_task

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def season(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        data = build_insight_task("season-upload", lines=10, teams={"erin": "T5"})
        add_phase(data["task"], data["phase"].dataset, kind="test", results_visibility=Phase.Visibility.ORGANIZERS)
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def erin(client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.get(username="erin"))
    return client


def test_the_upload_page_means_dev(season, client):
    html = erin(client).get("/tasks/season-upload/submit/").content.decode()
    assert 'id="upload-form"' in html and "<b>dev</b> phase (results public)" in html


def test_only_the_hidden_phase_open_the_page_asks(season, client):
    Phase.objects.filter(task=season["task"], kind="dev").update(frozen_at=timezone.now())
    html = erin(client).get("/tasks/season-upload/submit/").content.decode()
    assert 'id="upload-form"' not in html and 'id="phase-choices"' in html
    assert "results hidden until the organizers reveal them" in html
    named = erin(client).get("/tasks/season-upload/submit/?phase=test").content.decode()
    assert 'id="upload-form"' in named and "<b>results hidden until the organizers reveal them</b>" in named
