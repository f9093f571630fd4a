"""Where scoring runs: Celery workers, one background thread, or inline.

``GEC_TASK_MODE`` (see settings): ``celery`` sends the job to the broker; ``thread``
(embedded mode) hands it to a single worker thread of this process, so an upload returns
at once and the page updates live; ``sync`` scores inline (unit tests). Scoring ends in
:func:`leaderboard.services.scoring.score_submission`, an organizer's job in
:func:`leaderboard.services.organizer_jobs.run_job`.
"""
from __future__ import annotations

import functools
import logging
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, connection

log = logging.getLogger(__name__)
_executor: ThreadPoolExecutor | None = None


def enqueue_scoring(submission_id: int) -> None:
    """Queue one submission. A broker failure is logged, not raised: the row is already
    committed as ``queued`` and the sweeper will queue it again."""
    _enqueue("scoring", submission_id)


def enqueue_organizer_job(job_id: int) -> None:
    """Queue an organizer's job (gold preparation, rescore); same modes as scoring."""
    _enqueue("organizer", job_id)


def _services(kind: str):
    """(Celery task, service, failure recorder) of a job kind, imported late: the
    services import this module."""
    if kind == "scoring":
        from ..tasks import score_submission_task as celery_task
        from .scoring import PLATFORM, fail_submission
        from .scoring import score_submission as run

        fail = functools.partial(fail_submission, cause=PLATFORM)  # the thread's own errors are ours
    else:
        from ..tasks import organizer_job_task as celery_task
        from .organizer_jobs import fail_job as fail
        from .organizer_jobs import run_job as run
    return celery_task, run, fail


def _enqueue(kind: str, object_id: int) -> None:
    celery_task, run, _fail = _services(kind)
    mode = settings.GEC_TASK_MODE
    if mode == "celery":
        try:
            celery_task.apply_async((object_id,), **_message_options(kind, object_id))
        except Exception:  # noqa: BLE001 - any broker error: the row stays queued
            log.exception("could not queue %s job %s; it stays queued", kind, object_id)
    elif mode == "thread":
        background().submit(_run_in_thread, kind, object_id)
    else:
        run(object_id)


def _message_options(kind: str, object_id: int) -> dict:
    """A scoring job carries the time budget and queue its file's size earns (:mod:`.cost`)."""
    if kind != "scoring":
        return {}
    from .cost import submission_cost

    cost = submission_cost(object_id)
    routing = {"queue": cost.queue} if cost.queue else {}
    return {"kwargs": {"budget": cost.seconds}, "soft_time_limit": cost.seconds, "time_limit": cost.seconds + 60, **routing}


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


def _run_in_thread(kind: str, object_id: int) -> None:
    _celery_task, run, fail = _services(kind)
    close_old_connections()
    try:
        run(object_id)
    except Exception as error:  # noqa: BLE001 - the thread has no retry: record why
        log.exception("%s job %s failed", kind, object_id)
        fail(object_id, f"internal error: {error}")
    finally:
        connection.close()
