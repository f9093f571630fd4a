"""Work a domain service asks for and the queue adapter delivers: scoring a submission,
running an organizer's job, preparing or re-ranking a human evaluation campaign,
computing a board's significance groups.

The queue adapter (:mod:`.jobs`) runs the domain services, so a service that imported it
would close a circle. A service announces the work here instead, once its transaction has
committed; :mod:`.jobs` listens (connected when the app is ready) and sends the work to a
Celery worker, the embedded mode's thread, or runs it inline.
"""

from __future__ import annotations

from django.dispatch import Signal

scoring_wanted = Signal()  # object_id: a Submission's id
organizer_job_wanted = Signal()  # object_id: an OrganizerJob's id
campaign_wanted = Signal()  # object_id: a Campaign's id (prepare it, or rank its judgments again)
tie_groups_wanted = Signal()  # object_id: a Phase's id; metric, track: which board's groups


class NoQueue(RuntimeError):
    """Nothing listens: the app registry is not ready, so the work would be lost."""


def request_scoring(submission_id: int) -> None:
    _announce(scoring_wanted, submission_id)


def request_organizer_job(job_id: int) -> None:
    _announce(organizer_job_wanted, job_id)


def request_campaign_work(campaign_id: int) -> None:
    _announce(campaign_wanted, campaign_id)


def request_tie_groups(phase_id: int, metric: str, track: str) -> None:
    _announce(tie_groups_wanted, phase_id, metric=metric, track=track)


def _announce(signal: Signal, object_id: int, **details) -> None:
    if not signal.has_listeners():
        raise NoQueue("no queue listens for work: leaderboard.services.jobs connects when Django's apps are ready")
    signal.send(sender=None, object_id=object_id, **details)
