"""GoToScorer's pool (Gotou et al., 2020; docs/metrics.md, GoToScorer, "What the platform adds").

Per phase: the gold chunks of the GoToScorer reference and N, the pool size. n_i, the
number of pool members judged correct on chunk i, is kept as N - f_i with f_i the
members that failed it: a system gets most chunks right, so a join or leave touches only
the few rows it failed instead of every chunk it got right (``GoldChunk.objects.with_n()``
gives n_i back). The weight of chunk i is w_i = 1 - n_i / N, and a join or leave
re-derives every member's scores from their stored outcome bits, without re-aligning.
"""

from django.db import models
from django.db.models import ExpressionWrapper, F
from django.utils import timezone


class Pool(models.Model):
    """One row per phase; locked (SELECT ... FOR UPDATE) by every join and leave."""

    phase = models.OneToOneField("leaderboard.Phase", on_delete=models.CASCADE, related_name="pool")
    size = models.PositiveIntegerField(default=0, help_text="N: members in the pool")
    version = models.PositiveBigIntegerField(
        default=0, help_text="the board's version: moved on only by leaderboard.board_version.board_changed()"
    )
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return f"pool of {self.phase} (N={self.size})"


class GoldChunkQuerySet(models.QuerySet):
    def with_n(self):
        """Annotate n, the success count n_i = N - f_i."""
        return self.annotate(
            n=ExpressionWrapper(F("phase__pool__size") - F("failures"), output_field=models.IntegerField())
        )


class GoldChunk(models.Model):
    """A chunk of the reference (edit, unmodified token or dummy slot) and its f_i."""

    phase = models.ForeignKey("leaderboard.Phase", on_delete=models.CASCADE, related_name="gold_chunks")
    position = models.PositiveIntegerField(help_text="index in the phase's chunk vector")
    sentence = models.PositiveIntegerField()
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    correction = models.TextField(blank=True)
    error_type = models.CharField(max_length=32, blank=True)
    modified = models.BooleanField()
    failures = models.PositiveIntegerField(
        default=0, help_text="f_i: pool members not judged correct on this chunk (n_i = N - f_i)"
    )

    objects = GoldChunkQuerySet.as_manager()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["phase", "position"], name="one_chunk_per_position")]


class PoolMember(models.Model):
    """A submission in its phase's pool, with its outcome on every gold chunk.

    Outcomes are two bit vectors over the chunk positions (``numpy.packbits`` order):
    ``modified`` (the system changed the chunk) and ``correct`` (judged correct).
    """

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="members")
    submission = models.OneToOneField(
        "leaderboard.Submission", on_delete=models.CASCADE, related_name="pool_membership"
    )
    modified = models.BinaryField()
    correct = models.BinaryField()
    joined_at = models.DateTimeField(default=timezone.now)
