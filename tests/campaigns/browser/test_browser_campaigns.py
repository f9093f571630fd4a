"""A campaign end to end in headless Chromium: an organizer creates a campaign on the page, two
annotators judge through the judging page (one with the keyboard, one with the mouse,
the second ranking every control above its original), and the campaign page shows the
second flagged, the ranking with its clusters and ranges, and every metric's
correlation; once published, the board has the human column. The worker jobs run in the
embedded mode's background thread, as on a bare machine, so every wait is a real one.
The judging page is also checked at 390 px: nothing wider than the screen."""

import pytest
from django.contrib.auth.models import User

from leaderboard.models import Assignment
from tests.campaigns.support import careful_ranks, careless_ranks
from tests.conftest import browser_login, build_insight_task
from tests.support.waits import page_holds

pytestmark = pytest.mark.browser
SCREENS = 12


def make_annotator(name):
    return User.objects.create_user(name, email=f"{name}@example.org", password="pw-" + name)


def pending_screen(user):
    """The screen the page shows: the user's first unjudged assignment (what next/ answers)."""
    return (
        Assignment.objects.filter(annotator=user, judged=False)
        .select_related("screen")
        .order_by("position")
        .first()
        .screen
    )


def judge_on_page(page, user, ranks_of, *, keyboard: bool):
    for done in range(SCREENS):
        page.wait_for_selector("#screen:not([hidden]) .output")
        page_holds(page, f"document.getElementById('progress-text').textContent.startsWith('{done} /')")
        ranks = ranks_of(pending_screen(user))
        if keyboard:
            for key, rank in ranks.items():
                page.keyboard.press(key.lower())
                page.keyboard.press(str(rank))
            page.keyboard.press("Enter")
        else:
            for key, rank in ranks.items():
                page.click(f'.output[data-key="{key}"] .ranks button[data-rank="{rank}"]')
            page.click("#submit")
    page.wait_for_selector("#done:not([hidden])")


def test_campaign_from_creation_to_the_board(live_server, chromium, settings):
    data = build_insight_task("people-test")  # scored inline (sync) before the thread takes over
    settings.GEC_TASK_MODE = "thread"
    organizer = data["organizer"]
    organizer.set_password("pw-organizer")
    organizer.save()
    ann1, ann2 = make_annotator("ann1"), make_annotator("ann2")

    boss = chromium.new_context().new_page()
    browser_login(boss, live_server.url, organizer.username, "pw-organizer")
    boss.goto(f"{live_server.url}/tasks/people-test/")
    boss.click("text=Human evaluation")
    boss.fill("input[name=name]", "people")
    boss.fill("textarea[name=annotators]", "ann1\nann2@example.org")
    boss.fill("input[name=screens_per_annotator]", str(SCREENS))
    boss.fill("input[name=controls]", "0.5")
    boss.fill("input[name=redundancy]", "2")
    boss.click("#campaign-form button")
    boss.wait_for_selector("#campaign-state[data-status=ready]", timeout=120_000)  # the page follows the worker

    first = chromium.new_context().new_page()
    browser_login(first, live_server.url, "ann1", "pw-ann1")
    first.goto(f"{live_server.url}/tasks/people-test/campaigns/")
    first.click("text=accept or decline")  # nobody annotates before accepting
    first.click("#accept")
    judge_on_page(first, ann1, careful_ranks, keyboard=True)

    phone = chromium.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    ).new_page()
    browser_login(phone, live_server.url, "ann2", "pw-ann2")
    phone.goto(f"{live_server.url}/tasks/people-test/campaigns/")
    phone.click("text=accept or decline")  # invited by address: their own page lists it
    phone.click("#accept")
    phone.wait_for_selector("#screen:not([hidden]) .output")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path="/tmp/browser_campaign_judge_390.png", full_page=True)
    judge_on_page(phone, ann2, careless_ranks, keyboard=False)

    boss.goto(f"{live_server.url}/tasks/people-test/campaigns/people/")
    boss.wait_for_selector(
        '#campaign-state[data-up-to-date="1"]', timeout=120_000
    )  # ranked again after the last judgment
    boss.wait_for_selector('#annotators tr[data-user="ann2"][data-trusted="0"]')
    assert boss.locator('#annotators tr[data-user="ann1"][data-trusted="1"]').count() == 1
    assert "12/12" in boss.inner_text('#annotators tr[data-user="ann2"]')
    rows = boss.locator("#ranking tbody tr[data-system]")
    assert rows.count() >= 3
    assert all(
        boss.locator("#ranking tbody tr[data-system]").nth(k).get_attribute("data-cluster") for k in range(rows.count())
    )
    assert boss.locator("#correlations tbody tr[data-path]").count() >= 1
    boss.screenshot(path="/tmp/browser_campaign_page.png", full_page=True)

    boss.click("#publish")
    boss.goto(f"{live_server.url}/tasks/people-test/")
    assert "Human people" in boss.inner_text("#leaderboard thead")
    assert boss.locator('#leaderboard td[data-campaign="people"]').count() >= 3
    boss.screenshot(path="/tmp/browser_campaign_board.png", full_page=True)
