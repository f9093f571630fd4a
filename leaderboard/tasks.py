"""Celery's entry point: every job of the registry (:mod:`leaderboard.queue`) as the
Celery task of its name (``leaderboard.tasks.<name>``), so a grep for the name a message
carries finds the ``@job`` that runs it.

Each task is retried on database and broker errors with back-off (``RETRIED``); a job
that cannot run yet raises ``RetryLater``; any other failure is kept on the job's row
(its ``on_failure``) and raised, so the worker logs it.
"""

from celery import shared_task

from .campaigns.services import jobs as campaign_jobs  # noqa: F401

# The modules whose functions are jobs: importing them registers the jobs.
from .queue import INFRASTRUCTURE_ERRORS, REGISTRY, Job, RetryLater
from .services.boards import ties  # noqa: F401
from .services.hosting import organizer_jobs  # noqa: F401
from .services.jobs import sweeper  # noqa: F401
from .services.scoring_jobs import queued  # noqa: F401


def celery_task(job: Job):
    """The Celery task that runs ``job`` in a worker."""

    def run(self, *args, **kwargs):
        try:
            return job.run(*args, **kwargs)
        except RetryLater as later:
            raise self.retry(countdown=later.countdown, max_retries=None) from None
        except INFRASTRUCTURE_ERRORS:
            raise
        except Exception as error:
            job.on_failure(args[0] if args else None, f"internal error: {error}")
            raise

    run.__name__ = run.__qualname__ = job.name.rsplit(".", 1)[-1]
    run.__doc__ = job.__doc__
    return shared_task(bind=True, name=job.name, **job.task_options)(run)


TASKS = {name: celery_task(job) for name, job in sorted(REGISTRY.items())}
