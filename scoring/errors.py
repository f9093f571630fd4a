"""User-facing input errors.

Every problem a user can cause in an input file is collected (up to a cap) with its line
number and raised once as :class:`InputError`, which the CLI, the REST API and the upload
form all catch at their boundary and show as is.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_PROBLEMS = 50


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file. ``line`` is 1-based; 0 means the whole file."""

    line: int
    message: str
    file: str = ""

    def __str__(self) -> str:
        where = f"{self.file}: " if self.file else ""
        if self.line:
            where += f"line {self.line}: "
        return where + self.message

    def as_dict(self) -> dict:
        return {"line": self.line, "message": self.message, **({"file": self.file} if self.file else {})}


class InputError(ValueError):
    """Bad user input: carries every :class:`Problem` found, each naming its line."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class ProblemCollector:
    """Gathers problems up to :data:`MAX_PROBLEMS`, then raises them all at once."""

    def __init__(self, file: str = "", cap: int = MAX_PROBLEMS):
        self.file = file
        self.cap = cap
        self.problems: list[Problem] = []
        self.truncated = 0

    def add(self, line: int, message: str) -> None:
        if len(self.problems) < self.cap:
            self.problems.append(Problem(line, message, self.file))
        else:
            self.truncated += 1

    def raise_if_any(self) -> None:
        if not self.problems:
            return
        problems = list(self.problems)
        if self.truncated:
            problems.append(Problem(0, f"... and {self.truncated} more problems", self.file))
        raise InputError(problems)
