"""/api/redoc/ in headless Chromium asks no other server for anything: Redoc's side menu
draws its maker's logo from cdn.redoc.ly, and the page's Content-Security-Policy stops
that request inside the browser (Chromium reports it failed with "csp")."""

import pytest

pytestmark = pytest.mark.browser


def test_redoc_requests_nothing_from_a_cdn(live_server, chromium):
    page = chromium.new_context().new_page()
    asked, stopped = [], {}
    page.on("request", lambda request: asked.append(request.url))
    page.on("requestfailed", lambda request: stopped.update({request.url: request.failure}))
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("text=API docs by Redocly", timeout=60_000)  # the side menu, where the logo is drawn
    page.wait_for_load_state("networkidle")  # the logo's request made and answered (refused)
    outside = [url for url in asked if not url.startswith((live_server.url, "data:", f"blob:{live_server.url}"))]
    assert all(stopped.get(url) == "csp" for url in outside), (outside, stopped)
