"""Publish a campaign: its ranking joins the phase's board and exports, its page opens to all.

The board and its exports are cached per pool version, so publishing (and a published
campaign's new ranking) touches the pool: every open board then fetches the new column.
The phase's public meta-evaluation then counts the campaign's Expected Wins and TrueSkill
as two more human schemes; the organizers' counts every ranked campaign, published or
not (:mod:`leaderboard.campaigns.insights.meta`), so publishing changes only what everyone else
sees. The campaign's job then brings the cached tables up to date in the worker.
"""

from __future__ import annotations

from django.db import transaction

from ...board_version import board_changed
from ...models import Campaign
from .jobs import run_campaign_job
from .judgments import ensure_judgments
from .publishable import check_publishable


def set_published(campaign: Campaign, published: bool) -> None:
    """Also gives the phase an (empty) judgments row when it has none, so that its
    meta-evaluation exists and includes the campaign's schemes. Refuses a rating campaign
    with no counted rating (:mod:`.publishable`)."""
    if published:
        check_publishable(campaign)
    with transaction.atomic():  # the flag and the pool's new version are seen together
        Campaign.objects.filter(pk=campaign.pk).update(published=published)
        if published:
            ensure_judgments(campaign.phase_id)
        board_changed(campaign.phase_id)
        transaction.on_commit(lambda: run_campaign_job.enqueue(campaign.pk))
    campaign.published = published
