"""Uploads to a phase of several corpora: a zip of ``<corpus>.txt`` files (corpora may be
missing), or one corpus named with the file (web form, API ``corpus=``); every error
names the corpus file and the line; the zip is bounded before it is read."""

import io
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

import scoring
from leaderboard.models import Submission
from leaderboard.services.submissions.intake import accept_submission
from leaderboard.standings import board_rows
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]


@pytest.fixture
def phase():
    return corpora_task(
        "two", [corpus("cs-natwebinf", "cs", CS_SOURCE, CS_REF, CS_REF), corpus("uk-ua-gec", "uk", UK_SOURCE, UK_REF)]
    )


@pytest.fixture
def ana(client):
    user = User.objects.create_user("ana", password="pw")
    client.force_login(user)
    return user


def upload(phase, user, content: bytes, filename="out.zip", **extra) -> Submission:
    return accept_submission(phase, user, system_name="sys", filename=filename, content=content, **extra)


def problems(phase, user, content: bytes, filename="out.zip", **extra) -> list[str]:
    with pytest.raises(scoring.InputError) as raised:
        upload(phase, user, content, filename, **extra)
    return [str(p) for p in raised.value.problems]


def test_a_missing_corpus_is_allowed_and_shown_as_missing(phase, ana, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        submission = upload(phase, ana, zipped({"uk-ua-gec.txt": text(UK_REF)}))
    submission.refresh_from_db()
    assert submission.status == "scored" and [o.phase.corpus for o in submission.corpus_outputs.all()] == ["uk-ua-gec"]
    [row] = board_rows(phase.pk, "errant.cs.f")
    assert row["corpora"]["cs-natwebinf"] is None and row["corpora"]["uk-ua-gec"]["errant"]["cs"]["f"] == pytest.approx(
        1.0
    )
    assert row["value"] is None  # no macro average without every corpus
    page = client.get("/tasks/two/").content.decode()
    assert 'class="muted missing" data-corpus="cs-natwebinf">missing' in page


def test_a_bad_line_is_named_by_its_corpus_file_and_line_and_nothing_is_kept(phase, ana):
    short = zipped({"cs-natwebinf.txt": text(CS_REF), "uk-ua-gec.txt": text(UK_REF[:1])})
    assert problems(phase, ana, short) == [
        "uk-ua-gec.txt: line 1: the file ends here: the source has 2 lines, this file 1"
    ]
    both = zipped(
        {"cs-natwebinf.txt": "Včera jsem se učil matematiku .\nTo je \x00 nápad .\n", "uk-ua-gec.txt": b"\xff\n\n"}
    )
    assert problems(phase, ana, both) == [
        "cs-natwebinf.txt: line 2: NUL at column 7",
        "uk-ua-gec.txt: line 1: invalid UTF-8 at byte 0 of the line",
    ]
    assert not Submission.objects.exists()


def test_files_not_named_after_a_corpus_and_plain_text_are_refused(phase, ana):
    assert (
        "notes.txt: name each file after its corpus, one of cs-natwebinf.txt, uk-ua-gec.txt"
        in problems(phase, ana, zipped({"notes.txt": "x\n"}))[0]
    )
    assert "upload a zip with one file per corpus" in problems(phase, ana, text(CS_REF).encode(), filename="cs.txt")[0]
    assert (
        "no corpus 'de-x' in this phase"
        in problems(phase, ana, text(CS_REF).encode(), filename="cs.txt", corpus="de-x")[0]
    )


@pytest.mark.parametrize(
    "members, message",
    [
        ({"../cs-natwebinf.txt": "a\n"}, "must be relative"),
        ({"/tmp/cs-natwebinf.txt": "a\n"}, "must be relative"),
        (
            {"cs-natwebinf.txt": "a\n", "uk-ua-gec.txt": "a\n", "cs-natwebinf.m2": "S a\n"},
            "3 files in the zip; at most 2",
        ),
    ],
)
def test_the_zip_is_bounded(phase, ana, members, message):
    assert message in problems(phase, ana, zipped(members))[0]


def test_a_zip_bomb_is_refused_before_it_is_inflated(phase, ana):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("cs-natwebinf.txt", b"a " * (3 * 1024 * 1024))
    assert "compressed more than 100 to 1" in problems(phase, ana, out.getvalue())[0]
    assert "not a readable zip file" in problems(phase, ana, b"PK\x03\x04 no")[0]


def test_one_corpus_at_a_time_on_the_page_and_the_api(phase, ana, client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        page = client.post(
            "/tasks/two/submit/",
            {
                "system_name": "web",
                "corpus": "cs-natwebinf",
                "file": SimpleUploadedFile("mine.txt", text(CS_REF).encode()),
            },
        )
        api = client.post(
            "/api/tasks/two/submissions/",
            {
                "system_name": "api",
                "corpus": "uk-ua-gec",
                "file": SimpleUploadedFile("mine.txt", text(UK_REF).encode()),
            },
        )
    assert page.status_code == 302 and api.status_code == 201, (page.content, api.content)
    outputs = {
        s.system_name: (s.phase.corpus, s.filename, s.status) for s in Submission.objects.filter(parent__isnull=False)
    }
    assert outputs == {
        "web": ("cs-natwebinf", "cs-natwebinf.txt", "scored"),
        "api": ("uk-ua-gec", "uk-ua-gec.txt", "scored"),
    }
    bad = client.post(
        "/api/tasks/two/submissions/",
        {"system_name": "api", "corpus": "uk-ua-gec", "file": SimpleUploadedFile("mine.txt", b"one line\n")},
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["file"] == "uk-ua-gec.txt"
    shown = client.post(
        "/tasks/two/submit/",
        {"system_name": "web", "file": SimpleUploadedFile("all.zip", zipped({"uk-ua-gec.txt": "Я \x00\nЦе\n"}))},
    )
    assert shown.status_code == 400 and "uk-ua-gec.txt: line 1: NUL at column 3" in shown.content.decode()


def test_the_uploads_page_links_each_corpus_file_to_its_own_scores(
    phase, ana, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        submission = upload(phase, ana, zipped({"cs-natwebinf.txt": text(CS_REF), "uk-ua-gec.txt": text(UK_REF)}))
    page = client.get(f"/tasks/two/submissions/{submission.pk}/").content.decode()
    outputs = {o.phase.corpus: o.pk for o in submission.corpus_outputs.all()}
    for name, pk in outputs.items():
        assert f'<tr data-corpus="{name}"><td><a href="/tasks/two/submissions/{pk}/">{name}</a>' in page
        assert 'id="scores"' in client.get(f"/tasks/two/submissions/{pk}/").content.decode()
    api = client.get(f"/api/submissions/{submission.pk}/").json()
    assert api["status"] == "scored" and "cs-natwebinf: " in api["signature"]
