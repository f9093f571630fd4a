"""Where scoring runs: Celery workers, one background thread, or inline.

``GEC_TASK_MODE`` (see settings): ``celery`` sends the job to the broker; ``thread``
(embedded mode) hands it to a single worker thread of this process, so an upload returns
at once and the page updates live; ``sync`` scores inline (unit tests). All three end in
:func:`leaderboard.services.scoring.score_submission`.
"""
from __future__ import annotations

import logging
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, connection

log = logging.getLogger(__name__)
_executor: ThreadPoolExecutor | None = None


def enqueue_scoring(submission_id: int) -> None:
    """Queue one submission with the time budget and queue its size earns (:mod:`.cost`).
    A broker failure is logged, not raised: the row is already committed as ``queued``
    and the sweeper will queue it again."""
    mode = settings.GEC_TASK_MODE
    if mode == "celery":
        from ..tasks import score_submission_task
        from .cost import submission_cost

        try:
            cost = submission_cost(submission_id)
            routing = {"queue": cost.queue} if cost.queue else {}
            score_submission_task.apply_async(
                (submission_id,), {"budget": cost.seconds}, soft_time_limit=cost.seconds, time_limit=cost.seconds + 60, **routing
            )
        except Exception:  # noqa: BLE001 - any broker error: the sweeper retries
            log.exception("could not queue submission %s; the sweeper will retry", submission_id)
    elif mode == "thread":
        background().submit(_run_in_thread, submission_id)
    else:
        from .scoring import score_submission

        score_submission(submission_id)


def background() -> ThreadPoolExecutor:
    """The embedded mode's single scoring thread (one job at a time, like one worker)."""
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="scoring")
    return _executor


def wait_for_background() -> None:
    """Block until every job handed to the thread so far is done (commands, tests)."""
    if _executor is not None:
        done: Future = _executor.submit(lambda: None)
        done.result()


def _run_in_thread(submission_id: int) -> None:
    from ..models import Submission
    from .scoring import fail_submission, score_submission

    close_old_connections()
    try:
        score_submission(submission_id)
    except Exception as error:  # noqa: BLE001 - the thread has no retry: record why
        log.exception("scoring submission %s failed", submission_id)
        fail_submission(submission_id, f"internal error while scoring: {error}", cause=Submission.FailureCause.PLATFORM)
    finally:
        connection.close()
