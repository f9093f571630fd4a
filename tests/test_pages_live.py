"""The version live pages poll and the fragments rendered once per audience (issue 33,
leaderboard/views/live.py): a public phase's version is the same for everyone and may be
kept by the proxy; a hidden phase's is the viewer's own and never the pool's."""
import pytest
from django.contrib.auth.models import User
from django.test import Client

from leaderboard.ranking import pool_version

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
    assert {text for text, _ in answers} == {str(pool_version(phase.pk))}
    for _, response in answers:
        assert response["Cache-Control"] == "public, max-age=0, s-maxage=1"
        assert "Cookie" not in response.get("Vary", "")  # the session is never read
        assert response["ETag"] == f'"{pool_version(phase.pk)}"'
    again = viewer("alice").get("/tasks/insight/version/?phase=dev", HTTP_IF_NONE_MATCH=answers[0][1]["ETag"])
    assert again.status_code == 304


def test_a_hidden_phase_gives_each_viewer_their_own_version_never_the_pools(insight_task):
    phase = insight_task["phase"]
    phase.results_visibility = phase.Visibility.ORGANIZERS
    phase.save()
    pool = str(pool_version(phase.pk))
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


def test_the_board_is_rendered_once_per_version_for_every_viewer_who_sees_it(insight_task, monkeypatch):
    """Only a team's own rows are each request's: 50 teams watching cost one board render a score."""
    from leaderboard import access
    from leaderboard.views import pages

    renders = []
    real = pages._results_context
    monkeypatch.setattr(pages, "_results_context", lambda request, *args: renders.append(request.user.username) or real(request, *args))
    url = "/tasks/insight/rows/?phase=dev&metric=gotoscorer.f"
    names = (None, "dave", "alice", "bob", "insight-organizer")
    bodies = {name: [viewer(name).get(url).content for _ in range(3)] for name in names}
    from django.contrib.auth.models import AnonymousUser, User

    phase = insight_task["phase"]
    seeing = {access.may_see_references(phase, User.objects.get(username=n) if n else AnonymousUser()) for n in names}
    assert len(renders) == len(seeing), renders  # one board per what its viewers may see, whatever their team
    assert bodies[None][0] == bodies["dave"][0] and b"Your team's submissions" in bodies["alice"][0] and b"Your team's submissions" not in bodies[None][0]
    assert bodies["alice"][0] != bodies["bob"][0]  # each team's own rows beneath the shared board
    assert all(len(set(copies)) == 1 for copies in bodies.values())
    from leaderboard.services.pool import membership as pool

    pool.touch(phase.pk)  # results changed: a new version, a new render
    viewer(None).get(url)
    assert len(renders) == len(seeing) + 1


@pytest.fixture(autouse=True)
def dave(db):
    """A logged-in user without a team."""
    return User.objects.create_user("dave", password="pw")
