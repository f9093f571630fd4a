"""Campaigns on the insight task (tests/conftest.py): create one, judge its screens."""

from __future__ import annotations

from django.contrib.auth.models import User


def annotator(name: str) -> User:
    return User.objects.filter(username=name).first() or User.objects.create_user(
        name, email=f"{name}@example.org", password="pw-" + name
    )


def accept_invitations(campaign) -> None:
    """Every invitee with an account accepts, as each would from their invitation's link."""
    from leaderboard.campaigns.services.invitations import accept
    from leaderboard.models import Invitation

    for invitation in Invitation.objects.filter(campaign=campaign, status="pending"):
        invitee = invitation.invitee
        user = (
            User.objects.filter(email__iexact=invitee).order_by("pk").first()
            if "@" in invitee
            else User.objects.filter(username=invitee).first()
        )
        if user is not None and not campaign.annotators.filter(pk=user.pk).exists():
            accept(invitation, user)


def make_campaign(task, organizer, capture, *, accepted: bool = True, **settings):
    """Create (and, as its transaction commits, prepare) a campaign, its invitees with an
    account accepting (unless ``accepted`` is false); returns it refreshed."""
    from leaderboard.campaigns.services.create import CampaignSettings, create_campaign

    values = {"name": "human", "annotators": ["ann1", "ann2"], "screens_per_annotator": 10, **settings}
    for name in values["annotators"]:
        if "@" not in name:
            annotator(name)
    with capture(execute=True):
        campaign = create_campaign(task, organizer, CampaignSettings(**values))
        if accepted:
            accept_invitations(campaign)
    campaign.refresh_from_db()
    return campaign


def careful_ranks(screen) -> dict[str, int]:
    """Ranks a careful annotator gives: controls last, the rest by fewer edits first."""
    ranks = {}
    order = sorted(screen.outputs, key=lambda o: (o["control_of"] is not None, len(o["edits"]), o["key"]))
    for rank, output in enumerate(order, start=1):
        ranks[output["key"]] = rank
    return ranks


def careless_ranks(screen) -> dict[str, int]:
    """Controls first: the degraded output above its original."""
    order = sorted(screen.outputs, key=lambda o: (o["control_of"] is None, o["key"]))
    return {output["key"]: rank for rank, output in enumerate(order, start=1)}


def judge_all(campaign, user, capture, ranks=careful_ranks) -> int:
    """Judge every screen of the user's queue through the service; returns how many."""
    from leaderboard.campaigns.insights.campaigns import next_screen
    from leaderboard.campaigns.services.judging import record_judgment
    from leaderboard.models import Screen

    count = 0
    while (screen := next_screen(campaign, user)) is not None:
        row = Screen.objects.get(assignments__pk=screen["item"])
        edits = {o["key"]: [True] * len(o["edits"]) for o in screen["outputs"]} if campaign.mode == "edits" else None
        with capture(execute=True):
            record_judgment(campaign, user, screen["item"], ranks(row), edits)
        count += 1
    return count
