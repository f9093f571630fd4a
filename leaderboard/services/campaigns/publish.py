"""Publish a campaign: its ranking joins the phase's board and exports, its page opens to all.

The board and its exports are cached per pool version, so publishing (and a published
campaign's new ranking) touches the pool: every open board then fetches the new column. The phase's meta-evaluation then counts
the campaign's Expected Wins and TrueSkill as two more human schemes.
"""
from __future__ import annotations

from scoring.meta import HumanJudgments

from ...models import Campaign, Judgments
from ..pool.membership import touch


def set_published(campaign: Campaign, published: bool) -> None:
    """Also gives the phase an (empty) judgments row when it has none, so that its
    meta-evaluation exists and includes the campaign's schemes."""
    Campaign.objects.filter(pk=campaign.pk).update(published=published)
    campaign.published = published
    if published:
        Judgments.objects.get_or_create(phase_id=campaign.phase_id, defaults={"data": HumanJudgments(schemes={}).as_json(), "files": []})
    touch(campaign.phase_id)
