"""Language-model metrics on the platform: their jobs take GEC_LM_QUEUE (a GPU worker's), their
budget counts the model's reading, a worker scores them with the organizer's model, and
the board shows them as a reference-free group, never its default ranking."""

from __future__ import annotations

import pytest

import scoring
from leaderboard.services.scoring_jobs.cost import cost_of, language_model_work, submission_cost
from tests.support.lm_support import build_causal_lm


def submit(phase, user, content: bytes):
    from leaderboard.models import Submission
    from leaderboard.services.submissions.intake import team_of

    return Submission.objects.create(
        phase=phase,
        team=team_of(user, phase.task),
        system_name="s",
        filename="s.txt",
        content=content,
        size=len(content),
    )


def with_metrics(phase, names: list[str]):
    phase.task.metrics = names
    phase.task.save()
    return phase


def test_a_task_with_a_language_model_metric_sends_its_jobs_to_the_lm_queue(
    phase, alice, small_texts, settings, monkeypatch
):
    from leaderboard import queue as jobs
    from leaderboard.services.scoring_jobs import dispatch
    from leaderboard.services.scoring_jobs.queued import score_queued

    sent = []
    monkeypatch.setattr(jobs.celery_app, "send_task", lambda *args, **kwargs: sent.append((args, kwargs)))
    settings.GEC_TASK_MODE = "celery"
    settings.GEC_LM_QUEUE = "scoring-lm"
    with_metrics(phase, ["errant", "scribendi"])
    submission = submit(phase, alice, small_texts["T5"].encode())
    score_queued.enqueue(submission.pk)
    cost = submission_cost(submission.pk)
    assert cost.queue == "scoring-lm" and dispatch.lane_of(cost) == "scoring-lm"  # the fair queue's own lane
    assert sent[0][1]["queue"] == "scoring-lm" and sent[0][1]["soft_time_limit"] == cost.seconds


def test_without_the_setting_or_the_metric_the_usual_queues(phase, alice, small_texts, settings):
    """No GEC_LM_QUEUE: the CPU workers' queues, the large one when the model's reading
    makes the estimate heavy (as here: 370 words through an unseen model)."""
    settings.GEC_LM_QUEUE = ""
    content = small_texts["T5"].encode()
    with_metrics(phase, ["errant", "scribendi"])
    assert submission_cost(submit(phase, alice, content).pk).queue == settings.GEC_LARGE_QUEUE
    settings.GEC_HEAVY_JOB_SECONDS = 10_000
    assert submission_cost(submit(phase, alice, content).pk).queue is None
    settings.GEC_LM_QUEUE = "scoring-lm"
    with_metrics(phase, ["errant"])
    assert submission_cost(submit(phase, alice, content).pk).queue is None


def test_the_budget_counts_tokens_times_model_size(phase, small_texts, settings):
    settings.GEC_SCORING_TIME_LIMIT = 100_000
    content = small_texts["T5"].encode()
    plain, small, large = (cost_of(content, phase.dataset_id, model_work=w) for w in (0.0, 0.5, 16.0))
    assert plain.seconds < small.seconds < large.seconds
    assert plain.estimate < small.estimate < large.estimate
    assert language_model_work(("errant",)) == 0.0
    assert language_model_work(("errant", "scribendi")) > 0  # its model unseen here: still counted


@pytest.mark.slow
def test_a_worker_scores_scribendi_with_the_organizers_model(
    phase, alice, small_texts, settings, monkeypatch, tmp_path
):
    """The job as a worker runs it (the same service), then the board: a reference-free
    column of its own, and the ranking stays ERRANT's."""
    from django.test import Client

    from leaderboard.models import MetricResult, Submission
    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.standings import headline_metric

    model = build_causal_lm(tmp_path / "lm", small_texts["source"].splitlines())
    monkeypatch.setenv("GEC_LM_MODEL", str(model))
    monkeypatch.setenv("GEC_LM_DEVICE", "cpu")
    with_metrics(phase, ["errant", "gotoscorer", "scribendi"])
    submission = submit(phase, alice, small_texts["T5"].encode())
    assert score_submission(submission.pk, force=True) == "scored"
    scores = MetricResult.objects.get(submission=submission, metric="scribendi").scores
    assert set(scores) == {"score", "sum", "plus", "minus", "unchanged"}
    assert "|scribendi|model:" in Submission.objects.get(pk=submission.pk).signature
    assert headline_metric(phase.task) == scoring.default_path(["errant", "gotoscorer"])
    page = Client().get(f"/tasks/{phase.task.slug}/").content.decode()
    assert 'class="num reference-free"' in page and 'id="reference-free-note"' in page


