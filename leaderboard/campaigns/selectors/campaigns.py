"""The human evaluation campaigns a page or an API class reads, and the little that is
not figures (those are ``insights.campaigns``')."""

from __future__ import annotations

from django.db.models import Count, Max, Q

from ...models import Campaign, Invitation, SharedTask


def live_version(campaign: Campaign) -> str:
    """What the organizer's page follows (``static/leaderboard/live.js``): it changes with
    every judgment or skip (``version``), ranking, state, publication and invitation answer."""
    answers = Invitation.objects.filter(campaign=campaign).aggregate(
        answered=Count("pk", filter=~Q(status=Invitation.Status.PENDING)), last=Max("accepted_at")
    )
    last = answers["last"].timestamp() if answers["last"] else 0
    fresh = Campaign.objects.filter(pk=campaign.pk).values_list("version", "ranked_version", "status", "published")
    version, ranked, status, published = fresh.first() or (0, 0, "", False)
    return f"{version}.{ranked}.{status}.{int(published)}.{answers['answered']}.{last:.0f}"


def may_see_a_campaign(task: SharedTask, user) -> bool:
    """Whether the task has a published campaign, or one ``user`` annotates (the tab shows)."""
    shown = Q(published=True) | Q(annotators=user) if user.is_authenticated else Q(published=True)
    return Campaign.objects.filter(task=task).filter(shown).exists()


def reloaded(campaign: Campaign) -> Campaign:
    """The campaign as stored now (its status after a job that ran inline, say)."""
    return Campaign.objects.get(pk=campaign.pk)
