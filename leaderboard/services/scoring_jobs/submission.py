"""Score one submission: the service every Celery task, thread and test calls.

Idempotent: a submission already scored is left alone, and results are written in one
transaction that re-checks the status under a row lock, so two runs of the same
submission (a redelivered message, a sweeper re-queue) leave exactly one set of rows and
counts. Errors a user caused end as ``failed`` with the message; infrastructure errors
(database, broker) propagate so the Celery task retries.
"""

from __future__ import annotations

import contextlib
import logging
import threading

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

import scoring
from scoring.lm.runtime import LMSettingError

from ...board_version import board_changed
from ...campaigns.services import meta_tables
from ...insights import sampled
from ...models import MetricResult, Submission
from ..accounts import notify
from ..boards import publish as live
from ..boards import ties
from ..boards.sampled import keep as keep_vector
from ..data import corpora
from ..data.datasets import load_dataset
from ..data.metrics import prepared_metrics
from ..pool import membership as pool
from .losses import Loss, loss_cause, process_memory_mb

log = logging.getLogger(__name__)
INPUT, PLATFORM = Submission.FailureCause.INPUT, Submission.FailureCause.PLATFORM


def set_progress(submission_id: int, progress: float) -> None:
    Submission.objects.filter(pk=submission_id).update(
        progress=progress, heartbeat_at=timezone.now(), memory_mb=process_memory_mb()
    )
    live.after_commit(
        submission_id, team_rows=False
    )  # the submission's page shows the progress; the rows under the board only the status


class Busy(Exception):
    """A live worker is scoring this submission right now (its heartbeat is fresh)."""


def score_submission(submission_id: int, *, force: bool = False, beat: bool = False) -> str:
    """Score a queued (or, with ``force``, any) submission; returns its final status.

    ``beat`` keeps a heartbeat while scoring (Celery workers), so that a run whose
    worker died is told apart from one still going (:func:`_claim`). A file that needs
    more memory than the worker's ceiling fails as the file's fault; raises
    :class:`Busy` when another worker holds the submission.
    """
    if not _claim(submission_id, force):
        return Submission.objects.values_list("status", flat=True).get(pk=submission_id)
    submission = Submission.objects.select_related("phase__task", "phase__dataset").get(pk=submission_id)
    phase = submission.phase
    try:
        with heartbeat(submission_id, beat):
            metrics = prepared_metrics(phase)
            dataset = load_dataset(phase.gold_id)
            set_progress(submission_id, 0.05)
            hypothesis = scoring.read_hypothesis(
                dataset,
                bytes(submission.content),
                submission.system_name,
                filename=submission.filename,
                limits=phase.gold.limits(),
            )
            statistics = {}
            for k, metric in enumerate(metrics, start=1):
                set_progress(submission_id, 0.1 + 0.85 * (k - 1) / len(metrics))
                statistics[metric.name] = metric.statistics(dataset, hypothesis)
            signature = scoring.signature(metrics, phase.scoring_options(), dataset)
    except scoring.InputError as error:
        return fail_submission(submission_id, str(error), cause=INPUT)
    except LMSettingError as error:  # the site's language-model setting, not the file: does not count
        return fail_submission(submission_id, f"the site cannot run a language-model metric: {error}", cause=PLATFORM)
    except MemoryError:
        return fail_submission(
            submission_id,
            f"scoring this file needed more memory than a worker has ({settings.GEC_WORKER_MAX_MEMORY_MB} MB); "
            "shorten its longest lines",
            cause=INPUT,
        )
    independent = [m for m in metrics if not m.pooled]
    scores = scoring.scores_from_statistics({"system": statistics}, independent)["system"]
    return _record(submission_id, statistics, scores, signature, force, board_vectors(phase, statistics))


def board_vectors(phase, statistics: dict) -> list[tuple[str, object, sampled.SampledScores]]:
    """The submission's bootstrap halves for its board's significance groups, one for each
    score the board can be ranked by (the refresh computes the groups of every one), made
    while the statistics are in memory: a board refresh then reads them instead of parsing
    the statistics back once a path (services/boards/sampled.py). A corpus of a phase of
    several corpora is left to the refresh."""
    if phase.parent_id is not None:
        return []
    options = phase.scoring_options()
    made = []
    for path in ties.grouped_paths(phase.task, []):
        vector = sampled.fresh_vector(path, statistics, options)
        if vector is not None:
            made.append((path, options, vector))
    return made


