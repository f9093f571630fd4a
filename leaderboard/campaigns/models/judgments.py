"""Human judgments attached to a phase (its dataset), for the meta-evaluation page and API.

``data`` is ``scoring.meta.HumanJudgments.as_json()``: system scores per scheme, sentence
rankings, the judged line of each dataset line, and the system sets. The computed table
is kept beside it with the key of the results it was computed from, so the page and the
API recompute it only after a new result, a rescore or new judgments.

Two audiences, two slots: ``table`` counts the published campaigns only (what everyone
may see), ``organizer_table`` every ranked campaign, and is used only while an
unpublished one is ranked (otherwise the organizers read ``table``). Neither is ever
computed from or served for the other's campaigns.
"""

from django.db import models
from django.utils import timezone


class Judgments(models.Model):
    phase = models.OneToOneField("leaderboard.Phase", on_delete=models.CASCADE, related_name="judgments")
    data = models.JSONField(help_text="scoring.meta.HumanJudgments.as_json()")
    files = models.JSONField(default=list, blank=True, help_text="what was loaded, for the page")
    table = models.JSONField(null=True, blank=True, help_text="the last meta-evaluation table")
    table_key = models.CharField(
        max_length=200, blank=True, help_text="the results and judgments the table was computed from"
    )
    organizer_table = models.JSONField(
        null=True, blank=True, help_text="the last table with unpublished campaigns too (organizers only)"
    )
    organizer_table_key = models.CharField(
        max_length=200, blank=True, help_text="what the organizers' table was computed from"
    )
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "judgments"

    def __str__(self):
        return f"human judgments of {self.phase}"

    def human(self):
        from scoring.meta import HumanJudgments

        return HumanJudgments.from_json(self.data)
