"""A refusal a service raises for a reason the user can act on, carrying the HTTP status a
page and the API both answer it with: the mapping from error to status is written once,
on the error, not in each view (the upload page and ``POST .../submissions/`` alike).
The API answers every one in ``leaderboard.api.errors.exception_handler``."""

from __future__ import annotations


class Refusal(Exception):
    """Refused as asked; the message says why and what to do. Subclasses set ``status``.

    A refusal of several problems (a judgment with a wrong rank and a missing one) is
    raised with the list: ``problems`` names each, the message joins them."""

    status: int = 400

    def __init__(self, problems: str | list[str]):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("; ".join(self.problems))