def _claim(submission_id: int, force: bool) -> bool:
    """Mark the submission running; False when there is nothing to score.

    Found ``running`` with a stale heartbeat, the worker of the last run died (killed,
    out of memory): :func:`record_worker_loss` says whether it runs again.
    """
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        if submission.status in (Submission.Status.SCORED, Submission.Status.FAILED) and not force:
            return False
        now = timezone.now()
        if submission.status == Submission.Status.RUNNING and not force:
            if (
                submission.heartbeat_at
                and (now - submission.heartbeat_at).total_seconds() < settings.GEC_HEARTBEAT_GRACE
            ):
                raise Busy(submission_id)
            if record_worker_loss(submission):
                return False
        Submission.objects.filter(pk=submission_id).update(
            status=Submission.Status.RUNNING,
            progress=0.0,
            started_at=now,
            heartbeat_at=now,
            attempts=submission.attempts + 1,
        )
        board_changed(submission.phase_id)
        ties.board_rows_changed(submission.phase.parent_id or submission.phase_id)
        if meta_tables.judged(submission.phase_id):  # its meta-evaluation counts this system's results
            transaction.on_commit(lambda: meta_tables.refresh_meta_tables.enqueue(submission.phase_id))
        live.after_commit(submission_id)
    return True


def record_worker_loss(submission: Submission) -> bool:
    """Record that the worker scoring ``submission`` (row locked) stopped, and fail it at
    a limit; True when it failed.

    Stopped by its own memory ceiling or time budget (:mod:`.losses`), the file is to
    blame: at ``GEC_MAX_WORKER_LOSSES`` such stops it fails, counting against the team.
    Stopped from outside, it runs again without counting, and after
    ``GEC_MAX_EXTERNAL_LOSSES`` such stops fails as the platform's fault (not counted)."""
    cause = loss_cause(submission)
    if cause is Loss.OUTSIDE:
        losses = submission.external_losses = submission.external_losses + 1
        Submission.objects.filter(pk=submission.pk).update(external_losses=losses)
        if losses <= settings.GEC_MAX_EXTERNAL_LOSSES:
            log.warning(
                "submission %s: its worker was stopped from outside (%s times); queued again", submission.pk, losses
            )
            return False
        log.error("submission %s: its worker was stopped from outside %s times; failed", submission.pk, losses)
        fail_submission(
            submission.pk,
            f"the scoring worker was stopped {times(losses)} from outside while scoring this file (restarted, "
            "or the machine ran out of memory), "
            "not by the file; this does not count against your limits: please submit it again later",
            cause=PLATFORM,
        )
        return True
    losses = submission.worker_losses = submission.worker_losses + 1
    Submission.objects.filter(pk=submission.pk).update(worker_losses=losses)
    if losses < settings.GEC_MAX_WORKER_LOSSES:
        return False
    log.error("submission %s stopped its worker %s times at %s; failed", submission.pk, losses, cause.value)
    fail_submission(
        submission.pk,
        f"the scoring worker stopped {times(losses)} while scoring this file, at {cause.value}, so it was not "
        "tried again; "
        "check it for extremely long lines or corrections",
        cause=INPUT,
    )
    return True


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


