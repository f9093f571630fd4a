"""DRF's refusals in the API's shapes: a 400 (a body DRF could not parse or a serializer
refused) as ``{"errors": [{"line": 0, "message": ...}]}``, as the upload's own problems and
:mod:`leaderboard.errors` answer; every other refusal keeps DRF's ``{"detail": ...}``.

An answer is bounded whatever the body was: at most :data:`MAX_MESSAGES` messages of at
most :data:`MAX_MESSAGE_CHARS` characters each (a body of 100,000 bad values is refused in
a few lines, the count of the rest said). A service's :class:`leaderboard.refusals.Refusal`
is answered here, once, with the status it carries: a 400 or 409 (the request's content,
or the state it meets: a screen judged already, terms changed since read) lists its
problems in the ``errors`` shape; a 403 or 404 keeps ``detail``."""

from collections.abc import Iterable

from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ..refusals import Refusal

MAX_MESSAGES = 20
MAX_MESSAGE_CHARS = 500
LISTED = {status.HTTP_400_BAD_REQUEST, status.HTTP_409_CONFLICT}  # refusals answered as ``errors``


def bounded(lines: Iterable[str]) -> list[str]:
    """The first :data:`MAX_MESSAGES` messages, each cut to :data:`MAX_MESSAGE_CHARS`, and
    how many more there were."""
    lines = list(lines)
    kept = [m if len(m) <= MAX_MESSAGE_CHARS else m[: MAX_MESSAGE_CHARS - 3] + "..." for m in lines[:MAX_MESSAGES]]
    if len(lines) > MAX_MESSAGES:
        kept.append(f"... and {len(lines) - MAX_MESSAGES} more problems")
    return kept


def messages(detail, field: str = "") -> list[str]:
    """A serializer's errors, flattened to ``field: message`` lines (nested fields dotted)."""
    if isinstance(detail, dict):
        return [
            m
            for name, inner in detail.items()
            for m in messages(
                inner, field if name == "non_field_errors" else ".".join(filter(None, (field, str(name))))
            )
        ]
    if isinstance(detail, list):
        return [m for inner in detail for m in messages(inner, field)]
    return [f"{field}: {detail}" if field else str(detail)]


def exception_handler(exc, context):
    if isinstance(exc, Refusal) and exc.status in LISTED:  # the request's content was at fault: each problem
        return Response({"errors": [{"line": 0, "message": m} for m in bounded(exc.problems)]}, status=exc.status)
    if isinstance(exc, Refusal):  # not allowed (403), not there (404): DRF's one ``detail``
        refused = APIException(str(exc))
        refused.status_code = exc.status
        exc = refused
    response = drf_exception_handler(exc, context)
    if response is not None and response.status_code == status.HTTP_400_BAD_REQUEST:
        detail = exc.detail if isinstance(exc, ValidationError) else response.data.get("detail", response.data)
        response.data = {"errors": [{"line": 0, "message": m} for m in bounded(messages(detail))]}
    elif response is not None and isinstance(response.data, dict) and isinstance(response.data.get("detail"), str):
        response.data["detail"] = bounded([response.data["detail"]])[0]
    return response
