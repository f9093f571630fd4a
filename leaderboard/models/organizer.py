"""Organizer work that parses gold or scores: run by the worker queue, never in a request.

An organizer starts a job from a page and watches its progress there; the page polls the
row. ``result`` keeps what the job found (a rescore's ranks before and after).
"""

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone


class OrganizerJob(models.Model):
    class Kind(models.TextChoices):
        PREPARE_GOLD = "prepare_gold", "prepare gold"
        RESCORE = "rescore", "rescore every submission"

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    task = models.ForeignKey("leaderboard.SharedTask", on_delete=models.CASCADE, related_name="jobs")
    dataset = models.ForeignKey(
        "leaderboard.Dataset",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="jobs",
        help_text="the gold a prepare job parses",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED, db_index=True)
    progress = models.FloatField(default=0.0)
    message = models.TextField(blank=True, help_text="what it is doing, or why it failed")
    result = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="last sign of life (queued, each progress step); the sweeper re-queues a silent job",
    )
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="runs started; the sweeper fails the job after a few"
    )

    class Meta:
        ordering = ["-pk"]

    def __str__(self):
        return f"{self.get_kind_display()} of {self.task} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def may_run_again(self) -> bool:
        """Failed, or silent for longer than a stuck submission (its worker or the web
        process that ran it is gone): the organizer may queue it again."""
        if self.status == self.Status.FAILED:
            return True
        silent_since = self.heartbeat_at or self.started_at or self.created_at
        return self.status != self.Status.DONE and timezone.now() - silent_since > dt.timedelta(
            seconds=settings.GEC_STUCK_AFTER
        )
