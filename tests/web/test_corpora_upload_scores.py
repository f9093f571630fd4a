"""An upload to a phase of several corpora shows its scores wherever it is shown: the macro
average over the team's entry and each corpus's scores, on My submissions, the upload's
page and ``GET /api/submissions/<id>/``, under the same visibility as its corpus files;
its per-sentence results are given per corpus (``?corpus=``)."""

import csv
import io

import pytest
from django.contrib.auth.models import User

from leaderboard.models import Phase
from leaderboard.services.submissions.intake import accept_submission
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
CORPORA = {"cs-natwebinf": (CS_SOURCE, CS_REF), "uk-ua-gec": (UK_SOURCE, UK_REF)}


@pytest.fixture
def phase():
    return corpora_task(
        "scores",
        [corpus(name, name[:2], source, ref) for name, (source, ref) in CORPORA.items()],
        metrics=("errant", "gleu"),
    )


@pytest.fixture
def ana(client):
    user = User.objects.create_user("ana", password="pw")
    client.force_login(user)
    return user


def upload(phase, user, files: dict[str, list[str]], capture, name="sys") -> int:
    with capture(execute=True):
        return accept_submission(
            phase,
            user,
            system_name=name,
            filename="out.zip",
            content=zipped({f"{c}.txt": text(lines) for c, lines in files.items()}),
        ).pk


