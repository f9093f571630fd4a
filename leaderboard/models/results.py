"""Stored results: per metric, the per-sentence statistics and the scores.

Statistics are what the scoring library's expensive step returns; every view, export,
bootstrap and pool re-weighting works from them without scoring again.
"""

from django.db import models


class MetricResult(models.Model):
    submission = models.ForeignKey("leaderboard.Submission", on_delete=models.CASCADE, related_name="results")
    metric = models.CharField(max_length=32)
    statistics = models.JSONField()
    # The system's object of docs/contracts.md section 2 for this metric. For a pool metric
    # (GoToScorer) it changes whenever the pool changes.
    scores = models.JSONField()
    # ``scores`` without its per-type tables (what a board reads): kept equal to it by a
    # PostgreSQL trigger (migration 0026) on every write; null on other databases.
    scores_summary = models.JSONField(
        null=True, editable=False, help_text="scores without their per-type tables, kept by the database (PostgreSQL)"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["submission", "metric"], name="one_result_per_metric")]

    def __str__(self):
        return f"{self.metric} of #{self.submission_id}"
