"""Every table at 390 px in headless Chromium: the page never scrolls sideways, and each
table's team (or type) and its score column are inside the viewport without scrolling;
my submissions and the organizer's phases are cards whose buttons are in view."""

import pytest

from tests.conftest import browser_login, build_insight_task, ensure_cleme2_results

pytestmark = pytest.mark.browser
WIDTH = 390


@pytest.fixture
def site(live_server):
    data = build_insight_task("phone", lines=10)
    ensure_cleme2_results(data["submissions"].values())
    return live_server.url, data


def phone(chromium, url, username, password):
    context = chromium.new_context(viewport={"width": WIDTH, "height": 844})
    page = context.new_page()
    browser_login(page, url, username, password)
    return page


def in_view(page, selector: str) -> dict:
    """The first match's box, and whether it lies inside the viewport's width."""
    box = page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, width: r.width}; }"
    )
    box["inside"] = box["width"] > 0 and box["left"] >= 0 and box["right"] <= WIDTH
    return box


def no_sideways_scroll(page, path):
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, path


PARTICIPANT_PAGES = {  # path: (the first column that names the row, the score column)
    "/tasks/phone/": ("#leaderboard tbody tr:not(.baseline) td:nth-child(3)", "#leaderboard tbody tr td.score"),
    "/tasks/phone/submissions/": ("#my-submissions tbody tr td:nth-child(2)", "#my-submissions tbody tr td.scores"),
    "/tasks/phone/per-type/": (
        "#per-type tbody tr[data-type] td:first-child",
        "#per-type tbody tr[data-type] td.score",
    ),
    "/tasks/phone/cleme2/": ("#cleme2-bars tbody td:first-child", "#cleme2-bars tbody td:nth-child(2)"),
}


def test_participant_tables_show_name_and_score(site, chromium):
    url, _ = site
    page = phone(chromium, url, "alice", "pw-alice")
    for path, selectors in PARTICIPANT_PAGES.items():
        page.goto(url + path)
        no_sideways_scroll(page, path)
        for selector in selectors:
            assert in_view(page, selector)["inside"], (path, selector, in_view(page, selector))
        page.screenshot(path=f"/tmp/phone{path.replace('/', '_')}390.png", full_page=True)
    page.goto(url + "/tasks/phone/submissions/")
    assert in_view(page, "#my-submissions td.actions button")["inside"]  # Withdraw… reachable
    page.context.close()


def test_organizer_phase_table_and_heat_map(site, chromium):
    url, data = site
    page = phone(chromium, url, data["organizer"].username, "pw")
    page.goto(url + "/tasks/phone/manage/")
    no_sideways_scroll(page, "manage")
    for selector in ("#phases td.state", "#phases td.results", "#phases td.actions button"):
        assert in_view(page, selector)["inside"], selector
    page.screenshot(path="/tmp/phone_manage_390.png", full_page=True)
    page.goto(url + "/tasks/phone/difficulty/")
    no_sideways_scroll(page, "difficulty")
    for selector in ("#difficulty-table tbody td:first-child", "#difficulty-table tbody td:nth-child(2)"):
        assert in_view(page, selector)["inside"], selector
    page.screenshot(path="/tmp/phone_heatmap_390.png", full_page=True)
    page.context.close()
