"""Reveal, freeze, rescore, withdraw and delete ask first and say what will happen, with
counts; nothing changes until the confirmation is posted (works without JavaScript)."""

import pytest

from leaderboard.models import Phase, Submission
from tests.conftest import build_insight_task, remove_insight_task

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def hidden(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        data = build_insight_task(
            "confirm", lines=10, teams={"fay": "T5", "gus": "BART"}, kind="test", results_visibility="organizers"
        )
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def as_user(client, username):
    from django.contrib.auth.models import User

    client.force_login(User.objects.get(username=username))
    return client


def test_reveal_says_what_becomes_public_and_waits(hidden, client):
    organizer = as_user(client, "confirm-organizer")
    page = organizer.get("/tasks/confirm/phase/reveal/?phase=test").content.decode()
    assert (
        "Reveal the test phase&#x27;s results: 2 scored submissions of 2 teams become public (2 on the board)" in page
    )
    assert 'name="confirmed" value="yes"' in page
    organizer.post("/tasks/confirm/phase/reveal/?phase=test")  # an old one-click form: asks again
    assert not Phase.objects.get(pk=hidden["phase"].pk).revealed
    organizer.post("/tasks/confirm/phase/reveal/?phase=test", {"confirmed": "yes"})
    assert Phase.objects.get(pk=hidden["phase"].pk).revealed
    Phase.objects.filter(pk=hidden["phase"].pk).update(revealed=False)


def test_freeze_says_how_many_teams_it_stops(hidden, client):
    page = as_user(client, "confirm-organizer").get("/tasks/confirm/phase/freeze/?phase=test").content.decode()
    assert "no team may submit until you unfreeze it (2 teams have made 2 submissions so far)" in page
    assert Phase.objects.get(pk=hidden["phase"].pk).frozen_at is None


def test_rescore_counts_the_submissions(hidden, client):
    page = as_user(client, "confirm-organizer").get("/tasks/confirm/rescore/").content.decode()
    assert "Rescore everything: 3 submissions in 1 phase (baselines included)" in page


def test_withdraw_asks_first(hidden, client):
    t5 = hidden["submissions"]["T5"]
    fay = as_user(client, "fay")
    page = fay.get(f"/tasks/confirm/submissions/{t5.pk}/withdraw/").content.decode()
    assert f"Withdraw submission {t5.pk} (T5): it leaves the board and the GoToScorer pool" in page
    fay.post(f"/tasks/confirm/submissions/{t5.pk}/withdraw/")
    assert not Submission.objects.get(pk=t5.pk).hidden
    fay.post(f"/tasks/confirm/submissions/{t5.pk}/withdraw/", {"confirmed": "yes"})
    assert Submission.objects.get(pk=t5.pk).hidden
    fay.post(f"/tasks/confirm/submissions/{t5.pk}/restore/")
    assert not Submission.objects.get(pk=t5.pk).hidden


def test_delete_says_it_cannot_be_undone(hidden, client):
    bart = hidden["submissions"]["BART"]
    page = as_user(client, "gus").get(f"/tasks/confirm/submissions/{bart.pk}/delete/").content.decode()
    assert "This cannot be undone." in page
