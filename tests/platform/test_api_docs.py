"""The API documentation at /api/docs/ (Swagger UI) and /api/redoc/ works offline: its
scripts come from this server, never from a CDN."""

import re

import pytest

pytestmark = (
    pytest.mark.django_db
)  # an anonymous API request takes a token from its rate bucket (leaderboard/throttling.py)


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_load_their_assets_from_this_server(client, url):
    page = client.get(url).content.decode()
    assert not re.findall(r'(?:src|href)="(?:https?:)?//', page)  # nothing from another server (fonts included)
    assets = re.findall(r'(?:src|href)="([^"]+\.(?:js|css))"', page)
    assert assets, page[:500]
    for asset in assets:
        assert asset.startswith("/static/"), asset
        assert client.get(asset).status_code == 200, asset


def test_swagger_points_at_the_schema(client):
    """Swagger UI's settings are a script of their own (?script), as the pages' policy allows no inline script."""
    page = client.get("/api/docs/").content.decode()
    assert '<script src="/api/docs/?script=">' in page
    assert "/api/schema/" in client.get("/api/docs/?script=").content.decode()


def test_the_chart_library_is_served_by_the_app(client):
    response = client.get("/static/vendor/chart.umd.min.js")
    assert response.status_code == 200
    assert b"Chart.js v4" in b"".join(response.streaming_content)[:200]


def test_the_browsable_api_links_and_loads_only_from_this_server(client):
    page = client.get("/api/tasks/", HTTP_ACCEPT="text/html").content.decode()
    assert "GEC leaderboard API" in page
    assert not re.findall(r'(?:src|href)=["\'](?:https?:)?//', page)
