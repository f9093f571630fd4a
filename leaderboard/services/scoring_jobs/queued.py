"""The scoring job: a submission scored in the queue (:mod:`leaderboard.queue`), each
message carrying the time budget and queue its file's cost earns (:mod:`.cost`), sent
through the fair queue (:mod:`.dispatch`: maybe later, maybe an older one of the team
first), and its team's next waiting job sent when it ends, scored or failed.
"""

from __future__ import annotations

import logging

from django.conf import settings

from ...queue import INFRASTRUCTURE_ERRORS, Message, RetryLater, TimeBudgetSpent, job, queue_option
from . import dispatch
from .cost import ScoringCost
from .submission import INPUT, PLATFORM, Busy, fail_submission, score_submission

log = logging.getLogger(__name__)


def scoring_message(submission_id: int, cost: ScoringCost) -> Message:
    """A scoring job carries the time budget and queue its file's cost earns."""
    routing = queue_option(cost.queue or "")
    return Message(
        (submission_id,),
        {
            "kwargs": {"budget": cost.seconds},
            "soft_time_limit": cost.seconds,
            "time_limit": cost.seconds + 60,
            **routing,
        },
    )


def fair_queue(submission_id: int, budget: int | None = None) -> list[Message]:
    """What to send when scoring is wanted: the fair queue's answer (:func:`.dispatch.admit`)."""
    return [scoring_message(pk, cost) for pk, cost in dispatch.admit(submission_id)]


def fail_for_the_platform(submission_id: int, message: str) -> str:
    """A job that broke on our side (not the file's): failed, and the team's next one sent."""
    status = fail_submission(submission_id, message, cause=PLATFORM)
    scoring_ended(submission_id)
    return status


@job("leaderboard.tasks.score_submission", messages=fair_queue, on_failure=fail_for_the_platform)
def score_queued(submission_id: int, budget: int | None = None) -> str:
    """``budget``: the soft time limit the file's cost earned (:mod:`.cost`). A Celery
    worker keeps a heartbeat while it scores (the sweeper tells a dead worker's run apart
    from one still going); a submission another worker holds is looked at again once a
    live worker would have beaten."""
    try:
        status = score_submission(submission_id, beat=settings.GEC_TASK_MODE == "celery")
    except Busy:
        raise RetryLater(settings.GEC_HEARTBEAT_GRACE) from None
    except TimeBudgetSpent:
        seconds = budget or settings.GEC_SCORING_TIME_LIMIT
        status = fail_submission(
            submission_id,
            f"scoring took longer than this file's time budget of {seconds} s and was stopped",
            cause=INPUT,
        )
    except INFRASTRUCTURE_ERRORS:
        raise  # retried by the queue: the job stays this team's running one
    scoring_ended(submission_id)
    return status


def scoring_ended(submission_id: int) -> None:
    """A scoring job has ended: send its team's next waiting job of that lane (the fair
    queue, Celery only). Never raises: a failure leaves the next one for the sweeper."""
    if settings.GEC_TASK_MODE != "celery":
        return
    try:
        for pk, cost in dispatch.released(submission_id):
            score_queued.send(scoring_message(pk, cost))
    except Exception:
        log.exception("could not send the job after submission %s; the sweeper will", submission_id)
