"""Every page and API read of a task answers for a phase of several corpora: the pages
made per corpus (heat map, per type, CLEME2.0, difficulty) point to its corpora."""

import pytest
from django.contrib.auth.models import User

from leaderboard.services.submissions.intake import accept_submission
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
PAGES = [
    "/tasks/pages/?phase=dev",
    "/tasks/pages/rows/?phase=dev",
    "/tasks/pages/submit/?phase=dev",
    "/tasks/pages/per-type/?phase=dev",
    "/tasks/pages/difficulty/?phase=dev--uk-b",
    "/tasks/pages/difficulty/map/?phase=dev--cs-a",
    "/tasks/pages/cleme2/?phase=dev",
    "/tasks/pages/meta-evaluation/?phase=dev",
    "/tasks/pages/manage/",
    "/tasks/pages/phases/dev/edit/",
    "/tasks/pages/submissions/?phase=dev",
    "/tasks/pages/teams/",
    "/api/tasks/pages/",
    "/api/tasks/pages/leaderboard/?phase=dev",
    "/api/tasks/pages/difficulty/?phase=dev",
    "/api/tasks/pages/leaderboard/export?format=md&phase=dev",
    "/",
]


@pytest.fixture
def organizer(client, django_capture_on_commit_callbacks):
    phase = corpora_task(
        "pages",
        [corpus("cs-a", "cs", CS_SOURCE, CS_REF), corpus("uk-b", "uk", UK_SOURCE, UK_REF)],
        metrics=("errant", "gleu", "gotoscorer", "cleme2"),
    )
    user = User.objects.create_user("olga")
    phase.task.organizers.add(user)
    with django_capture_on_commit_callbacks(execute=True):
        accept_submission(
            phase,
            user,
            system_name="s",
            filename="s.zip",
            content=zipped({"cs-a.txt": text(CS_REF), "uk-b.txt": text(UK_SOURCE)}),
            enforce_limits=False,
        )
    client.force_login(user)
    return client


@pytest.mark.parametrize("url", PAGES)
def test_the_page_answers(organizer, url):
    response = organizer.get(url)
    assert response.status_code in (200, 404), (url, response.status_code)
    assert response.status_code == 200 or "meta-evaluation" in url, url


def test_the_heat_map_of_the_phase_is_its_corpora(organizer):
    response = organizer.get("/tasks/pages/difficulty/?phase=dev")
    assert response.status_code == 302 and response["Location"].endswith("?phase=dev--cs-a")
    page = organizer.get(response["Location"]).content.decode()
    assert "<b>cs-a</b>" in page and '<a href="?phase=dev--uk-b">uk-b</a>' in page
    assert organizer.get("/tasks/pages/difficulty/map/?phase=dev").status_code == 404


def test_the_inputs_participants_correct(organizer):
    from leaderboard.models import Phase, SharedTask
    from leaderboard.services.hosting.phase_files import phase_inputs

    phase = Phase.objects.get(task__slug="pages")
    assert phase_inputs(phase) == [("cs-a.txt", text(CS_SOURCE)), ("uk-b.txt", text(UK_SOURCE))]
    single = SharedTask.objects.create(slug="one")
    assert phase_inputs(Phase.objects.create(task=single, kind="dev", dataset=phase.corpora()[0].dataset)) == [
        ("one-dev.src.txt", text(CS_SOURCE))
    ]


def test_the_inputs_download_as_a_zip_named_as_a_submission_names_its_files(organizer):
    import io
    import zipfile

    answer = organizer.get("/tasks/pages/input/?phase=dev")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        assert {name: archive.read(name).decode() for name in archive.namelist()} == {
            "cs-a.txt": text(CS_SOURCE),
            "uk-b.txt": text(UK_SOURCE),
        }
