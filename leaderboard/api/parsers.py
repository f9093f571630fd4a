"""Request bodies the API parses itself, bounded before they are read whole.

DRF reads a JSON or form body straight from the request's stream, so Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` never applies to it, and the password throttle parses the
token endpoint's body before anything else: every such body is refused with a 413 when it
declares (or turns out to hold) more than ``GEC_MAX_JSON_BODY_BYTES``, and JSON nested
deeper than :data:`MAX_DEPTH` is a 400, never a ``RecursionError``. A multipart body to a
view that takes no file is held to the same limit by its declared length (Django's parser
would write a file part of any size to disk first); the uploads' multipart bodies are
Django's parser's alone, bounded by the upload limits. A charset that is not a text
encoding (``charset=bz2``, ``rot13``) is a 415 before a byte is read (:mod:`leaderboard.charsets`;
its middleware refuses such a request first, these parsers again).
"""

from __future__ import annotations

import codecs
from typing import Any

from django.conf import settings
from django.http import QueryDict
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError, UnsupportedMediaType
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.utils import json

from ..charsets import refusal

MAX_DEPTH = 32  # far above any body the API documents (a judgment's edits are 3 deep)


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"


def refuse_declared(parser_context: dict | None) -> None:
    """A 413 before anything is read when the declared length is over the limit."""
    limit = settings.GEC_MAX_JSON_BODY_BYTES
    request = (parser_context or {}).get("request")
    meta = getattr(request, "META", {})
    try:
        declared = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        raise BodyTooLarge(too_large(declared, limit))


def text_encoding(parser_context: dict | None) -> str:
    """The body's charset, a 415 unless it is a text encoding this server reads."""
    encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
    why = refusal(encoding)
    if why is not None:
        raise UnsupportedMediaType(encoding, detail=why)
    return encoding


def bounded_body(stream: Any, parser_context: dict | None) -> bytes:
    """The body's bytes, refused before reading when its declared length is over the
    limit or its charset is no text encoding, and read no further than one byte past the
    limit when it declares none or lies."""
    limit = settings.GEC_MAX_JSON_BODY_BYTES
    text_encoding(parser_context)
    refuse_declared(parser_context)
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise BodyTooLarge(too_large(len(data), limit))
    return data


def too_large(size: int, limit: int) -> str:
    return (
        f"the request body has {'more than ' if size == limit + 1 else ''}{size} bytes; "
        f"this server reads at most {limit} (GEC_MAX_JSON_BODY_BYTES)"
    )


def too_deep(value: dict | list, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays and objects nest deeper than ``limit`` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        data = bounded_body(stream, parser_context)
        encoding = text_encoding(parser_context)
        try:
            text = codecs.decode(data, encoding)
            value = json.loads(text) if self.strict else json.loads(text, parse_constant=None)
        except RecursionError:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels") from None
        except ValueError as error:  # a JSONDecodeError or a UnicodeDecodeError
            raise ParseError(f"JSON parse error - {str(error)[:200]}") from None
        if isinstance(value, (dict, list)) and too_deep(value):
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels")
        return value


class BoundedFormParser(FormParser):
    def parse(self, stream, media_type: str | None = None, parser_context: dict | None = None) -> QueryDict:
        data = bounded_body(stream, parser_context)
        return QueryDict(data, encoding=text_encoding(parser_context))


class BoundedMultiPartParser(MultiPartParser):
    """Form fields sent as multipart (``curl -F``, a test client) to a view that takes no file."""

    def parse(self, stream, media_type: str | None = None, parser_context: dict | None = None) -> Any:
        text_encoding(parser_context)
        refuse_declared(parser_context)
        return super().parse(stream, media_type, parser_context)


BOUNDED = (BoundedJSONParser, BoundedFormParser, BoundedMultiPartParser, MultiPartParser)
"""Every parser an API view may use (tests/api/test_api_body_bounds.py checks each view); plain
``MultiPartParser`` only where a file is uploaded."""
