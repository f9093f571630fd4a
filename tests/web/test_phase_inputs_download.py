"""A phase's inputs: signed-in participants (and organizers) download its source once it
has opened, from the page and the API; anonymous visitors are told to log in; without
``?phase=`` the default phase answers; several corpora come as a zip of one file each."""

import io
import zipfile

import pytest

from leaderboard.access import task_phase
from tests.support.task_pages_support import (
    SLUG,
    SOURCE,
    STATES,
    VIEWERS,
    api_client_of,
    client_of,
    season_task,
    set_state,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def task(db):
    return season_task()


def allowed(viewer: str, state: str) -> bool:
    return viewer == "organizer" or (viewer != "anonymous" and state != "upcoming")


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("viewer", VIEWERS)
@pytest.mark.parametrize("kind", ["dev", "test"])
def test_who_gets_the_inputs_in_each_state(task, kind, viewer, state):
    set_state(task.phases.get(kind=kind), state)
    for client, url in (
        (client_of(viewer), f"/tasks/{SLUG}/input/?phase={kind}"),
        (api_client_of(viewer), f"/api/tasks/{SLUG}/input/?phase={kind}"),
    ):
        answer = client.get(url)
        if allowed(viewer, state):
            assert answer.status_code == 200, (url, answer.content)
            assert answer.content.decode() == SOURCE
            assert answer["Content-Type"].startswith("text/plain")
            assert answer["Content-Disposition"] == f'attachment; filename="{SLUG}-{kind}.src.txt"'
        else:
            assert answer.status_code in (401, 403), url
            assert SOURCE.splitlines()[1].encode() not in answer.content
            assert (b"Log in" if viewer == "anonymous" else b"published when it opens") in answer.content


def test_without_a_phase_the_default_phase_answers(task):
    default = task_phase(task, None)
    answer = api_client_of("participant").get(f"/api/tasks/{SLUG}/input/")
    assert answer.status_code == 200
    assert answer["Content-Disposition"].endswith(f'{SLUG}-{default.kind}.src.txt"')


def test_an_unknown_phase_is_a_404(task):
    assert api_client_of("participant").get(f"/api/tasks/{SLUG}/input/?phase=nope").status_code == 404


def test_several_corpora_come_as_a_zip_of_one_file_each(task, monkeypatch):
    corpora = [("season-dev.en.src.txt", "one .\n"), ("season-dev.de.src.txt", "eins .\n")]
    monkeypatch.setattr("leaderboard.services.hosting.phase_files.phase_inputs", lambda phase: corpora)
    answer = api_client_of("participant").get(f"/api/tasks/{SLUG}/input/?phase=dev")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    assert answer["Content-Disposition"] == f'attachment; filename="{SLUG}-dev.input.zip"'
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        assert {name: archive.read(name).decode() for name in archive.namelist()} == dict(corpora)


def test_the_task_page_links_the_inputs_for_participants_only(task):
    link = f'href="/tasks/{SLUG}/input/?phase=dev"'
    assert link in client_of("participant").get(f"/tasks/{SLUG}/?phase=dev").content.decode()
    assert link not in client_of("anonymous").get(f"/tasks/{SLUG}/?phase=dev").content.decode()
    data_tab = client_of("participant").get(f"/tasks/{SLUG}/pages/data/").content.decode()
    assert link in data_tab and f'href="/tasks/{SLUG}/input/?phase=test"' in data_tab
