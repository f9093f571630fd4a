"""A server error is logged with DEBUG off (with DEBUG=0 Django logged
nothing, its console handler being DEBUG-only). A view that fails, served through the
whole handler stack, must leave its traceback on the console handler."""

import io
import logging

import pytest
from django.test import Client
from django.urls import path

from leaderboard import urls as site_urls


def failing_view(request):
    raise RuntimeError("zqv the view failed")


urlpatterns = [path("fails/", failing_view), *site_urls.urlpatterns]  # the site's, for the 500 page's links


@pytest.mark.urls(__name__)
def test_a_500_is_logged_with_its_traceback(settings):
    settings.DEBUG = False
    handlers = logging.getLogger("django.request").handlers
    assert handlers, "django.request has no handler of its own"
    captured = io.StringIO()
    streams = [handler.setStream(captured) for handler in handlers]
    try:
        response = Client(raise_request_exception=False).get("/fails/")
    finally:
        for handler, stream in zip(handlers, streams):
            handler.setStream(stream)
    assert response.status_code == 500
    assert "Internal Server Error: /fails/" in captured.getvalue() and "zqv the view failed" in captured.getvalue()
