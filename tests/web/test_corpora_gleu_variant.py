"""A phase chooses its GLEU: the official compute_gleu or the PyPI gleu tool as
MultiGEC-2025 ran it; its submissions are scored, and signed, with that variant."""

import pytest
from django.contrib.auth.models import User

import scoring
from leaderboard.models import MetricResult
from leaderboard.services.submissions.intake import accept_submission
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
SOURCE = ["Я вчора ходив до школа .", "Це гарна ідея .", "Він читав книга ."]
REF1 = ["Я вчора ходив до школи .", "Це гарна ідея .", "Він читав книгу ."]
REF2 = ["Вчора я ходив до школи .", "Це гарна ідея .", "Він читав книжку ."]
HYP = ["Я вчора ходив до школи .", "Це гарна ідея .", "Він читав книга ."]


@pytest.mark.parametrize("variant", ["official", "multigec"])
def test_the_phase_variant_scores_and_signs(variant, django_capture_on_commit_callbacks):
    phase = corpora_task(
        f"gleu-{variant}",
        [corpus("uk-a", "uk", SOURCE, REF1, REF2), corpus("cs-b", "cs", *LANGUAGES["cs"])],
        metrics=("gleu",),
        gleu_variant=variant,
    )
    with django_capture_on_commit_callbacks(execute=True):
        upload = accept_submission(
            phase,
            User.objects.create_user("ana"),
            system_name="s",
            filename="s.zip",
            content=zipped({"uk-a.txt": text(HYP)}),
        )
    output = upload.corpus_outputs.get()
    stored = MetricResult.objects.get(submission=output, metric="gleu").scores["score"]
    dataset = scoring.Dataset.from_text(SOURCE, [REF1, REF2], lang="uk")
    expected = scoring.score_systems(
        dataset,
        [scoring.hypothesis_from_lines(dataset, HYP, "s")],
        ["gleu"],
        scoring.ScoringOptions(gleu_variant=variant),
    )
    assert stored == pytest.approx(expected.systems["s"]["gleu"]["score"])
    assert f"variant:{variant}" in output.signature


def test_changing_the_variant_of_a_scored_phase_rescores_it(django_capture_on_commit_callbacks):
    """A board never mixes two GLEUs; the edit queues the rescore."""
    from leaderboard.models import OrganizerJob
    from leaderboard.services.hosting.host import edit_phase

    phase = corpora_task(
        "gleu-switch",
        [corpus("uk-a", "uk", SOURCE, REF1, REF2), corpus("cs-b", "cs", *LANGUAGES["cs"])],
        metrics=("gleu",),
        gleu_variant="official",
    )
    assert edit_phase(phase, {"gleu_variant": "multigec"}) is None  # nothing scored yet: nothing to redo
    with django_capture_on_commit_callbacks(execute=True):
        upload = accept_submission(
            phase,
            User.objects.create_user("ana"),
            system_name="s",
            filename="s.zip",
            content=zipped({"uk-a.txt": text(HYP)}),
        )
    output = upload.corpus_outputs.get()
    assert "variant:multigec" in output.signature
    assert edit_phase(phase, {"gleu_variant": "multigec", "max_per_day": 3}) is None  # the same variant: no rescore
    with django_capture_on_commit_callbacks(execute=True):
        job = edit_phase(phase, {"gleu_variant": "official"})
    assert job is not None and job.kind == OrganizerJob.Kind.RESCORE
    job.refresh_from_db()
    assert job.status == OrganizerJob.Status.DONE, job.message
    output.refresh_from_db()
    assert "variant:official" in output.signature
    dataset = scoring.Dataset.from_text(SOURCE, [REF1, REF2], lang="uk")
    expected = scoring.score_systems(
        dataset,
        [scoring.hypothesis_from_lines(dataset, HYP, "s")],
        ["gleu"],
        scoring.ScoringOptions(gleu_variant="official"),
    )
    assert MetricResult.objects.get(submission=output, metric="gleu").scores["score"] == pytest.approx(
        expected.systems["s"]["gleu"]["score"]
    )


def test_the_phase_form_queues_the_rescore_and_says_so(host, django_capture_on_commit_callbacks):
    """Through the page: the bound form sets the new variant on the phase before the edit
    is saved, and the rescore is queued all the same."""
    from leaderboard.models import OrganizerJob

    phase = corpora_task(
        "gleu-form",
        [corpus("uk-a", "uk", SOURCE, REF1, REF2), corpus("cs-b", "cs", *LANGUAGES["cs"])],
        metrics=("gleu",),
        gleu_variant="multigec",
    )
    phase.task.organizers.add(User.objects.get(username="hannah"))
    with django_capture_on_commit_callbacks(execute=True):
        accept_submission(
            phase,
            User.objects.create_user("ana"),
            system_name="s",
            filename="s.zip",
            content=zipped({"uk-a.txt": text(HYP)}),
        )
    response = host.post(
        f"/tasks/gleu-form/phases/{phase.kind}/edit/",
        {
            "name": phase.title,
            "time_zone": "UTC",
            "starts_at": "2026-01-01T00:00",
            "results_visibility": "public",
            "counting": "latest",
            "gleu_variant": "official",
        },
        follow=True,
    )
    assert OrganizerJob.objects.filter(task=phase.task, kind=OrganizerJob.Kind.RESCORE).count() == 1
    assert "GLEU changed: its scored submissions are being rescored" in response.content.decode()
