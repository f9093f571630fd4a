"""The insight pages in headless Chromium: expected systems and colours on a small task."""

import re

import pytest

from tests.conftest import browser_login, build_insight_task, ensure_cleme2_results

pytestmark = pytest.mark.browser
LINES = 12


@pytest.fixture
def site(live_server, chromium):
    data = build_insight_task("browser", lines=LINES)
    ensure_cleme2_results(data["submissions"].values())
    context = chromium.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield live_server.url, page, data
    context.close()


def rgb(page, selector):
    return page.eval_on_selector(selector, "e => getComputedStyle(e).backgroundColor")


def test_leaderboard_shows_systems_baseline_and_tie_groups(site):
    url, page, _ = site
    page.goto(f"{url}/tasks/browser/")
    systems = page.locator("#leaderboard tbody tr td:nth-child(4)").all_inner_texts()
    assert {s.replace(" (baseline)", "") for s in systems} == {"T5", "BART", "GECToR-BERT", "INPUT"}
    assert page.eval_on_selector("#leaderboard tr.baseline td", "e => getComputedStyle(e).fontStyle") == "italic"
    assert page.locator("#ties-note").inner_text().count("seed 12345") == 1
    page.select_option("select[name=metric]", "gotoscorer.f")
    page.wait_for_url(re.compile(r"metric=gotoscorer.f"))
    assert page.locator("th.sorted").inner_text() == "GTS F"
    assert page.locator("th.sorted").get_attribute("title") == "ranked by GTS F"
    page.screenshot(path="/tmp/browser_leaderboard.png", full_page=True)


def test_per_type_comparison_shows_bars_side_by_side(site):
    url, page, data = site
    subs = data["submissions"]
    page.goto(f"{url}/tasks/browser/per-type/?systems={subs['T5'].pk}&systems={subs['BART'].pk}")
    header = page.locator("#per-type thead").inner_text()
    assert "alice/T5" in header and "bob/BART" in header and "GECToR" not in header
    widths = page.eval_on_selector_all(
        "#per-type .bar:not(.det)", "bars => bars.map(b => b.getBoundingClientRect().width)"
    )
    assert widths and max(widths) > 10
    assert rgb(page, "#per-type .bar") == "rgb(74, 120, 194)"
    page.screenshot(path="/tmp/browser_per_type.png", full_page=True)


def test_heat_map_colours_hard_chunks_deep_red(site):
    url, page, data = site
    browser_login(page, url, data["organizer"].username, "pw")
    page.goto(f"{url}/tasks/browser/difficulty/")
    colours = page.eval_on_selector_all(
        "#sentences .edit", "es => es.map(e => [getComputedStyle(e).backgroundColor, +e.dataset.weight])"
    )
    assert colours
    for colour, weight in colours:
        r, g, b = map(int, re.findall(r"\d+", colour)[:3])
        assert r >= g and r >= b  # a shade of red
        if weight == 1.0:
            assert r < 200 and g < 40  # deep red where no system got it
    hardest = [
        float(re.search(r"· (\d\.\d\d)", text).group(1))
        for text in page.locator("#sentences .sentence").all_inner_texts()
    ]
    assert hardest[0] == max(hardest)  # hardest first
    assert page.locator("#difficulty-table tbody tr").count() > 1
    page.screenshot(path="/tmp/browser_heatmap.png", full_page=True)


def test_cleme2_viewer_colours_chunks(site):
    url, page, data = site
    browser_login(page, url, "carol", "pw-carol")  # her system gets chunks right in the first sentences
    page.goto(f"{url}/tasks/browser/cleme2/")
    assert {"alice/T5", "bob/BART", "carol/GECToR-BERT"} <= set(
        page.locator("#cleme2-bars tbody td:first-child").all_inner_texts()
    )
    assert rgb(page, "#cleme2-bars .stack .hit") == "rgb(143, 209, 158)"
    page.screenshot(path="/tmp/browser_cleme2.png", full_page=True)
    page.click("#cleme2-bars a")  # carol's own system: the only link she has
    page.wait_for_selector("#sentences .sentence")
    assert rgb(page, "#sentences [data-class=TP]") == "rgb(143, 209, 158)"
    classes = set(page.eval_on_selector_all("#sentences [data-class]", "es => es.map(e => e.dataset.class)"))
    assert "TP" in classes and classes <= {"TP", "FP_ne", "FP_un", "FN", ""}
    page.screenshot(path="/tmp/browser_cleme2_sentences.png", full_page=True)
