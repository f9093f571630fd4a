"""A Track choice on the upload form, and a Track column on the board, only on a task that
declares tracks (the column once some system competes in one)."""

import pytest
from django.contrib.auth.models import User

from leaderboard.board_version import board_changed
from leaderboard.models import SharedTask, Submission

pytestmark = pytest.mark.django_db


def page(client, path):
    client.force_login(User.objects.get(username="alice"))
    return client.get(path).content.decode()


def test_no_tracks_no_track_field_nor_column(insight_task, client):
    assert 'name="track"' not in page(client, "/tasks/insight/submit/")
    assert "<th>Track</th>" not in page(client, "/tasks/insight/") and 'name="track"' not in page(
        client, "/tasks/insight/"
    )


def test_tracks_offer_a_choice_and_a_column_once_used(insight_task, client):
    SharedTask.objects.filter(slug="insight").update(tracks=["constrained", "unconstrained"])
    form = page(client, "/tasks/insight/submit/")
    assert '<select name="track"' in form and '<option value="constrained">constrained</option>' in form
    board = page(client, "/tasks/insight/")
    assert 'name="track"' in board and "<th>Track</th>" not in board  # the filter; no system declared a track yet
    Submission.objects.filter(pk=insight_task["submissions"]["T5"].pk).update(track="constrained")
    board_changed(insight_task["phase"].pk)  # as the upload that declares a track moves the board on
    assert "<th>Track</th>" in page(client, "/tasks/insight/")
