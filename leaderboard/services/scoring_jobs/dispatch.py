"""The fair queue: a team has at most ``GEC_TEAM_JOBS_AT_ONCE`` jobs in each queue of the
broker at a time (no team's uploads delay another's by more than one job).

A broker queue is first come, first served: a team that queued forty uploads would sit
in front of everyone who came after. So an upload's job is sent only when its team has
no other job waiting or running in the same queue (its *lane*, chosen by its estimated
cost, :mod:`.cost`); the rest wait in the database, in the order they came, and the next
one is sent when the running one ends. The broker then holds at most one job per team
and lane, and the workers serve the teams in turn. Scoring stays idempotent, so sending
a job twice (the sweeper re-queuing a lost message) costs a look, never a double score.

The scoring job (:mod:`.queued`) asks :func:`admit` what to send when scoring is wanted
and :func:`released` when a job ends; the sweeper (:mod:`.sweeper`) asks
:func:`next_waiting` after it fails a job whose worker was lost.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ...models import Submission, Team
from .cost import ScoringCost, submission_cost

DEFAULT_LANE = "celery"  # Celery's default queue (docker/compose.yaml's ``worker``)
ACTIVE = (Submission.Status.QUEUED, Submission.Status.RUNNING)


def lane_of(cost: ScoringCost) -> str:
    return cost.queue or DEFAULT_LANE


def admit(submission_id: int) -> list[tuple[int, ScoringCost]]:
    """Scoring of ``submission_id`` is wanted: the jobs to send now with their costs (the
    submission's own, or its team's oldest waiting one in its lane, or none while the
    team's lane is taken). A submission already sent and still queued is sent again: its
    message was lost (the sweeper asks)."""
    row = Submission.objects.filter(pk=submission_id).values("team_id", "lane", "status", "dispatched_at").first()
    if row is None or row["status"] not in ACTIVE:
        return []
    if not row["lane"]:
        row["lane"] = lane_of(submission_cost(submission_id))
        Submission.objects.filter(pk=submission_id).update(lane=row["lane"])
    resend = [submission_id] if row["dispatched_at"] and row["status"] == Submission.Status.QUEUED else []
    return [(pk, submission_cost(pk)) for pk in resend + _fill(row["team_id"], row["lane"])]


def released(submission_id: int) -> list[tuple[int, ScoringCost]]:
    """A job has ended (scored, failed): its team's next waiting jobs in that lane."""
    row = Submission.objects.filter(pk=submission_id).values("team_id", "lane").first()
    if row is None or not row["lane"]:
        return []
    return [(pk, submission_cost(pk)) for pk in _fill(row["team_id"], row["lane"])]


def next_waiting(submission_id: int) -> int | None:
    """The oldest submission waiting behind ``submission_id``'s team in its lane."""
    row = Submission.objects.filter(pk=submission_id).values("team_id", "lane").first()
    if row is None:
        return None
    return _waiting(row["team_id"], row["lane"]).values_list("pk", flat=True).first()


def _fill(team_id: int, lane: str) -> list[int]:
    """Mark the team's oldest waiting submissions of ``lane`` sent, up to the free slots;
    under the team's row lock, so two ends or an upload and an end never both send."""
    with transaction.atomic():
        Team.objects.select_for_update().filter(pk=team_id).first()
        taken = Submission.objects.filter(
            team_id=team_id, lane=lane, status__in=ACTIVE, dispatched_at__isnull=False
        ).count()
        free = settings.GEC_TEAM_JOBS_AT_ONCE - taken
        if free <= 0:
            return []
        chosen = list(_waiting(team_id, lane).values_list("pk", flat=True)[:free])
        Submission.objects.filter(pk__in=chosen).update(dispatched_at=timezone.now())
    return chosen


def _waiting(team_id: int, lane: str):
    return Submission.objects.filter(
        team_id=team_id, lane=lane, status=Submission.Status.QUEUED, dispatched_at__isnull=True
    ).order_by("created_at", "pk")


def queued_uploads(phase_id: int, team_id: int) -> int:
    """The team's uploads to the phase still waiting or scoring (the limit ``GEC_MAX_QUEUED_UPLOADS``)."""
    return Submission.objects.filter(phase_id=phase_id, team_id=team_id, parent__isnull=True, status__in=ACTIVE).count()
