"""Redoc's page never asks a CDN for anything, its maker's logo included: the page's
Content-Security-Policy allows images from this server only."""

import pytest

pytestmark = pytest.mark.django_db


def test_redoc_allows_images_from_this_server_only(client):
    page = client.get("/api/redoc/").content.decode()
    assert '<meta http-equiv="Content-Security-Policy" content="img-src \'self\' data:">' in page
    assert "cdn.redoc.ly" not in page
