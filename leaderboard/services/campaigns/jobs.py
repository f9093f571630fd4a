"""The worker's one job for a campaign: bring it up to date.

A preparing campaign gets its screens (:mod:`.prepare`, once: the row is locked and its
status checked, so a redelivered message does nothing twice); a ready one is ranked again
when judgments arrived since its last ranking (:mod:`.ranking`). The queue adapter
(:mod:`leaderboard.services.jobs`) calls it from Celery, the embedded thread or inline.
"""
from __future__ import annotations

from django.db import transaction

from ...models import Campaign
from .prepare import prepare_campaign
from .ranking import refresh_ranking


def run_campaign_job(campaign_id: int) -> str:
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().select_related("task", "phase").filter(pk=campaign_id).first()
        if campaign is None:
            return "gone"
        if campaign.status == Campaign.Status.PREPARING:
            prepare_campaign(campaign)
    status = Campaign.objects.values_list("status", flat=True).get(pk=campaign_id)
    if status == Campaign.Status.READY:
        refresh_ranking(campaign_id)
    return status
