"""Publish a campaign: its ranking joins the phase's board and exports, its page opens to all.

The board and its exports are cached per pool version, so publishing (and a published
campaign's new ranking) touches the pool: every open board then fetches the new column.
"""
from __future__ import annotations

from ...models import Campaign
from ..pool import touch


def set_published(campaign: Campaign, published: bool) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(published=published)
    campaign.published = published
    touch(campaign.phase_id)
