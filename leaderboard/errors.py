"""Requests a client got wrong, answered once at the boundary: a malformed query
parameter is a 400 (:class:`leaderboard.params.BadParameter`, raised wherever a view
reads one), a service's :class:`leaderboard.refusals.Refusal` its own status, an
oversized upload a 413 (:mod:`leaderboard.uploads`), a URL no route
matches a 404. JSON under
``/api/`` in the API's error shape (docs/contracts.md section 3), a page elsewhere."""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.views.defaults import page_not_found

from .params import BadParameter
from .refusals import Refusal


def client_error(request, status: int, message: str, valid: list[str] | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        body = {"errors": [{"line": 0, "message": message}], **({"valid": valid} if valid else {})}
        return HttpResponse(json.dumps(body), status=status, content_type="application/json")
    html = render_to_string(
        "leaderboard/client_error.html", {"status": status, "message": message, "valid": valid or []}, request=request
    )
    return HttpResponse(html, status=status)


def not_found(request, exception) -> HttpResponse:
    """Django's 404 (``handler404``): under ``/api/`` in DRF's shape, ``{"detail": ...}``, so
    a client of the API never gets the site's page; elsewhere that page."""
    if request.path.startswith("/api/"):
        body = {"detail": f"no such API URL: {request.path} (the API is described at /api/schema/)"}
        return HttpResponse(json.dumps(body), status=404, content_type="application/json")
    return page_not_found(request, exception)


class ClientErrors:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, BadParameter):
            return client_error(request, 400, str(exception), exception.valid)
        if isinstance(exception, Refusal):  # a service's refusal, with the status it carries
            return client_error(request, exception.status, str(exception))
        return None
