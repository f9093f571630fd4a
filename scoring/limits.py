"""How much one input file may hold, so that scoring it has a bounded cost.

Every reader checks these before anything is parsed: text outputs, M2 outputs (each
correction and the sentence an annotator's edits make, so a 0.2 MB ``A`` line cannot
carry 100,000 tokens), sources and references, whether they come from the CLI, the
upload form or the API. With every line bounded, each metric's per-sentence cost is
bounded too; the per-file totals bound a whole job.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ProblemCollector

MAX_LINE_TOKENS = (
    5000  # the longest line every metric is measured bounded on (bench/worst_lines.py): no task may set more
)


@dataclass(frozen=True)
class Limits:
    """Tokens are whitespace-separated; characters are Unicode code points. A line may be
    a whole essay (MultiGEC-2025: UA-GEC's test essays have up to 1,741 tokens); every
    metric is bounded at 5,000 (``bench/worst_lines.py``)."""

    line_tokens: int = MAX_LINE_TOKENS
    line_chars: int = 50_000
    file_tokens: int = 250_000
    file_chars: int = 2_500_000


DEFAULT_LIMITS = Limits()


class LimitCheck:
    """Counts one file's tokens and characters line by line, reporting each line over a
    per-line limit and the line at which a per-file total is first exceeded."""

    def __init__(self, limits: Limits, problems: ProblemCollector):
        self.limits = limits
        self.problems = problems
        self.tokens = 0
        self.chars = 0
        self.reported_file = False

    def line(self, number: int, n_tokens: int, n_chars: int, what: str = "") -> None:
        """Check one line; ``what`` names the part whose tokens count ("the correction")."""
        limits = self.limits
        if n_tokens > limits.line_tokens:
            self.problems.add(
                number, f"{what or 'the line'} has {n_tokens} tokens, over the limit of {limits.line_tokens} per line"
            )
        if n_chars > limits.line_chars:
            self.problems.add(
                number, f"the line has {n_chars} characters, over the limit of {limits.line_chars} per line"
            )
        self.add_to_file(number, n_tokens, n_chars)

    def add_to_file(self, number: int, n_tokens: int, n_chars: int) -> None:
        self.tokens += n_tokens
        self.chars += n_chars
        if self.reported_file:
            return
        if self.tokens > self.limits.file_tokens:
            self.problems.add(
                number,
                f"the file reaches {self.tokens} tokens here, over the limit of {self.limits.file_tokens} per file",
            )
            self.reported_file = True
        elif self.chars > self.limits.file_chars:
            self.problems.add(
                number,
                f"the file reaches {self.chars} characters here, over the limit of {self.limits.file_chars} per file",
            )
            self.reported_file = True
