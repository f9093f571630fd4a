"""Per-type tables and heat maps per corpus on the three-corpus MultiGEC demo, in headless
Chromium at 1280 and 390 px: an anonymous visitor finds each
corpus's per-type table from the board and the phase's per-type page (ticking systems
shows every corpus's table), is never sent to a refusal, and is told until when the heat
maps are the organizers'; an organizer opens every corpus's heat map from the board.
No page scrolls sideways."""

import pytest
from django.contrib.auth.models import User

from leaderboard.management.commands.load_demo import MULTIGEC_SLUG, Command
from leaderboard.models import SharedTask
from tests.conftest import browser_login

pytestmark = pytest.mark.browser
CORPORA = ("cs-geccc", "is-iceec", "uk-ua-gec")


@pytest.fixture
def demo(live_server):
    Command().load_multigec()
    organizer = User.objects.create_user("olga", password="pw-olga")
    SharedTask.objects.get(slug=MULTIGEC_SLUG).organizers.add(organizer)
    return live_server.url


def no_sideways_scroll(page, width: int, where: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, where


def shot(page, name: str, width: int) -> None:
    page.screenshot(path=f"/tmp/corpus-insights-{name}-{width}.png", full_page=True)


@pytest.mark.parametrize("width", [1280, 390])
def test_per_type_and_heat_maps_per_corpus(demo, chromium, width):
    board = f"{demo}/tasks/{MULTIGEC_SLUG}/?phase=dev"
    visitor = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
    visitor.goto(board)
    for name in CORPORA:
        assert visitor.locator(f"#corpus-links [data-corpus={name}] a[data-link=per-type]").count() == 1
    assert visitor.locator("#corpus-links a[data-link=heatmap]").count() == 0
    assert "organizers only until the Development phase ends" in visitor.inner_text("#heatmaps-closed")
    no_sideways_scroll(visitor, width, "board")
    shot(visitor, "board-visitor", width)

    visitor.click("#corpus-links [data-corpus=uk-ua-gec] a[data-link=per-type]")  # one corpus's table
    visitor.wait_for_selector("#per-type tr[data-type]")
    assert "Development phase (uk-ua-gec corpus)" in visitor.inner_text("h2")
    no_sideways_scroll(visitor, width, "per-type of one corpus")
    shot(visitor, "per-type-uk", width)

    visitor.click("#corpus-links a[data-link=all-corpora]")  # every corpus, the board's uploads ticked
    visitor.wait_for_selector("section.corpus-types")
    for box in visitor.locator("#pick input[name=systems]").all():
        box.uncheck()
    visitor.locator("#pick input[name=systems]").nth(0).check()
    visitor.locator("#pick input[name=systems]").nth(1).check()
    visitor.click("#pick button")
    visitor.wait_for_load_state()
    assert "Pick one or more" not in visitor.inner_text("body")
    for name in CORPORA:
        table = visitor.locator(f"section#corpus-{name} table[data-table=per-type]")
        assert table.count() == 1, name
        assert table.locator("thead th[colspan='8']").count() == 2, name  # the two systems ticked
        assert table.locator("tbody tr[data-type]").count() > 0, name
    no_sideways_scroll(visitor, width, "per-type of every corpus")
    shot(visitor, "per-type-all", width)

    visitor.goto(board)  # a corpus heading of the board opens what the visitor may see, never a refusal
    if visitor.is_visible("#corpus-picker"):  # the board folds to one corpus at a time when wider than the page
        visitor.select_option("#corpus-shown", "is-iceec")
    visitor.click("#leaderboard th[data-corpus=is-iceec] a")
    visitor.wait_for_selector("#per-type tr[data-type]")
    visitor.context.close()

    organizer = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
    browser_login(organizer, demo, "olga", "pw-olga")
    organizer.goto(board)
    for name in CORPORA:
        organizer.click(f"#corpus-links [data-corpus={name}] a[data-link=heatmap]")
        organizer.wait_for_selector("#heatmap [data-version]")
        assert f"Development phase ({name} corpus)" in organizer.inner_text("h2")
        assert organizer.inner_text("#corpora b") == name
        no_sideways_scroll(organizer, width, f"heat map of {name}")
        shot(organizer, f"heatmap-{name}", width)
        organizer.goto(board)
    organizer.context.close()
