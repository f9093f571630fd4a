"""Teams and their members, as the profile and the teams pages show them."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import Membership, SharedTask, Team


def memberships_of(user) -> QuerySet[Membership]:
    """Every team ``user`` is in, one per task, by task address."""
    return Membership.objects.filter(user=user).select_related("team", "task").order_by("task__slug")


def members_of(team: Team | None):
    """A team's members in the order they joined (none for no team)."""
    return team.memberships.select_related("user").order_by("joined_at") if team else []


def teams_of_task(task: SharedTask) -> QuerySet[Team]:
    """A task's teams for its organizers: pending ones first, then by name."""
    return Team.objects.filter(task=task).prefetch_related("memberships__user").order_by("approved", "name")
