"""A body is text in an encoding a browser sends, or a 415 before anything decodes it.

Python's codec registry holds compressors and transforms beside the text encodings, and
Django and DRF decoded a body with whatever ``charset`` its ``Content-Type`` named:
``application/json; charset=bz2`` made 535 anonymous bytes cost a worker 12.3 s and
1,350 MB at the token endpoint, ``charset=rot13`` JSON and ``charset=bz2`` forms and
multipart bodies were 500s, and so was a GET with such a type and a query string."""

from __future__ import annotations

import bz2
import zlib
from wsgiref.util import setup_testing_defaults

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.exceptions import UnsupportedMediaType

from leaderboard.api.parsers import BoundedFormParser, BoundedJSONParser
from leaderboard.charsets import refusal

pytestmark = pytest.mark.django_db
TOKEN = "/api/auth/token/"
NOT_TEXT = ["bz2", "zlib", "rot13", "base64", "hex", "uu", "quopri", "utf-7", "utf-16", "no-such-charset"]
BROWSERS = ["utf-8", "UTF-8", "utf8", "us-ascii", "iso-8859-1", "latin-1", "windows-1252"]


def bomb(codec: str) -> bytes:
    """A small body that unpacks to a large one in ``codec``."""
    inner = b'{"username": "' + b"a" * 50_000_000 + b'", "password": "x"}'
    return bz2.compress(inner) if codec == "bz2" else zlib.compress(inner, 9)


@pytest.mark.parametrize("codec", ["bz2", "zlib"])
def test_a_compressed_json_body_is_a_415_before_it_is_unpacked(codec):
    body = bomb(codec)
    answer = Client().generic("POST", TOKEN, body, content_type=f"application/json; charset={codec}")
    assert answer.status_code == 415, answer.content[:300]
    assert codec in answer.json()["errors"][0]["message"]


@pytest.mark.parametrize("charset", NOT_TEXT)
@pytest.mark.parametrize(
    "content_type", ["application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b"]
)
def test_every_body_in_a_charset_that_is_no_browser_text_is_a_415(charset, content_type):
    answer = Client().generic("POST", TOKEN, b'{"username": "a"}', content_type=f"{content_type}; charset={charset}")
    assert answer.status_code == 415, answer.content[:300]


@pytest.mark.parametrize("path", ["/api/tasks/", "/tasks/", "/accounts/login/"])
def test_a_get_with_such_a_charset_and_a_query_is_a_415_not_a_500(path):
    """Django builds the request's GET with the charset before any middleware runs: the
    site's WSGI application (gunicorn's, runserver's) refuses it in front of Django."""
    from leaderboard.wsgi import application

    environ = {"PATH_INFO": path, "QUERY_STRING": "page=2", "CONTENT_TYPE": "application/json; charset=bz2"}
    setup_testing_defaults(environ)
    started: list[str] = []
    body = b"".join(application(environ, lambda status, headers: started.append(status)))
    assert started == ["415 Unsupported Media Type"] and b"bz2" in body


def test_a_form_in_such_a_charset_is_a_415_on_the_site():
    answer = Client().generic(
        "POST",
        "/accounts/login/",
        bz2.compress(b"username=a&password=b"),
        content_type="application/x-www-form-urlencoded; charset=bz2",
    )
    assert answer.status_code == 415 and b"charset" in answer.content


@pytest.mark.parametrize("charset", BROWSERS)
def test_what_browsers_send_is_read(charset):
    User.objects.create_user("ann", password="pw")
    answer = Client().generic(
        "POST", TOKEN, b'{"username": "ann", "password": "pw"}', content_type=f"application/json; charset={charset}"
    )
    assert answer.status_code == 200, answer.content
    assert refusal(charset) is None


@pytest.mark.parametrize("parser", [BoundedJSONParser(), BoundedFormParser()])
def test_the_api_parsers_refuse_such_a_charset_themselves(parser):
    class Stream:
        def read(self, *_):
            raise AssertionError("the body was read")

    with pytest.raises(UnsupportedMediaType):
        parser.parse(Stream(), "application/json", {"encoding": "bz2", "request": None})