def test_a_missing_model_fails_the_job_naming_the_setting(phase, alice, small_texts, monkeypatch):
    """The site's fault, not the file's: a failed row that says which setting, not counted."""
    from leaderboard.models import Submission
    from leaderboard.services.data import metrics as prepared
    from leaderboard.services.scoring_jobs.submission import score_submission

    monkeypatch.delenv("GEC_LM_MODEL", raising=False)
    prepared._metrics_cache.clear()
    with_metrics(phase, ["errant", "gotoscorer", "scribendi"])
    submission = submit(phase, alice, small_texts["T5"].encode())
    assert score_submission(submission.pk, force=True) == "failed"
    failed = Submission.objects.get(pk=submission.pk)
    assert "GEC_LM_MODEL: is not set" in failed.error and failed.failure_cause == Submission.FailureCause.PLATFORM


@pytest.mark.slow
def test_the_lm_demo_command_says_its_cost_and_a_stop_leaves_the_task_as_it_was(
    phase, alice, small_texts, monkeypatch, tmp_path, capsys
):
    """``manage.py lm_demo`` (scripts/lm-demo) measures its rate before it starts; a SIGTERM
    while it rescores puts the metrics, the statuses and the Scribendi rows back."""
    import os
    import signal

    from django.core.management import CommandError, call_command

    from leaderboard.management.commands import lm_demo
    from leaderboard.models import MetricResult, Submission
    from leaderboard.services.scoring_jobs.submission import score_submission

    model = build_causal_lm(tmp_path / "lm", small_texts["source"].splitlines())
    monkeypatch.setenv("GEC_LM_MODEL", str(model))
    monkeypatch.setenv("GEC_LM_DEVICE", "cpu")
    with_metrics(phase, ["errant", "gotoscorer"])
    uploads = [submit(phase, alice, small_texts[name].encode()) for name in ("T5", "T5")]
    for upload in uploads:
        assert score_submission(upload.pk) == "scored"
    scored = []

    def then_stopped(pk, force=False):
        if scored:  # the second upload: stopped while it is running
            os.kill(os.getpid(), signal.SIGTERM)
        scored.append(score_submission(pk, force=force))

    monkeypatch.setattr(lm_demo, "score_submission", then_stopped)
    with pytest.raises(CommandError, match="the task is as it was"):
        call_command("lm_demo", "--task", phase.task.slug)
    said = capsys.readouterr().out
    assert "the model reads" in said and "tokens/s, measured just now, about" in said
    phase.task.refresh_from_db()
    assert phase.task.metrics == ["errant", "gotoscorer"]
    assert not MetricResult.objects.filter(submission__in=uploads, metric="scribendi").exists()
    assert set(Submission.objects.filter(pk__in=[u.pk for u in uploads]).values_list("status", flat=True)) == {"scored"}
    assert signal.getsignal(signal.SIGTERM) is not lm_demo.stop

    monkeypatch.setattr(lm_demo, "score_submission", score_submission)
    call_command("lm_demo", "--task", phase.task.slug, "--minutes", "0.000001")  # nothing fits
    assert "within 1e-06 minutes: 0 of them" in capsys.readouterr().out
    assert not MetricResult.objects.filter(submission__in=uploads, metric="scribendi").exists()
    call_command("lm_demo", "--task", phase.task.slug)
    assert MetricResult.objects.filter(submission__in=uploads, metric="scribendi").count() == 2


def test_the_rate_lm_demo_says_is_the_forward_passes(phase, alice, small_texts, monkeypatch, tmp_path):
    """It times the script's groups one at a time, each tokenized alone: tokenizing the whole
    corpus for every group of 4 once made it say 4 tokens/s and 1,600 minutes for a run of 10."""
    from leaderboard.management.commands import lm_demo
    from scoring.lm import scribendi

    model = build_causal_lm(tmp_path / "lm", small_texts["source"].splitlines())
    monkeypatch.setenv("GEC_LM_MODEL", str(model))
    monkeypatch.setenv("GEC_LM_DEVICE", "cpu")
    upload = submit(phase, alice, small_texts["T5"].encode())
    metric = scoring.build_metrics(["scribendi"], scoring.ScoringOptions())[0]
    metric._model()  # loaded, as counting the tokens to read leaves it
    sizes: list[int] = []
    tokenized = scribendi.token_ids
    monkeypatch.setattr(
        scribendi, "token_ids", lambda loaded, texts: sizes.append(len(texts)) or tokenized(loaded, texts)
    )
    assert lm_demo.Command().measured_rate(metric, [upload]) > 1
    assert sizes and max(sizes) <= metric.batch_size


def test_lm_demo_scores_what_fits_its_minutes():
    """Uploads in order while their tokens fit the minutes at the measured rate, passing over
    one that does not; every one for 0 minutes."""
    from leaderboard.management.commands.lm_demo import within_budget

    assert within_budget([600, 600, 600], rate=10.0, minutes=2) == [0, 1]  # 60 s each, 120 s allowed
    assert within_budget([0, 6000, 10], rate=10.0, minutes=1) == [0, 2]  # a cheaper one further on
    assert within_budget([600, 600, 600], rate=10.0, minutes=0) == [0, 1, 2]
    assert within_budget([], rate=10.0, minutes=10) == []
