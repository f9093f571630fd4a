"""The queue adapter: where scoring runs, Celery workers, one background thread, or inline.

``GEC_TASK_MODE`` (see settings): ``celery`` sends the job to the broker by task name;
``thread`` (embedded mode) hands it to a single worker thread of this process, so an
upload returns at once and the page updates live; ``sync`` scores inline (unit tests).
Scoring ends in :func:`leaderboard.services.scoring_jobs.submission.score_submission`, an organizer's job
in :func:`leaderboard.services.hosting.organizer_jobs.run_job`. The domain services ask for work
through :mod:`.work`'s signals, which this module answers (connected when the app is
ready, :mod:`leaderboard.apps`); a failure in the thread is recorded on the row.
"""

from __future__ import annotations

import functools
import logging
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, connection
from django.dispatch import receiver

from ...campaigns.services.jobs import rank_delay, run_campaign_job
from ...celery import app as celery_app
from .. import work
from ..boards.ties import refresh_tie_groups
from ..hosting.organizer_jobs import fail_job, run_job
from ..scoring_jobs import dispatch
from ..scoring_jobs.cost import ScoringCost
from ..scoring_jobs.submission import PLATFORM, fail_submission, score_submission

log = logging.getLogger(__name__)
_executor: ThreadPoolExecutor | None = None

TASK_NAMES = {
    "scoring": "leaderboard.tasks.score_submission",
    "organizer": "leaderboard.tasks.run_organizer_job",
    "campaign": "leaderboard.tasks.run_campaign_job",
    "ties": "leaderboard.tasks.refresh_tie_groups",
}


def enqueue_scoring(submission_id: int) -> None:
    """Queue one submission. A broker failure is logged, not raised: the row is already
    committed as ``queued`` and the sweeper will queue it again."""
    _enqueue("scoring", submission_id)


def scoring_ended(submission_id: int) -> None:
    """A scoring job has ended: send its team's next waiting job of that queue (the fair
    queue, :mod:`.dispatch`). Never raises: a failure leaves the next one for the sweeper."""
    if settings.GEC_TASK_MODE != "celery":
        return
    try:
        for pk, cost in dispatch.released(submission_id):
            _send_scoring(pk, cost)
    except Exception:
        log.exception("could not send the job after submission %s; the sweeper will", submission_id)


def enqueue_organizer_job(job_id: int) -> None:
    """Queue an organizer's job (gold preparation, rescore); same modes as scoring."""
    _enqueue("organizer", job_id)


@receiver(work.scoring_wanted)
def _scoring_wanted(sender, object_id: int, **_) -> None:
    enqueue_scoring(object_id)


@receiver(work.organizer_job_wanted)
def _organizer_job_wanted(sender, object_id: int, **_) -> None:
    enqueue_organizer_job(object_id)


@receiver(work.campaign_wanted)
def _campaign_wanted(sender, object_id: int, **_) -> None:
    _enqueue("campaign", object_id)


@receiver(work.tie_groups_wanted)
def _tie_groups_wanted(sender, object_id: int, metric: str, track: str, **_) -> None:
    _enqueue("ties", object_id, metric, track)


def _services(kind: str):
    """(service, failure recorder) of a job kind: what the thread or an inline run calls."""
    if kind == "scoring":
        return score_submission, functools.partial(fail_submission, cause=PLATFORM)  # the thread's own errors are ours
    if kind == "campaign":
        return run_campaign_job, lambda object_id, message: log.error("campaign %s: %s", object_id, message)
    if kind == "ties":  # nothing to record: the next render asks again
        return refresh_tie_groups, lambda object_id, message: log.error(
            "tie groups of phase %s: %s", object_id, message
        )
    return run_job, fail_job


def _enqueue(kind: str, object_id: int, *details) -> None:
    mode = settings.GEC_TASK_MODE
    if mode == "celery":
        try:
            if kind == "scoring":  # through the fair queue: maybe later, maybe an older one of the team first
                for pk, cost in dispatch.admit(object_id):
                    _send_scoring(pk, cost)
            elif kind == "campaign":  # a campaign's re-ranking waits out the campaign's interval
                delay = rank_delay(object_id)
                celery_app.send_task(TASK_NAMES[kind], (object_id,), **({"countdown": delay} if delay else {}))
            elif kind == "ties":  # the boards' queue, when the workers keep one (GEC_TIE_GROUPS_QUEUE)
                queue = settings.GEC_TIE_GROUPS_QUEUE
                celery_app.send_task(TASK_NAMES[kind], (object_id, *details), **({"queue": queue} if queue else {}))
            else:
                celery_app.send_task(TASK_NAMES[kind], (object_id,))
        except Exception:
            log.exception("could not queue %s job %s; it stays queued", kind, object_id)
    elif mode == "thread":
        background().submit(_run_in_thread, kind, object_id, *details)
    else:
        run, _fail = _services(kind)
        run(object_id, *details)


def _send_scoring(submission_id: int, cost: ScoringCost) -> None:
    celery_app.send_task(TASK_NAMES["scoring"], (submission_id,), **_message_options(cost))


def _message_options(cost: ScoringCost) -> dict:
    """A scoring job carries the time budget and queue its file's cost earns (:mod:`.cost`)."""
    routing = {"queue": cost.queue} if cost.queue else {}
    return {
        "kwargs": {"budget": cost.seconds},
        "soft_time_limit": cost.seconds,
        "time_limit": cost.seconds + 60,
        **routing,
    }


def background() -> ThreadPoolExecutor:
    """The embedded mode's single job thread (one job at a time, like one worker)."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scoring")
    return _executor


def wait_for_background() -> None:
    """Block until every job handed to the thread so far is done (commands, tests)."""
    if _executor is not None:
        done: Future = _executor.submit(lambda: None)
        done.result()


def _run_in_thread(kind: str, object_id: int, *details) -> None:
    run, fail = _services(kind)
    close_old_connections()
    try:
        run(object_id, *details)
    except Exception as error:
        log.exception("%s job %s failed", kind, object_id)
        fail(object_id, f"internal error: {error}")
    finally:
        connection.close()
