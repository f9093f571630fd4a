"""Requests a client got wrong, answered once at the boundary: a malformed query
parameter is a 400 (:class:`leaderboard.params.BadParameter`, raised wherever a view
reads one), an oversized upload a 413 (:mod:`leaderboard.uploads`). JSON under
``/api/`` in the API's error shape (docs/contracts.md section 3), a page elsewhere."""
from __future__ import annotations

import json

from django.http import HttpResponse
from django.template.loader import render_to_string

from .params import BadParameter


def client_error(request, status: int, message: str, valid: list[str] | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        body = {"errors": [{"line": 0, "message": message}], **({"valid": valid} if valid else {})}
        return HttpResponse(json.dumps(body), status=status, content_type="application/json")
    html = render_to_string("leaderboard/client_error.html", {"status": status, "message": message, "valid": valid or []}, request=request)
    return HttpResponse(html, status=status)


class ClientErrors:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, BadParameter):
            return client_error(request, 400, str(exception), exception.valid)
        return None