@contextlib.contextmanager
def heartbeat(submission_id: int, enabled: bool):
    """While the block runs, refresh ``heartbeat_at`` every ``GEC_HEARTBEAT_EVERY`` s
    from a thread, so a long metric never looks like a dead worker, with the process's
    memory, so a dead worker's last beat tells whether its ceiling stopped it."""
    if not enabled:
        yield
        return
    stop = threading.Event()

    def beat():
        try:
            while not stop.wait(settings.GEC_HEARTBEAT_EVERY):
                Submission.objects.filter(pk=submission_id, status=Submission.Status.RUNNING).update(
                    heartbeat_at=timezone.now(), memory_mb=process_memory_mb()
                )
        except Exception:
            log.exception("heartbeat of submission %s stopped", submission_id)
        finally:
            connection.close()

    thread = threading.Thread(target=beat, name=f"heartbeat-{submission_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _record(submission_id: int, statistics: dict, scores: dict, signature: str, force: bool, vectors=()) -> str:
    """Results, status, the pool and the board's ``vectors`` (:func:`board_vectors`: path,
    options, sampled scores each), all in one transaction."""
    scored_at = timezone.now()
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        if submission.status == Submission.Status.SCORED and not force:
            return submission.status  # another run finished first; its rows stand
        existing = {r.metric: r for r in MetricResult.objects.filter(submission_id=submission_id)}
        changed = any(
            existing.get(name) is None or existing[name].statistics != stats for name, stats in statistics.items()
        )
        MetricResult.objects.filter(submission_id=submission_id).exclude(metric__in=list(statistics)).delete()
        for name, stats in statistics.items():
            # pool metrics get their scores from the pool below; a leaver keeps its last ones
            kept = existing[name].scores if name in existing else {}
            MetricResult.objects.update_or_create(
                submission_id=submission_id,
                metric=name,
                defaults={"statistics": stats, "scores": scores.get(name, kept)},
            )
        Submission.objects.filter(pk=submission_id).update(
            status=Submission.Status.SCORED,
            progress=1.0,
            error="",
            signature=signature,
            scored_at=scored_at,
            heartbeat_at=scored_at,
        )
        for vector in vectors:
            keep_vector(submission_id, scored_at, *vector)
        ended = _upload_ended(submission)
        pool.sync_pool(_pool_phase(submission, ended), refresh={submission_id} if force and changed else frozenset())
        board_changed(submission.phase_id)
        ties.board_rows_changed(submission.phase.parent_id or submission.phase_id)
        if meta_tables.judged(submission.phase_id):  # its meta-evaluation counts this system's results
            transaction.on_commit(lambda: meta_tables.refresh_meta_tables.enqueue(submission.phase_id))
        live.after_commit(submission_id)
        if ended and not force:  # a rescore tells nobody
            _tell_team(submission.parent_id or submission_id)
    log.info("scored submission %s", submission_id)
    return Submission.Status.SCORED


def fail_submission(submission_id: int, message: str, *, cause: str) -> str:
    """End a submission as failed with a message its team can act on. ``cause`` is
    ``Submission.FailureCause.INPUT`` (the file: counts against the team's limits) or
    ``PLATFORM`` (ours: does not count)."""
    with transaction.atomic():
        submission = Submission.objects.select_for_update().get(pk=submission_id)
        Submission.objects.filter(pk=submission_id).update(
            status=Submission.Status.FAILED,
            error=message,
            failure_cause=cause,
            progress=1.0,
            heartbeat_at=timezone.now(),
        )
        ended = _upload_ended(submission)
        pool.sync_pool(_pool_phase(submission, ended))  # a rescored member that now fails leaves the pool
        board_changed(submission.phase_id)
        ties.board_rows_changed(submission.phase.parent_id or submission.phase_id)
        if meta_tables.judged(submission.phase_id):  # its meta-evaluation counts this system's results
            transaction.on_commit(lambda: meta_tables.refresh_meta_tables.enqueue(submission.phase_id))
        live.after_commit(submission_id)
        if ended:
            _tell_team(submission.parent_id or submission_id)
    return Submission.Status.FAILED


def _upload_ended(submission: Submission) -> bool:
    """Whether the upload ``submission`` belongs to has ended: itself, or, for a corpus
    file of a zip, every corpus file of the zip (whose status follows theirs)."""
    return submission.parent_id is None or corpora.settle_upload(submission.parent_id)


def _pool_phase(submission: Submission, ended: bool) -> int:
    """The pool(s) to bring up to date: the submission's phase; once a zip has ended,
    every corpus of its phase, since which upload of the team counts may have changed."""
    parent_phase = submission.phase.parent_id  # set for every corpus file of a zip
    return parent_phase if submission.parent_id and ended and parent_phase is not None else submission.phase_id


def _tell_team(submission_id: int) -> None:
    """An email once the result is committed; a mail server error is logged, never undoes it."""
    transaction.on_commit(lambda: notify.submission_finished(submission_id), robust=True)