def test_the_api_gives_the_macro_average_and_each_corpus(phase, ana, client, django_capture_on_commit_callbacks):
    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_SOURCE}, django_capture_on_commit_callbacks)
    body = client.get(f"/api/submissions/{full}/").json()
    assert body["scores"]["errant"]["cs"]["f"] == pytest.approx(0.5)
    assert (
        body["corpora"]["cs-natwebinf"]["errant"]["cs"]["f"] == pytest.approx(1.0)
        and body["corpora"]["uk-ua-gec"]["errant"]["cs"]["f"] == 0.0
    )
    assert body["corpus_uploads"] == {"cs-natwebinf": full, "uk-ua-gec": full}
    uk = upload(phase, ana, {"uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks, name="uk")
    body = client.get(f"/api/submissions/{uk}/").json()
    assert body["scores"]["errant"]["cs"]["f"] == pytest.approx(1.0)  # cs from the zip, uk its own
    assert body["corpus_uploads"] == {"cs-natwebinf": full, "uk-ua-gec": uk}
    assert client.get(f"/api/submissions/{full}/").json()["corpus_uploads"] == {
        "cs-natwebinf": full,
        "uk-ua-gec": full,
    }  # as it stood then


def test_a_first_upload_of_one_corpus_has_its_corpus_and_no_average(
    phase, ana, client, django_capture_on_commit_callbacks
):
    uk = upload(phase, ana, {"uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    body = client.get(f"/api/submissions/{uk}/").json()
    assert (
        body["scores"] == {}
        and body["corpora"]["cs-natwebinf"] is None
        and body["corpora"]["uk-ua-gec"]["gleu"]["score"] > 0
    )
    assert body["corpus_uploads"] == {"cs-natwebinf": None, "uk-ua-gec": uk}


def test_a_corpus_file_and_a_plain_submission_keep_their_shape(phase, ana, client, django_capture_on_commit_callbacks):
    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    child = Phase.every.get(corpus="uk-ua-gec").submissions.get().pk
    body = client.get(f"/api/submissions/{child}/").json()
    assert (
        body["corpora"] == {} and body["corpus_uploads"] == {} and "statistics" not in body["scores"]["errant"]
    )  # its own results, as before
    assert full != child


@pytest.mark.parametrize("visibility", ["organizers", "after_end"])
def test_hidden_results_hide_the_uploads_scores_as_its_files(
    phase, ana, client, visibility, django_capture_on_commit_callbacks
):
    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    phase.results_visibility = visibility
    phase.save()
    body = client.get(f"/api/submissions/{full}/").json()
    assert (body["scores"], body["corpora"], body["corpus_uploads"]) == ({}, {}, {})
    page = client.get(f"/tasks/scores/submissions/{full}/").content.decode()
    assert 'id="scores"' not in page and "not public yet" in page
    mine = client.get("/tasks/scores/submissions/?phase=dev").content.decode()
    assert "corpus-score" not in mine and "macro average" not in mine
    organizer = User.objects.create_user("olga")
    phase.task.organizers.add(organizer)
    client.force_login(organizer)
    assert client.get(f"/api/submissions/{full}/").json()["scores"]["errant"]["cs"]["f"] == pytest.approx(1.0)


def test_another_team_sees_an_upload_on_the_board_with_its_scores_and_nothing_else(
    phase, ana, client, django_capture_on_commit_callbacks
):
    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    client.force_login(User.objects.create_user("bob"))
    assert client.get(f"/api/submissions/{full}/").json()["scores"]["gleu"]["score"] > 0  # on a public board
    assert client.get(f"/tasks/scores/submissions/{full}/").status_code == 404  # the team's pages stay its own
    assert client.get(f"/api/submissions/{full}/sentences/?corpus=uk-ua-gec").status_code == 404


def test_my_submissions_and_the_upload_page_show_the_scores(phase, ana, client, django_capture_on_commit_callbacks):
    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_SOURCE}, django_capture_on_commit_callbacks)
    uk = upload(phase, ana, {"uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks, name="uk")
    mine = client.get("/tasks/scores/submissions/?phase=dev").content.decode()
    assert mine.count("macro average") == 2 and 'data-corpus="cs-natwebinf">cs-natwebinf: ' in mine
    assert f'(from <a href="/tasks/scores/submissions/{full}/">#{full}</a>)' in mine
    assert 'id="history-data"' in mine and mine.count('"value":') == 2  # the macro average over the team's uploads
    page = client.get(f"/tasks/scores/submissions/{uk}/").content.decode()
    assert 'id="scores"' in page and "not public yet" not in page and "1.0000" in page
    assert f'<a href="/tasks/scores/submissions/{full}/">upload {full}</a>' in page and "this upload" in page


def test_per_sentence_results_per_corpus(phase, ana, client, django_capture_on_commit_callbacks):
    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    missing = client.get(f"/api/submissions/{full}/sentences/")
    assert missing.status_code == 400 and "cs-natwebinf, uk-ua-gec" in missing.json()["errors"][0]["message"]
    assert missing.json()["valid"] == ["cs-natwebinf", "uk-ua-gec"]
    assert client.get(f"/api/submissions/{full}/sentences/?corpus=de-merlin").status_code == 400
    answer = client.get(f"/api/submissions/{full}/sentences/?corpus=uk-ua-gec&format=csv")
    assert answer.status_code == 200
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert len(rows) == 2
    page = client.get(f"/tasks/scores/submissions/{full}/per-sentence/?corpus=cs-natwebinf")
    assert page.status_code == 200


def test_my_submissions_over_the_api_list_an_upload_once(phase, ana, client, django_capture_on_commit_callbacks):
    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    uk = upload(phase, ana, {"uk-ua-gec": UK_SOURCE}, django_capture_on_commit_callbacks, name="uk")
    listed = client.get("/api/me/submissions/").json()["submissions"]
    assert [(s["id"], s["counts"]) for s in listed] == [(uk, True), (full, True)]  # the zip still counts in cs
    mine = client.get("/tasks/scores/submissions/?phase=dev").content.decode()
    assert "<b>counts</b> for uk-ua-gec</td>" in mine and "<b>counts</b> for cs-natwebinf</td>" in mine


STATES = {  # phase fields for each state
    "open": {},
    "frozen": {"frozen_at": "past"},
    "ended": {"ends_at": "past"},
    "revealed": {"revealed": True},
}


@pytest.mark.parametrize("visibility", ["public", "after_end", "organizers"])
@pytest.mark.parametrize("state", list(STATES))
def test_the_upload_is_shown_exactly_as_its_corpus_files(
    phase, ana, client, visibility, state, django_capture_on_commit_callbacks
):
    """For every viewer, in every phase state and visibility: the upload's status code and
    whether it carries scores are those of its corpus files."""
    import datetime as dt

    from django.utils import timezone

    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    children = list(Phase.every.filter(parent=phase).values_list("submissions__pk", flat=True))
    past = timezone.now() - dt.timedelta(hours=1)
    phase.results_visibility = visibility
    for field, value in STATES[state].items():
        setattr(phase, field, past if value == "past" else value)
    phase.save()
    organizer = User.objects.create_user("olga")
    phase.task.organizers.add(organizer)
    viewers = {"anonymous": None, "team": ana, "other team": User.objects.create_user("bob"), "organizer": organizer}
    for name, user in viewers.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        answers = [client.get(f"/api/submissions/{pk}/") for pk in (full, *children)]
        assert len({a.status_code for a in answers}) == 1, (name, [a.status_code for a in answers])
        if answers[0].status_code == 200:
            shown = [bool(a.json()["scores"]) for a in answers]
            assert len(set(shown)) == 1, (name, shown)
            assert bool(answers[0].json()["corpora"]) == shown[0] == bool(answers[0].json()["corpus_uploads"])


def test_every_place_shows_the_headline_first(phase, ana, client, django_capture_on_commit_callbacks):
    """GLEU is the sixth headline score in registry order: a page that showed the first
    four left out the very number a task ranked by GLEU is about."""
    import re

    from leaderboard.models import SharedTask

    SharedTask.objects.filter(pk=phase.task_id).update(headline_metric="gleu.score")
    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    mine = client.get("/tasks/scores/submissions/?phase=dev").content.decode()
    cell = re.search(r'<td class="small scores"[^>]*>(.*?)</td>', mine, re.S).group(1)
    assert re.search(r"macro average</span><br>GLEU \d", cell), cell  # the macro average of the headline, first
    page = client.get(f"/tasks/scores/submissions/{full}/").content.decode()
    first = re.search(r"<tbody><tr><td>([^<]+)</td>", page).group(1)
    assert first == "GLEU"


def test_the_file_as_uploaded_is_sent_as_what_it_is(phase, ana, client, django_capture_on_commit_callbacks):
    """A zip of corpus files comes back as a zip; one corpus's text file as text."""
    full = upload(phase, ana, {"cs-natwebinf": CS_REF, "uk-ua-gec": UK_REF}, django_capture_on_commit_callbacks)
    answer = client.get(f"/tasks/scores/submissions/{full}/file/")
    assert answer["Content-Type"] == "application/zip" and answer.content.startswith(b"PK")
    assert answer["Content-Disposition"] == 'attachment; filename="out.zip"'
    with django_capture_on_commit_callbacks(execute=True):
        one = accept_submission(
            phase, ana, system_name="uk", filename="uk-ua-gec.txt", content=text(UK_REF).encode()
        ).pk
    answer = client.get(f"/tasks/scores/submissions/{one}/file/")
    assert answer["Content-Type"] == "text/plain; charset=utf-8" and answer.content == text(UK_REF).encode()
