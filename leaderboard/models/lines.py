"""Parses of system lines, shared by every worker scoring the same dataset.

A line's parse depends only on its exact tokens, and across a task's submissions most
changed lines repeat; the scoring library's ``LineCache`` looks here before parsing
(``services.data.datasets.DatabaseLineStore``), so a line is parsed once per task, not once
per process.
"""

from django.db import models


class ParsedLine(models.Model):
    dataset = models.ForeignKey("leaderboard.Dataset", on_delete=models.CASCADE, related_name="parsed_lines")
    key = models.CharField(max_length=64, help_text="scoring.line_cache.line_key of the tokens")
    parse = models.BinaryField(help_text="a spaCy DocBin holding the one parse")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["dataset", "key"], name="one_parse_per_line")]
