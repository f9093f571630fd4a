"""Teams register for a task; a user is in at most one team per task (Membership).

A team belongs to one task (``task``), as on CodaLab and Codabench: the same people may
enter another task under another name. Others join with the team's ``invite_code``.
With the task's signup on "approval", a team may submit once an organizer approves it.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from .text import NAME_MAX, visible_name


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Team(models.Model):
    task = models.ForeignKey(
        "leaderboard.SharedTask", null=True, blank=True, on_delete=models.CASCADE, related_name="teams"
    )
    name = models.CharField("team name", max_length=NAME_MAX, validators=[visible_name])
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    approved = models.BooleanField(default=True)
    approved_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when an organizer (or the e-mail domain list) approved it; empty when approved by an open signup",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["task", "name"], name="one_team_name_per_task"),
            models.UniqueConstraint(fields=["name"], condition=Q(task__isnull=True), name="one_global_team_name"),
        ]

    def __str__(self):
        return self.name


class Membership(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    task = models.ForeignKey(
        "leaderboard.SharedTask",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="the team's task, so one team per task and user is a constraint",
    )
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "task"], name="one_team_per_task"),
            models.UniqueConstraint(fields=["user"], condition=Q(task__isnull=True), name="one_global_team"),
        ]

    def __str__(self):
        return f"{self.user} in {self.team}"


class Profile(models.Model):
    """Per-user settings beyond Django's User."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    notify_by_email = models.BooleanField(default=True, help_text="an email when a submission is scored or fails")

    def __str__(self):
        return f"profile of {self.user}"
