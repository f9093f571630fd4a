"""Celery entry points: thin wrappers over service functions. Each function is named as
Celery registers it (``leaderboard.tasks.<function>``, :data:`.services.jobs.queue.TASK_NAMES`),
so a grep for a task's name finds its code.

``acks_late`` with ``reject_on_worker_lost`` (settings) hands a killed worker's job to
another worker; database and broker errors are retried with back-off; the soft time
limit (a budget by file size) ends a runaway scoring as ``failed``, the file's fault.
"""

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError

from .campaigns.services import jobs as campaign_jobs
from .services.boards import ties
from .services.hosting.organizer_jobs import fail_job, run_job
from .services.jobs import sweeper
from .services.jobs.queue import TASK_NAMES, scoring_ended
from .services.scoring_jobs import submission as scoring
from .services.scoring_jobs.submission import INPUT, PLATFORM, Busy, fail_submission

INFRASTRUCTURE_ERRORS = (OperationalError, InterfaceError, ConnectionError, TimeoutError)
# Every job the platform queues survives a lost worker and a database or broker hiccup.
RETRIED = {
    "acks_late": True,
    "autoretry_for": INFRASTRUCTURE_ERRORS,
    "retry_backoff": 5,
    "retry_backoff_max": 300,
    "max_retries": 8,
}


@shared_task(
    bind=True,
    name=TASK_NAMES["scoring"],
    **RETRIED,
)
def score_submission(self, submission_id: int, budget: int | None = None) -> str:
    """``budget``: the soft time limit the file's cost earned (services/scoring_jobs/cost.py). Once the
    job has ended, scored or failed, its team's next waiting job goes to the queue
    (services/scoring_jobs/dispatch.py: the fair queue)."""
    try:
        status = scoring.score_submission(submission_id, beat=True)
    except Busy:
        # another worker holds it, or one that just died did: look again once a live
        # worker would have beaten (services/scoring_jobs/submission.py _claim)
        raise self.retry(countdown=settings.GEC_HEARTBEAT_GRACE, max_retries=None) from None
    except SoftTimeLimitExceeded:
        seconds = budget or settings.GEC_SCORING_TIME_LIMIT
        status = fail_submission(
            submission_id,
            f"scoring took longer than this file's time budget of {seconds} s and was stopped",
            cause=INPUT,
        )
    except INFRASTRUCTURE_ERRORS:
        raise
    except Exception as error:
        fail_submission(submission_id, f"internal error while scoring: {error}", cause=PLATFORM)
        scoring_ended(submission_id)
        raise
    scoring_ended(submission_id)
    return status


@shared_task(name="leaderboard.tasks.sweep_stuck_submissions")
def sweep_stuck_submissions() -> dict[str, list[int] | int]:
    """Beat's sweep: stuck submissions, lost organizer jobs, live channel files no page names."""
    return {
        "submissions": sweeper.sweep_stuck_submissions(),
        "jobs": sweeper.sweep_lost_jobs(),
        "channels": sweeper.sweep_channels(),
    }


ORGANIZER_JOB_TIME_LIMIT = 12 * 3600  # a rescore scores every submission of a task in turn


@shared_task(
    name=TASK_NAMES["organizer"],
    **RETRIED,
    time_limit=ORGANIZER_JOB_TIME_LIMIT + 60,
    soft_time_limit=ORGANIZER_JOB_TIME_LIMIT,
)
def run_organizer_job(job_id: int) -> str:
    """Gold preparation or a rescore (``services.hosting.organizer_jobs``); a failure is kept on the job."""
    try:
        return run_job(job_id)
    except INFRASTRUCTURE_ERRORS:
        raise
    except Exception as error:
        fail_job(job_id, f"internal error: {error}")
        raise


@shared_task(
    name=TASK_NAMES["campaign"],
    **RETRIED,
)
def run_campaign_job(campaign_id: int) -> str:
    """Prepare a human evaluation campaign's screens, or rank its judgments again
    (``services.campaigns.jobs``); a failed preparation is kept on the campaign."""
    return campaign_jobs.run_campaign_job(campaign_id)


@shared_task(
    name=TASK_NAMES["ties"],
    **RETRIED,
)
def refresh_tie_groups(phase_id: int, metric: str, track: str = "") -> str:
    """A board's significance groups (``services.boards.ties``); a render asks again if lost."""
    return ties.refresh_tie_groups(phase_id, metric, track)
