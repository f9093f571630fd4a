"""The version live pages poll and the fragments rendered once per audience
(leaderboard/views/fragment_cache.py): a public phase's version is the same for everyone and may be
kept by the proxy; a hidden phase's is the viewer's own and never the pool's."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leaderboard.board_version import board_version

pytestmark = pytest.mark.django_db


def viewer(name: str | None) -> Client:
    client = Client()
    if name:
        client.force_login(User.objects.get(username=name))
    return client


def version(client, slug="insight") -> tuple[str, object]:
    response = client.get(f"/tasks/{slug}/version/?phase=dev")
    assert response.status_code == 200
    return response.content.decode(), response


def test_a_public_phase_has_one_version_for_everyone_that_a_proxy_may_keep(insight_task):
    phase = insight_task["phase"]
    answers = [version(viewer(name)) for name in (None, "alice", "bob", "insight-organizer")]
    assert {text for text, _ in answers} == {str(board_version(phase.pk))}
    for _, response in answers:
        assert response["Cache-Control"] == "public, max-age=0, s-maxage=1"
        assert "Cookie" not in response.get("Vary", "")  # the session is never read
        assert response["ETag"] == f'"{board_version(phase.pk)}"'
    again = viewer("alice").get("/tasks/insight/version/?phase=dev", HTTP_IF_NONE_MATCH=answers[0][1]["ETag"])
    assert again.status_code == 304


def test_a_hidden_phase_gives_each_viewer_their_own_version_never_the_pools(insight_task):
    phase = insight_task["phase"]
    phase.results_visibility = phase.Visibility.ORGANIZERS
    phase.save()
    pool = str(board_version(phase.pk))
    anonymous, alice, bob = (version(viewer(name)) for name in (None, "alice", "bob"))
    for text, response in (anonymous, alice, bob):
        assert text != pool and response["Cache-Control"] == "private, no-store"
    assert alice[0] != bob[0]  # each team's own rows
    organizer, response = version(viewer("insight-organizer"))
    assert organizer == pool and response["Cache-Control"] == "private, no-store"


def test_the_version_is_the_one_the_board_shows(insight_task):
    for name in (None, "alice"):
        client = viewer(name)
        shown = client.get("/tasks/insight/?phase=dev").content.decode().split('data-version="')[1].split('"')[0]
        assert shown == version(client)[0]


def test_a_public_board_is_one_body_for_everyone_the_proxy_may_keep(insight_task, monkeypatch):
    """A public phase's board is rendered once per version as the public sees it, and says
    the proxy may keep it a second; a team's own rows are polled apart (task_own_rows)."""
    from leaderboard.views import pages

    renders = []
    real = pages._results_context
    monkeypatch.setattr(
        pages, "_results_context", lambda request, *args: renders.append(args[2]) or real(request, *args)
    )  # never reads the session
    url = "/tasks/insight/rows/?phase=dev&metric=gotoscorer.f"
    names = (None, "dave", "alice", "bob", "insight-organizer")
    responses = {name: [viewer(name).get(url) for _ in range(3)] for name in names}
    assert len(renders) == 1, renders
    assert len({r.content for copies in responses.values() for r in copies}) == 1
    assert all(
        r["Cache-Control"] == "public, max-age=0, s-maxage=1" and "Cookie" not in r.get("Vary", "")
        for copies in responses.values()
        for r in copies
    )
    assert b"Your team's submissions" not in responses["alice"][0].content
    own = viewer("alice").get("/tasks/insight/own/?phase=dev").content
    assert b"Your team's submissions" in own and b"data-pending=" in own
    assert viewer("bob").get("/tasks/insight/own/?phase=dev").content != own  # each team's own
    assert b"Your team's submissions" not in viewer(None).get("/tasks/insight/own/?phase=dev").content
    from leaderboard.board_version import board_changed

    board_changed(insight_task["phase"].pk)  # results changed: a new version, a new render
    viewer(None).get(url)
    assert len(renders) == 2


def test_a_hidden_board_is_private_and_rendered_once_per_version_for_those_who_see_it(insight_task, monkeypatch):
    from leaderboard.views import pages

    phase = insight_task["phase"]
    phase.results_visibility = phase.Visibility.ORGANIZERS
    phase.save()
    renders = []
    real = pages._results_context
    monkeypatch.setattr(
        pages, "_results_context", lambda request, *args: renders.append(args[2]) or real(request, *args)
    )
    url = "/tasks/insight/rows/?phase=dev"
    organizer = [viewer("insight-organizer").get(url) for _ in range(3)]
    assert renders.count(True) == 1 and all(r["Cache-Control"] == "private, no-store" for r in organizer)
    alice = viewer("alice").get(url)
    assert (
        alice["Cache-Control"] == "private, no-store"
        and b"not public yet" in alice.content
        and b"data-group" not in alice.content
    )


@pytest.fixture(autouse=True)
def dave(db):
    """A logged-in user without a team."""
    return User.objects.create_user("dave", password="pw")
