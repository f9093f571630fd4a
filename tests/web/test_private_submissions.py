"""No participant sees another team's submissions, files, per-sentence results, or scores the phase hides, through any
participants' page."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leaderboard.models import Phase
from tests.conftest import build_insight_task, remove_insight_task

pytestmark = pytest.mark.django_db
PAGES = ["", "per-sentence/?format=csv", "per-sentence/?format=json", "file/"]
ACTIONS = ["choose", "withdraw", "restore", "delete"]


@pytest.fixture(scope="module")
def private_task(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        data = build_insight_task("private", lines=8, teams={"alice": "T5", "bob": "BART"})
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def client_of(username: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=username))
    return client


def test_another_teams_submission_does_not_exist(private_task):
    bob = private_task["submissions"]["BART"]
    for client in (client_of("alice"), Client()):
        for page in PAGES:
            assert client.get(f"/tasks/private/submissions/{bob.pk}/{page}").status_code == 404, page
        assert client.get(f"/api/submissions/{bob.pk}/status/").status_code in (401, 403, 404)
    alice = client_of("alice")
    for action in ACTIONS:
        assert alice.post(f"/tasks/private/submissions/{bob.pk}/{action}/").status_code == 404, action
    assert "BART" not in alice.get("/tasks/private/submissions/").content.decode()


def test_a_submission_is_found_only_under_its_own_task(private_task):
    own = private_task["submissions"]["T5"]
    assert client_of("alice").get(f"/tasks/other-task/submissions/{own.pk}/").status_code == 404


def test_organizers_see_every_submission_but_do_not_act_for_the_team(private_task):
    bob = private_task["submissions"]["BART"]
    organizer = client_of("private-organizer")
    for page in PAGES:
        assert organizer.get(f"/tasks/private/submissions/{bob.pk}/{page}").status_code == 200, page
    assert organizer.get(f"/api/submissions/{bob.pk}/status/").status_code == 200
    assert organizer.post(f"/tasks/private/submissions/{bob.pk}/withdraw/").status_code == 404


def test_hidden_results_hide_scores_and_per_sentence_results_from_the_team(private_task):
    Phase.objects.filter(pk=private_task["phase"].pk).update(results_visibility="organizers")
    own = private_task["submissions"]["T5"]
    alice = client_of("alice")
    detail = alice.get(f"/tasks/private/submissions/{own.pk}/").content.decode()
    assert 'id="scores"' not in detail and 'id="per-type"' not in detail and "not public yet" in detail
    assert 'data-status="scored"' in detail
    assert alice.get(f"/tasks/private/submissions/{own.pk}/per-sentence/?format=csv").status_code == 403
    listing = alice.get("/tasks/private/submissions/").content.decode()
    assert "ERRANT F" not in listing and "<th>Scores</th>" not in listing


def test_a_blind_phase_shows_only_received(private_task):
    Phase.objects.filter(pk=private_task["phase"].pk).update(results_visibility="organizers", blind=True)
    own = private_task["submissions"]["T5"]
    alice = client_of("alice")
    assert alice.get(f"/api/submissions/{own.pk}/status/").json() == {
        "id": own.pk,
        "status": "received",
        "finished": True,
        "progress": None,
    }
    for page in ("/tasks/private/submissions/", f"/tasks/private/submissions/{own.pk}/", "/tasks/private/"):
        html = alice.get(page).content.decode()
        assert 'data-status="received"' in html and 'data-status="scored"' not in html


def test_which_one_counts_is_hidden_with_the_results_under_best(private_task):
    Phase.objects.filter(pk=private_task["phase"].pk).update(results_visibility="organizers", counting="best")
    listing = client_of("alice").get("/tasks/private/submissions/").content.decode()
    assert "<th>Counts</th>" not in listing and "<b>counts</b>" not in listing
    Phase.objects.filter(pk=private_task["phase"].pk).update(counting="chosen")
    assert "<b>counts</b>" in client_of("alice").get("/tasks/private/submissions/").content.decode()


def test_the_api_shows_another_teams_submission_only_when_it_is_on_the_visible_board(private_task):
    from leaderboard.services.scoring_jobs.submission import fail_submission
    from leaderboard.services.submissions.intake import accept_submission
    from tests.conftest import SUBSET_OUTPUTS, insight_head

    counted = private_task["submissions"]["BART"]
    failed = accept_submission(
        private_task["phase"],
        User.objects.get(username="bob"),
        system_name="bob-broken",
        filename="b.txt",
        content=insight_head(SUBSET_OUTPUTS / "BART.txt", 8).encode(),
        queue=False,
    )
    fail_submission(failed.pk, "line 3: bob's own problem", cause="input")
    for client in (client_of("alice"), Client()):
        assert client.get(f"/api/submissions/{counted.pk}/").json()["scores"]
        assert client.get(f"/api/submissions/{failed.pk}/").status_code == 404
    assert "bob's own problem" in client_of("bob").get(f"/api/submissions/{failed.pk}/").json()["error"]
    Phase.objects.filter(pk=private_task["phase"].pk).update(results_visibility="organizers")
    assert client_of("alice").get(f"/api/submissions/{counted.pk}/").status_code == 404
    assert client_of("bob").get(f"/api/submissions/{counted.pk}/").json()["scores"] == {}


def test_a_blind_phase_tells_neither_which_one_counts_nor_when_scoring_ends(private_task):
    from leaderboard.services.submissions.intake import accept_submission
    from tests.conftest import SUBSET_OUTPUTS, insight_head

    Phase.objects.filter(pk=private_task["phase"].pk).update(
        results_visibility="organizers", blind=True, counting="chosen"
    )
    queued = accept_submission(
        Phase.objects.get(pk=private_task["phase"].pk),
        User.objects.get(username="alice"),
        system_name="alice-later",
        filename="a.txt",
        content=insight_head(SUBSET_OUTPUTS / "BART.txt", 8).encode(),
        queue=False,
    )
    alice = client_of("alice")
    assert alice.get(f"/api/submissions/{queued.pk}/status/").json()["finished"] is True  # "received", nothing more
    listing = alice.get("/tasks/private/submissions/").content.decode()
    assert "<b>counts</b>" not in listing and "<th>Counts</th>" not in listing
    assert (
        alice.post(f"/tasks/private/submissions/{queued.pk}/choose/").status_code == 302
    )  # not scored yet: chosen all the same
    row = (
        alice.get("/tasks/private/submissions/")
        .content.decode()
        .split(f'data-submission="{queued.pk}"')[1]
        .split("</tr>")[0]
    )
    assert "your choice" in row and "Count this one" not in row
