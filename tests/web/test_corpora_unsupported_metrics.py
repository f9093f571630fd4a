"""A metric that cannot serve a language (USIM needs a dependency parse; the lemmas
pipeline of Czech has none) is not scored on that corpus, and the board says why in the
registry's words instead of showing a number; a one-corpus phase in any language is
hosted from files with its language, pipeline and line limit."""

import pytest
from django.contrib.auth.models import Permission, User
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import MetricResult, SharedTask
from leaderboard.services.submissions.intake import accept_submission
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
EN_SOURCE, EN_REF = LANGUAGES["en"]


def test_the_board_gives_the_registrys_reason(client, django_capture_on_commit_callbacks):
    phase = corpora_task(
        "mixed",
        [corpus("cs-a", "cs", CS_SOURCE, CS_REF), corpus("en-b", "en", EN_SOURCE, EN_REF)],
        metrics=("errant", "gleu", "usim"),
    )
    cs = next(c for c in phase.corpora() if c.corpus == "cs-a")
    reason = cs.unsupported_reason("usim")
    assert reason and "dependency parse" in reason
    with django_capture_on_commit_callbacks(execute=True):
        upload = accept_submission(
            phase,
            User.objects.create_user("ana"),
            system_name="s",
            filename="s.zip",
            content=zipped({"cs-a.txt": text(CS_REF), "en-b.txt": text(EN_REF)}),
        )
    metrics = {
        o.phase.corpus: set(MetricResult.objects.filter(submission=o).values_list("metric", flat=True))
        for o in upload.corpus_outputs.all()
    }
    assert metrics == {"cs-a": {"errant", "gleu"}, "en-b": {"errant", "gleu", "usim"}}
    page = client.get("/tasks/mixed/").content.decode()
    assert "USIM is not scored on cs-a (cs): " in page and reason.split(";")[0] in page


def test_a_one_corpus_task_in_ukrainian_from_files(client, django_capture_on_commit_callbacks):
    host = User.objects.create_user("hannah", password="pw")
    host.user_permissions.add(Permission.objects.get(codename="host_tasks"))
    client.force_login(host)
    source, reference = LANGUAGES["uk"]
    files = {
        "source": SimpleUploadedFile("source.txt", text(source).encode()),
        "references": [SimpleUploadedFile("ref1.txt", text(reference).encode())],
    }
    wrong = client.post(
        "/host/", {"title": "UK", "slug": "uk", "metrics": ["errant"], "language": "zh", "pipeline": "full", **files}
    )
    assert wrong.status_code == 400 and "zh has the pipelines tokens" in wrong.content.decode()
    files = {
        "source": SimpleUploadedFile("source.txt", text(source).encode()),
        "references": [SimpleUploadedFile("ref1.txt", text(reference).encode())],
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            "/host/",
            {
                "title": "UK",
                "slug": "uk",
                "metrics": ["errant", "gleu"],
                "language": "uk",
                "pipeline": "tokens",
                "max_tokens": 4000,
                **files,
            },
        )
    assert response.status_code == 302
    dataset = SharedTask.objects.get(slug="uk").datasets.get()
    assert (dataset.lang, dataset.pipeline, dataset.max_tokens, dataset.is_prepared) == ("uk", "tokens", 4000, True)
