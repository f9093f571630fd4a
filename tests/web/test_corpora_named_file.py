"""One corpus's file named after its corpus (``uk-ua-gec.txt``, as it would be in a zip)
is taken for that corpus without naming it: through the library
call, the upload page and the API; a file named otherwise is still asked for a zip or a
corpus."""

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

import scoring
from leaderboard.models import Submission
from leaderboard.services.submissions.intake import accept_submission
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]


@pytest.fixture
def phase():
    return corpora_task(
        "named", [corpus("cs-natwebinf", "cs", CS_SOURCE, CS_REF), corpus("uk-ua-gec", "uk", UK_SOURCE, UK_REF)]
    )


@pytest.fixture
def ana(client):
    user = User.objects.create_user("ana", password="pw")
    client.force_login(user)
    return user


def corpora_of(upload: Submission) -> list[str]:
    return [o.phase.corpus for o in upload.corpus_outputs.order_by("pk")]


def test_a_file_named_after_its_corpus_is_that_corpus(phase, ana, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        upload = accept_submission(
            phase, ana, system_name="uk", filename="uk-ua-gec.txt", content=text(UK_REF).encode()
        )
    upload.refresh_from_db()
    assert corpora_of(upload) == ["uk-ua-gec"] and upload.status == "scored"
    assert upload.corpus_outputs.get().filename == "uk-ua-gec.txt"


def test_other_names_still_ask_for_a_zip_or_a_corpus(phase, ana):
    for name in ("uk.txt", "uk-ua-gec.csv", "UK-UA-GEC.txt"):
        with pytest.raises(scoring.InputError) as raised:
            accept_submission(phase, ana, system_name="x", filename=name, content=text(UK_REF).encode())
        assert "upload a zip with one file per corpus" in str(raised.value.problems[0]), name
    assert not Submission.objects.exists()


def test_the_upload_page_and_the_api_take_it(phase, ana, client):
    page = client.post(
        "/tasks/named/submit/?phase=dev",
        {"system_name": "web", "file": SimpleUploadedFile("cs-natwebinf.txt", text(CS_REF).encode())},
    )
    assert page.status_code == 302
    answer = client.post(
        "/api/tasks/named/submissions/",
        {"system_name": "api", "phase": "dev", "file": SimpleUploadedFile("uk-ua-gec.txt", text(UK_REF).encode())},
    )
    assert answer.status_code == 201, answer.content
    web, api = Submission.objects.filter(parent=None).order_by("pk")
    assert corpora_of(web) == ["cs-natwebinf"] and corpora_of(api) == ["uk-ua-gec"]


def test_an_upload_to_a_corpus_phase_is_the_phase_upload_for_that_corpus(phase, ana, client):
    """The pages of one corpus (``?phase=dev--uk-ua-gec``) link its Upload tab there."""
    page = client.post(
        "/tasks/named/submit/?phase=dev--uk-ua-gec",
        {"system_name": "web", "file": SimpleUploadedFile("mine.txt", text(UK_REF).encode())},
    )
    assert page.status_code == 302
    answer = client.post(
        "/api/tasks/named/submissions/",
        {
            "system_name": "api",
            "phase": "dev--cs-natwebinf",
            "file": SimpleUploadedFile("out.txt", text(CS_REF).encode()),
        },
    )
    assert answer.status_code == 201, answer.content
    web, api = Submission.objects.filter(parent=None).order_by("pk")
    assert web.phase_id == api.phase_id == phase.pk
    assert corpora_of(web) == ["uk-ua-gec"] and corpora_of(api) == ["cs-natwebinf"]
    with pytest.raises(scoring.InputError):
        accept_submission(
            phase.corpora()[0],
            ana,
            system_name="x",
            filename="x.txt",
            content=text(CS_REF).encode(),
            corpus="uk-ua-gec",
        )
