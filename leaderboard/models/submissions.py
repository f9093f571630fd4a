"""A system output uploaded to a phase, and its way through the scoring queue."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from .shared_tasks import at_most_in_database
from .text import NAME_MAX, SUBMISSION_DESCRIPTION_MAX, at_most, visible_name


class Submission(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SCORED = "scored"
        FAILED = "failed"

    class FailureCause(models.TextChoices):
        NONE = "", "not failed"
        INPUT = "input", "the file (counts against the team's limits)"
        PLATFORM = "platform", "the platform (does not count)"

    phase = models.ForeignKey("leaderboard.Phase", on_delete=models.CASCADE, related_name="submissions")
    team = models.ForeignKey("leaderboard.Team", on_delete=models.CASCADE, related_name="submissions")
    submitted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    system_name = models.CharField(max_length=NAME_MAX, validators=[visible_name])
    description = models.TextField(blank=True, validators=[at_most(SUBMISSION_DESCRIPTION_MAX)])
    track = models.CharField(max_length=32, blank=True, help_text="one of the task's tracks, or empty")
    filename = models.CharField(max_length=255)
    # The file itself lives in the database, so web and worker hosts share it without a
    # shared disk, and a stored submission is never lost with a container.
    content = models.BinaryField()
    size = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED, db_index=True)
    progress = models.FloatField(default=0.0)
    error = models.TextField(blank=True)
    failure_cause = models.CharField(max_length=8, choices=FailureCause.choices, default=FailureCause.NONE, blank=True)
    signature = models.TextField(blank=True)
    is_baseline = models.BooleanField(default=False)
    attempts = models.PositiveIntegerField(default=0)
    worker_losses = models.PositiveIntegerField(
        default=0, help_text="times the worker's own memory ceiling or time budget stopped it (counts)"
    )
    external_losses = models.PositiveIntegerField(
        default=0, help_text="times its worker was stopped from outside (does not count)"
    )
    memory_mb = models.PositiveIntegerField(
        default=0, help_text="the scoring process's data size at its last heartbeat"
    )
    chosen = models.BooleanField(
        default=False, help_text="the team's choice for a phase that counts the chosen submission"
    )
    hidden = models.BooleanField(default=False, help_text="withdrawn by its team: off the board and the pool")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True, help_text="last sign of life while queued or running")
    scored_at = models.DateTimeField(null=True, blank=True)
    # the fair queue (services/scoring_jobs/dispatch.py): the queue its cost chose, and when its message
    # went to the broker (a team has at most one message per queue there at a time)
    lane = models.CharField(
        max_length=64, blank=True, help_text="the queue its estimated cost chose ('' = the default queue)"
    )
    dispatched_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when its job was sent to the queue; unset while it waits behind its team's job",
    )
    parent = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="corpus_outputs",
        help_text="the upload this corpus output came in (a zip for a multi-corpus phase)",
    )

    class Meta:
        indexes = [
            models.Index(fields=["phase", "team", "status"]),
            models.Index(fields=["team", "lane", "status"], name="submission_team_lane"),
        ]
        constraints = [at_most_in_database("description", SUBMISSION_DESCRIPTION_MAX, "submission_description_length")]

    def __str__(self):
        return f"#{self.pk} {self.system_name} ({self.status})"

    @staticmethod
    def scored_alone() -> models.Q:
        """The submissions that are scored themselves: all but the uploads to a phase of
        several corpora, whose corpus files (``corpus_outputs``) are scored instead."""
        return models.Q(phase__dataset__isnull=False)

    @staticmethod
    def on_board() -> models.Q:
        """The submissions the board shows: pool members, and the uploads to a phase of
        several corpora whose corpus files are pool members."""
        in_pool = models.Q(pool_membership__isnull=False)
        return in_pool | models.Q(pk__in=Submission.objects.filter(in_pool, parent__isnull=False).values("parent"))

    @property
    def display_name(self) -> str:
        return self.system_name if self.is_baseline else f"{self.team.name}/{self.system_name}"
