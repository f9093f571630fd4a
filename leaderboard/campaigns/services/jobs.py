"""The worker's one job for a campaign: bring it up to date.

A preparing campaign gets its screens (:mod:`.prepare`, once: the row is locked and its
status checked, so a redelivered message does nothing twice); a ready one is ranked again
when judgments arrived since its last ranking (:mod:`.human_ranking`), no sooner than
``GEC_CAMPAIGN_RANK_EVERY`` seconds after the last (:func:`rank_delay`: a Celery countdown).
Then the phase's meta-evaluation tables (the public one, the organizers') are brought up
to date, so that a request seldom has to compute one; publishing asks for this job too.
A service asks for it with ``run_campaign_job.enqueue(campaign_id)`` (:mod:`leaderboard.queue`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ...models import Campaign
from ...queue import Message, job
from ..registry import mode_of
from .human_ranking import refresh_ranking
from .meta_tables import refresh_meta_tables


def after_the_interval(campaign_id: int) -> list[Message]:
    """A campaign's re-ranking waits out the campaign's interval (:func:`rank_delay`)."""
    delay = rank_delay(campaign_id)
    return [Message((campaign_id,), {"countdown": delay} if delay else {})]


@job("leaderboard.tasks.run_campaign_job", messages=after_the_interval)
def run_campaign_job(campaign_id: int) -> str:
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().select_related("task", "phase").filter(pk=campaign_id).first()
        if campaign is None:
            return "gone"
        if campaign.status == Campaign.Status.PREPARING:
            mode_of(campaign).plan(campaign)
    status, phase_id = Campaign.objects.values_list("status", "phase_id").get(pk=campaign_id)
    if status == Campaign.Status.READY:
        refresh_ranking(campaign_id)
        refresh_meta_tables(phase_id)
    return status


def rank_delay(campaign_id: int) -> float:
    """Seconds a re-ranking job should wait: the rest of ``GEC_CAMPAIGN_RANK_EVERY`` since
    the last ranking ended (none before the first, nor for a preparation). Judgments that
    arrive meanwhile find the job queued and ask for no other."""
    ranked_at = (
        Campaign.objects.filter(pk=campaign_id, status=Campaign.Status.READY)
        .values_list("ranked_at", flat=True)
        .first()
    )
    if ranked_at is None:
        return 0.0
    return max(0.0, settings.GEC_CAMPAIGN_RANK_EVERY - (timezone.now() - ranked_at).total_seconds())
