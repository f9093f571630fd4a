"""Invitations to annotate a campaign, as Appraise serves its annotators.

An organizer invites by e-mail address or username; nobody annotates before accepting.
An invitation is also the slot a campaign's screens are planned for: preparing a
campaign gives each invitation a queue (``Assignment.invitation``), and accepting it
hands that queue to the account that accepted (``Invitation.user``). So screens are
sampled once, whoever turns up, and a dropped annotator's screens can be moved to
another invitation. ``invitee`` is only what the organizer typed: nothing the organizer
is shown says whether an address or name belongs to an account until the invitee accepts.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Invitation(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"
        DECLINED = "declined"
        DROPPED = "dropped"

    campaign = models.ForeignKey("leaderboard.Campaign", on_delete=models.CASCADE, related_name="invitations")
    invitee = models.CharField(max_length=254, help_text="the e-mail address or username the organizer typed")
    token = models.CharField(max_length=64, unique=True, help_text="the secret in the invitation's link")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="invitations"
    )
    created_at = models.DateTimeField(default=timezone.now)
    accepted_at = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "invitee"], name="one_invitation_per_invitee"),
        ]

    def __str__(self):
        return f"{self.campaign_id}: {self.invitee} ({self.status})"
