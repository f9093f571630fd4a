"""Request bodies in a text encoding only: a 415 before anything reads or decodes one.

Django decodes a request's form fields, and DRF its JSON and form bodies, with the
``charset`` of its ``Content-Type``, and Python's codec registry holds compressors and
transforms as well as text encodings: ``application/json; charset=bz2`` let 535 bytes
unpack to 1.3 GB in a worker, ``charset=rot13`` was a 500 (docs/security.md). A charset
is accepted only when :func:`codecs.lookup` finds a text encoding and it is one a browser
or an HTTP client really sends (:data:`ACCEPTED`); a request naming any other, whatever
its method, is refused in front of Django by :func:`guard` (``leaderboard/wsgi.py``: Django
itself builds a request's ``GET`` with that charset before any middleware runs, a 500), by
:class:`TextCharsetsOnly` (first in ``MIDDLEWARE``, for what reaches Django another way, as
the test client does) and by the API's own parsers.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable, Iterable

from django.http import HttpResponse
from django.utils.http import parse_header_parameters

# codecs.lookup(...).name of what browsers and HTTP clients send: utf-8 (and utf8, UTF-8),
# us-ascii/ascii, iso-8859-1/latin-1, windows-1252, iso-8859-15
ACCEPTED = frozenset({"utf-8", "ascii", "iso8859-1", "cp1252", "iso8859-15"})
SHOWN = "utf-8, us-ascii, iso-8859-1 (latin-1), windows-1252, iso-8859-15"


def refusal(charset: str | None) -> str | None:
    """Why a body in ``charset`` is refused; None when it is a text encoding we read (or none is named)."""
    if charset is None:
        return None
    shown = charset[:40]
    try:
        codec = codecs.lookup(charset)
    except (LookupError, ValueError, TypeError):
        return f"charset {shown!r} is unknown; send {SHOWN}"
    if not getattr(codec, "_is_text_encoding", True) or codec.name not in ACCEPTED:
        return f"charset {shown!r} is not accepted: bodies are text in {SHOWN}"
    return None


def charset_of(content_type: str) -> str | None:
    return parse_header_parameters(content_type or "")[1].get("charset")


def refused_body(path: str, why: str) -> tuple[bytes, str]:
    """The 415's body and type, in the API's error shape under ``/api/``."""
    if path.startswith("/api/"):
        return json.dumps({"errors": [{"line": 0, "message": why}]}).encode(), "application/json"
    return f"415 Unsupported Media Type: {why}\n".encode(), "text/plain; charset=utf-8"


def guard(application: Callable) -> Callable:
    """The WSGI application, behind a 415 for a request whose charset :func:`refusal` refuses."""

    def guarded(environ: dict, start_response: Callable) -> Iterable[bytes]:
        why = refusal(charset_of(environ.get("CONTENT_TYPE", "")))
        if why is None:
            return application(environ, start_response)
        body, content_type = refused_body(environ.get("PATH_INFO", ""), why)
        start_response(
            "415 Unsupported Media Type", [("Content-Type", content_type), ("Content-Length", str(len(body)))]
        )
        return [body]

    return guarded


class TextCharsetsOnly:
    """Middleware: a 415 for any request whose ``Content-Type`` names a charset outside
    :data:`ACCEPTED`, before a view, a middleware or Django's ``request.GET`` decodes with it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        why = refusal((getattr(request, "content_params", None) or {}).get("charset"))
        if why is not None:  # a plain body: the site's page would read the session, the user, the body
            body, content_type = refused_body(request.path, why)
            return HttpResponse(body, status=415, content_type=content_type)
        return self.get_response(request)
