"""Every board (page, API, exports) and "best" rank by the task's headline metric, as the
task's ``ranked_by`` says: MultiGEC-2025 ranked by GLEU."""

import pytest
from django.contrib.auth.models import User

from leaderboard.models import SharedTask
from leaderboard.services.submissions.intake import accept_submission
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.django_db
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
CORPORA = {"cs-natwebinf": (CS_SOURCE, CS_REF), "uk-ua-gec": (UK_SOURCE, UK_REF)}


@pytest.fixture
def phase(django_capture_on_commit_callbacks):
    phase = corpora_task(
        "headline",
        [corpus(name, name[:2], source, ref) for name, (source, ref) in CORPORA.items()],
        metrics=("errant", "gleu"),
    )
    SharedTask.objects.filter(pk=phase.task_id).update(headline_metric="gleu.score")
    phase.task.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        for name, files in (
            ("copy", {n: s for n, (s, _) in CORPORA.items()}),
            ("good", {n: r for n, (_, r) in CORPORA.items()}),
        ):
            accept_submission(
                phase,
                User.objects.create_user(name),
                system_name=name,
                filename="o.zip",
                content=zipped({f"{n}.txt": text(t) for n, t in files.items()}),
            )
    return phase


def test_the_task_says_it_and_every_board_does_it(phase, client):
    assert client.get("/api/tasks/headline/").json()["ranked_by"] == "gleu.score"
    board = client.get("/api/tasks/headline/leaderboard/").json()
    assert board["metric"] == "gleu.score" and [r["system_name"] for r in board["rows"]] == ["good", "copy"]
    assert board["rows"][0]["value"] == board["rows"][0]["scores"]["gleu"]["score"]
    page = client.get("/tasks/headline/").content.decode()
    assert 'title="ranked by the macro average of gleu.score"' in page
    organizer = User.objects.create_user("olga")
    phase.task.organizers.add(organizer)
    client.force_login(organizer)
    export = client.get("/api/tasks/headline/leaderboard/export?format=md").content.decode()
    assert "ranked by gleu.score" in export


def test_a_one_corpus_task_too(client, django_capture_on_commit_callbacks):
    from leaderboard.services.hosting.task_creation import create_task

    task = create_task("plain", source="a b .\n", references=[("r", "a c .\n")], metrics=["errant", "gleu"])
    SharedTask.objects.filter(pk=task.pk).update(headline_metric="gleu.score")
    assert client.get("/api/tasks/plain/leaderboard/").json()["metric"] == "gleu.score"
    assert 'title="ranked by GLEU' in client.get("/tasks/plain/").content.decode()


def test_best_compares_entries_by_the_macro_average_of_the_headline(django_capture_on_commit_callbacks):
    """Of a team's two entries, "best" counts the one with the better macro-averaged GLEU
    (the headline), though the other has the better ERRANT F0.5."""
    from leaderboard.models import MetricResult, Phase, Submission
    from leaderboard.services.pool import membership
    from leaderboard.standings import board_rows

    phase = corpora_task(
        "best-gleu",
        [corpus(name, name[:2], source, ref) for name, (source, ref) in CORPORA.items()],
        metrics=("errant", "gleu"),
        counting="best",
    )
    SharedTask.objects.filter(pk=phase.task_id).update(headline_metric="gleu.score")
    user = User.objects.create_user("bea")
    uploads = {}
    with django_capture_on_commit_callbacks(execute=True):
        for name in ("by-f", "by-gleu"):
            uploads[name] = accept_submission(
                phase,
                user,
                system_name=name,
                filename=f"{name}.zip",
                content=zipped({f"{n}.txt": text(s) for n, (s, _) in CORPORA.items()}),
            ).pk
    wanted = {"by-f": (0.9, 0.2), "by-gleu": (0.1, 0.8)}  # (F0.5, GLEU) on every corpus
    for name, (f, gleu) in wanted.items():
        for output in Submission.objects.filter(parent_id=uploads[name]):
            errant, bleu = (
                MetricResult.objects.get(submission=output, metric="errant"),
                MetricResult.objects.get(submission=output, metric="gleu"),
            )
            errant.scores["cs"]["f"], bleu.scores["score"] = f, gleu
            errant.save()
            bleu.save()
    membership.sync_pool(
        phase.pk, refresh=set(Submission.objects.filter(parent__in=uploads.values()).values_list("pk", flat=True))
    )
    task = SharedTask.objects.get(pk=phase.task_id)
    assert membership.best_metric(task) == "gleu.score"
    [row] = board_rows(Phase.objects.get(pk=phase.pk).pk, "gleu.score")
    assert (row["system_name"], row["value"]) == ("by-gleu", pytest.approx(0.8))
