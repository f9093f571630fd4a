"""An organizer creates a task of several corpora from a zip bundle on the web: one
folder per corpus (source, references, optional corpus.json), each corpus prepared in
the queue with its language; a phase of those corpora with its GLEU variant; problems
named by corpus, file and line."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import GoldChunk, Phase, SharedTask
from tests.support.corpora_support import LANGUAGES, text, zipped

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
DE_SOURCE, DE_REF = LANGUAGES["de"]


def bundle(**overrides) -> dict:
    files = {
        "cs-natwebinf/source.txt": text(CS_SOURCE),
        "cs-natwebinf/ref1.txt": text(CS_REF),
        "cs-natwebinf/ref2.txt": text(CS_SOURCE),
        "cs-natwebinf/corpus.json": json.dumps({"language": "cs", "pipeline": "tokens", "max_tokens": 3000}),
        "uk-ua-gec/source.txt": text(UK_SOURCE),
        "uk-ua-gec/ref1.txt": text(UK_REF),
        "de-merlin/source.txt": text(DE_SOURCE),
        "de-merlin/ref1.txt": text(DE_REF),
    }
    files.update(overrides)
    return {"bundle": SimpleUploadedFile("multigec.zip", zipped({k: v for k, v in files.items() if v is not None}))}


def create(client, **files):
    return client.post(
        "/host/",
        {"title": "MultiGEC", "slug": "multigec", "metrics": ["errant", "gleu", "gotoscorer"], **bundle(**files)},
    )


def test_a_bundle_of_corpora_makes_a_phase_of_corpora(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        assert create(host).status_code == 302
    task = SharedTask.objects.get(slug="multigec")
    datasets = {d.name: (d.lang, d.pipeline, d.max_tokens, d.n_references, d.is_prepared) for d in task.datasets.all()}
    assert datasets == {
        "cs-natwebinf": ("cs", "tokens", 3000, 2, True),
        "uk-ua-gec": ("uk", "", 5000, 1, True),
        "de-merlin": ("de", "", 5000, 1, True),
    }
    assert task.status == "ready"
    form = host.get("/tasks/multigec/phases/new/").content.decode()
    assert form.count('name="corpora"') == 3 and form.count("checked") >= 3  # the bundle's corpora, offered together
    with django_capture_on_commit_callbacks(execute=True):
        response = host.post(
            "/tasks/multigec/phases/new/",
            {
                "kind": "test",
                "time_zone": "UTC",
                "starts_at": "2026-01-01T00:00",
                "results_visibility": "public",
                "counting": "latest",
                "gleu_variant": "multigec",
                "corpora": [d.pk for d in task.datasets.all()],
            },
        )
    assert response.status_code == 302, response.content.decode()
    phase = Phase.objects.get(task=task, kind="test")
    corpora = phase.corpora()
    assert phase.is_multi_corpus and sorted(c.corpus for c in corpora) == ["cs-natwebinf", "de-merlin", "uk-ua-gec"]
    assert {c.gleu_variant for c in corpora} == {"multigec"} and all(
        GoldChunk.objects.filter(phase=c).exists() for c in corpora
    )
    assert list(task.phases.all()) == [phase]  # corpus phases are no phases of the task's own
    manage = host.get("/tasks/multigec/manage/").content.decode()
    assert 'data-corpus="uk-ua-gec"' in manage and "GLEU: multigec" in manage
    host.post(
        "/tasks/multigec/phases/test/edit/",
        {
            "name": "Test",
            "time_zone": "UTC",
            "starts_at": "2026-01-01T00:00",
            "ends_at": "2030-01-01T00:00",
            "results_visibility": "after_end",
            "counting": "latest",
            "gleu_variant": "official",
        },
    )
    assert {(c.results_visibility, c.ends_at.year, c.gleu_variant) for c in phase.corpora()} == {
        ("after_end", 2030, "official")
    }


def test_problems_name_the_corpus_file_and_line(host):
    response = create(host, **{"uk-ua-gec/ref1.txt": UK_REF[0] + "\n", "de-merlin/corpus.json": '{"language": "xx"}'})
    page = response.content.decode()
    assert response.status_code == 400 and not SharedTask.objects.exists()
    assert "de-merlin/corpus.json: language &#x27;xx&#x27; is not one the platform has a pipeline for" in page
    assert "uk-ua-gec/ref1.txt: line 1: the file ends here: the source has 2 lines, this file 1" in page


def test_a_corpus_phase_needs_two_corpora(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        create(host)
    one = SharedTask.objects.get().datasets.first()
    response = host.post(
        "/tasks/multigec/phases/new/",
        {"kind": "dev", "time_zone": "UTC", "results_visibility": "public", "counting": "latest", "corpora": [one.pk]},
    )
    assert response.status_code == 400 and "choose two corpora or more" in response.content.decode()


def test_a_corpus_folder_without_its_source_is_named(host):
    response = create(host, **{"de-merlin/source.txt": None})
    assert response.status_code == 400 and "de-merlin: name exactly one file source.txt" in response.content.decode()
