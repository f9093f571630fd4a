"""A board's significance groups, computed by a worker and read by every render.

The groups (a paired bootstrap of each system against the one ranked above it) cost
seconds on a large board, and under steady scoring the board changes every second or
two: a web request never computes them. One row per board (phase, score
path, track) holds the groups of the ranked rows it was computed on, named by a digest
of those rows (``rows_key``), so a render knows whether they are exact for what it shows;
``asked_key`` and ``asked_at`` let one request of all the web processes ask a worker for
new ones, no more often than ``GEC_TIE_GROUPS_EVERY`` seconds.
"""

from django.db import models
from django.utils import timezone


class BoardTies(models.Model):
    phase = models.ForeignKey("leaderboard.Phase", on_delete=models.CASCADE, related_name="board_ties")
    metric = models.CharField(max_length=200, help_text="the score path the board ranks by")
    track = models.CharField(max_length=100, blank=True, help_text="'' for the whole board")
    rows_key = models.CharField(max_length=64, blank=True, help_text="digest of the ranked rows the groups are of")
    order = models.JSONField(default=list, help_text="those rows' submission ids, best first")
    groups = models.JSONField(default=dict, help_text='{submission id: {"group", "p_value", "delta"}}')
    computed_at = models.DateTimeField(null=True, blank=True)
    asked_key = models.CharField(max_length=64, blank=True, help_text="the rows a worker was last asked about")
    asked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "board ties"
        constraints = [models.UniqueConstraint(fields=["phase", "metric", "track"], name="one_ties_row_per_board")]

    def __str__(self):
        return f"tie groups of {self.phase} by {self.metric}{' (' + self.track + ')' if self.track else ''}"


class SampledScores(models.Model):
    """One submission's score at ``path`` on each bootstrap sample of the tie groups' draw
    (``scoring.bootstrap.SampledScores``), kept so that every worker process and every
    later board pairs 8 KB of floats instead of parsing the submission's statistics again
    (an ERRANT row is about 800 KB of JSON). ``key`` names what the vector depends on
    besides the submission: its scoring time (a rescore is a new key), the scoring
    options, the number of samples and the seed. Pool metrics are not kept: their weights
    change with the pool."""

    submission = models.ForeignKey("leaderboard.Submission", on_delete=models.CASCADE, related_name="sampled_scores")
    path = models.CharField(max_length=200, help_text="the score path sampled")
    key = models.CharField(max_length=64, help_text="digest of scored_at, scoring options, samples and seed")
    observed = models.FloatField(
        null=True, help_text="the score on the whole corpus; null when the statistics cannot give the path"
    )
    values = models.BinaryField(help_text="the score on each sample, float64 bytes")

    class Meta:
        verbose_name_plural = "sampled scores"
        constraints = [models.UniqueConstraint(fields=["submission", "path", "key"], name="one_sampled_scores_per_key")]

    def __str__(self):
        return f"sampled {self.path} of #{self.submission_id}"
