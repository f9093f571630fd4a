"""The GLEU a task's phases take: the host form offers the choice; left
automatic, a task made from a bundle of corpora takes MultiGEC's (as MultiGEC-2025
reported it) and one made from plain gold the official one; the phase form offers the
task's choice, and falls back to MultiGEC's for a task of bundled corpora that predates it."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from leaderboard.models import Phase, SharedTask
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]


def bundle() -> SimpleUploadedFile:
    files = {
        "cs-a/source.txt": text(CS_SOURCE),
        "cs-a/ref1.txt": text(CS_REF),
        "uk-b/source.txt": text(UK_SOURCE),
        "uk-b/ref1.txt": text(UK_REF),
        "uk-b/corpus.json": json.dumps({"language": "uk", "pipeline": "tokens"}),
    }
    return SimpleUploadedFile("gold.zip", zipped(files))


def host_task(client, slug: str, **extra):
    data = {"title": slug, "slug": slug, "metrics": ["errant", "gleu"], **extra}
    answer = client.post("/host/", data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    return SharedTask.objects.get(slug=slug)


def offered(client, slug: str) -> str:
    """The GLEU the new-phase form selects."""
    page = client.get(f"/tasks/{slug}/phases/new/").content.decode()
    select = re.search(r'<select name="gleu_variant".*?</select>', page, re.S).group(0)
    return re.search(r'<option value="([^"]*)" selected>', select).group(1)


def test_the_host_form_offers_the_choice(host):
    page = host.get("/host/").content.decode()
    assert 'name="gleu_variant"' in page and "automatic" in page


def test_a_bundle_of_corpora_takes_multigec_gleu_unless_told(host, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        task = host_task(host, "bundled", bundle=bundle())
    assert task.gleu_variant == "multigec" and offered(host, "bundled") == "multigec"
    assert task.headline_metric == "gleu.score"  # ranked by GLEU, as MultiGEC-2025 was
    with django_capture_on_commit_callbacks(execute=True):
        answer = host.post(
            "/tasks/bundled/phases/new/",
            {
                "kind": "dev",
                "corpora": [d.pk for d in task.datasets.all()],
                "time_zone": "UTC",
                "results_visibility": "public",
                "counting": "latest",
                "gleu_variant": offered(host, "bundled"),
            },
        )
    assert answer.status_code == 302
    assert {p.gleu_variant for p in Phase.every.filter(task=task)} == {"multigec"}  # the phase and its corpora
    with django_capture_on_commit_callbacks(execute=True):
        told = host_task(host, "told", bundle=bundle(), gleu_variant="official")
    assert told.gleu_variant == "official" and offered(host, "told") == "official"
    with django_capture_on_commit_callbacks(execute=True):
        ranked = host_task(host, "ranked", bundle=bundle(), headline_metric="errant.cs.f")
    assert ranked.headline_metric == "errant.cs.f"


def test_plain_gold_takes_the_official_gleu_unless_told(host, django_capture_on_commit_callbacks):
    files = {
        "source": SimpleUploadedFile("source.txt", text(CS_SOURCE).encode()),
        "references": [SimpleUploadedFile("ref.txt", text(CS_REF).encode())],
        "language": "cs",
    }
    with django_capture_on_commit_callbacks(execute=True):
        plain = host_task(host, "plain", **files)
    assert plain.gleu_variant == "official" and offered(host, "plain") == "official"
    assert plain.headline_metric == ""  # the registry's default
    files = {
        "source": SimpleUploadedFile("source.txt", text(CS_SOURCE).encode()),
        "references": [SimpleUploadedFile("ref.txt", text(CS_REF).encode())],
        "language": "cs",
    }
    with django_capture_on_commit_callbacks(execute=True):
        told = host_task(host, "plain-told", gleu_variant="multigec", **files)
    assert told.gleu_variant == "multigec" and offered(host, "plain-told") == "multigec"


def test_a_task_of_corpora_from_before_the_choice_offers_multigec(host):
    phase = corpora_task("older", [corpus("cs-a", "cs", CS_SOURCE, CS_REF), corpus("uk-b", "uk", UK_SOURCE, UK_REF)])
    phase.task.organizers.add(host.get("/").wsgi_request.user)
    assert phase.task.gleu_variant == "" and phase.gleu_variant == "official"
    assert offered(host, "older") == "multigec"  # every corpus came from a bundle
