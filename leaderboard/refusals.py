"""A refusal a service raises for a reason the user can act on, carrying the HTTP status a
page and the API both answer it with: the mapping from error to status is written once,
on the error, not in each view (the upload page and ``POST .../submissions/`` alike)."""

from __future__ import annotations


class Refusal(Exception):
    """Refused as asked; the message says why and what to do. Subclasses set ``status``."""

    status: int = 400
