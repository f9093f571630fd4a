"""The human evaluation campaigns a page or an API class reads."""

from __future__ import annotations

from ..models import Campaign, SharedTask


def may_see_a_campaign(task: SharedTask, user) -> bool:
    """Whether the task has a published campaign, or one ``user`` annotates (the tab shows)."""
    campaigns = Campaign.objects.filter(task=task)
    return campaigns.filter(published=True).exists() or (
        user.is_authenticated and campaigns.filter(annotators=user).exists()
    )


def reloaded(campaign: Campaign) -> Campaign:
    """The campaign as stored now (its status after a job that ran inline, say)."""
    return Campaign.objects.get(pk=campaign.pk)
