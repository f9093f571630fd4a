"""The annotator's rating screen and the organizer's rating page in headless Chromium,
at 1280 and 390 px, under the site's Content-Security-Policy (a page that needed an
inline script would log a violation). The screen shows the guidelines first, marks the
practice screen, labels the scale's points, shows the texts as written (no space before a
full stop), keeps the change marks off until asked and then marks every output alike, takes
a skip with its comment, and times every screen; the organizer's page lists the
invitations with the numbers Reassign asks for, the skipped screen and its comment, and
the same screen counts in every table."""

import re

import pytest
from django.contrib.auth.models import User

from leaderboard.models import Assignment, Invitation
from tests.campaigns.support import accept_invitations
from tests.conftest import browser_login, build_insight_task
from tests.support.waits import page_holds

pytestmark = pytest.mark.browser
SCALES = [{"name": "fluency", "min": 1, "max": 4, "labels": {"1": "incomprehensible", "4": "native-like"}}]
GUIDELINES = "# How to rate\n\nRead each text **whole** before rating it."


def watch_policy(page, problems: list) -> None:
    page.on("console", lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: problems.append(str(e)))


def wait_for_screen(page, counted: int) -> None:
    page.wait_for_selector("#screen:not([hidden]) .output")
    page_holds(page, f"document.getElementById('progress-text').textContent.startsWith('{counted} /')")


def rate_screen(page, value: int) -> None:
    for scale in page.locator(".scale").all():
        scale.locator(f'button[data-value="{value}"]').click()
    page.click("#submit")


def check_screen(page) -> None:
    """Labels on the points, texts as written, marks off and then alike in every output."""
    assert page.locator('.scale button[data-value="4"] .point-label').first.inner_text() == "native-like"
    texts = [t.inner_text() for t in page.locator(".output .text").all()]
    assert len(texts) == 2 and all(not re.search(r" [.,;:!?]", t) for t in texts), texts
    assert page.locator("#judge.changes-off").count() == 1 and not page.locator("#changes").is_checked()
    page.check("#changes")
    assert page.locator("#judge.changes-off").count() == 0
    marks = [o.locator("mark").count() for o in page.locator(".output").all()]
    assert len(set(marks)) == 1, marks  # the uncorrected output is marked as often as the others
    page.uncheck("#changes")


def test_rating_screen_and_page_at_1280_and_390(live_server, chromium):
    from leaderboard.campaigns.services.create import CampaignSettings, create_campaign

    data = build_insight_task("rate-screen", lines=6)
    for name in ("wide", "narrow"):
        User.objects.create_user(name, email=f"{name}@example.org", password="pw-" + name)
    organizer = data["organizer"]
    organizer.set_password("pw-organizer")
    organizer.save()
    campaign = create_campaign(
        data["task"],
        organizer,
        CampaignSettings(
            name="rated",
            annotators=["wide", "narrow"],
            screens_per_annotator=3,
            outputs_per_screen=2,
            redundancy=2,
            controls=0,
            mode="rating",
            scales=SCALES,
            guidelines=GUIDELINES,
            practice=1,
        ),
    )
    accept_invitations(campaign)
    campaign.refresh_from_db()
    assert campaign.status == "ready", campaign.message
    problems: list = []

    desk = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watch_policy(desk, problems)
    browser_login(desk, live_server.url, "wide", "pw-wide")
    desk.goto(f"{live_server.url}/tasks/rate-screen/campaigns/rated/judge/")
    assert desk.locator("#guidelines h1").inner_text() == "How to rate" and desk.locator("#screen").is_hidden()
    desk.click("#start")
    wait_for_screen(desk, 0)
    assert desk.locator("#practice").is_visible()
    check_screen(desk)
    desk.screenshot(path="/tmp/browser_rating_screen_1280.png", full_page=True)
    rate_screen(desk, 4)  # the practice screen: it counts for nothing, so the progress stays at 0
    desk.wait_for_selector("#practice", state="hidden")
    wait_for_screen(desk, 0)
    desk.click("#skip")
    desk.fill("#skip-comment", "zqv the two texts are cut off")
    desk.click("#skip-send")
    wait_for_screen(desk, 1)
    rate_screen(desk, 3)
    wait_for_screen(desk, 2)
    rate_screen(desk, 3)
    desk.wait_for_selector("#done:not([hidden])")
    wide = User.objects.get(username="wide")
    mine = Assignment.objects.filter(campaign=campaign, annotator=wide)
    assert mine.filter(seconds__isnull=True).count() == 0 and mine.filter(seconds__gt=0).count() == mine.count()
    assert mine.get(skipped=True).comment == "zqv the two texts are cut off"

    phone = chromium.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    ).new_page()
    watch_policy(phone, problems)
    browser_login(phone, live_server.url, "narrow", "pw-narrow")
    phone.goto(f"{live_server.url}/tasks/rate-screen/campaigns/rated/judge/")
    phone.click("#start")
    wait_for_screen(phone, 0)
    check_screen(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.locator(".scale button").first.bounding_box()["height"] >= 44
    phone.screenshot(path="/tmp/browser_rating_screen_390.png", full_page=True)
    rate_screen(phone, 2)  # the practice screen; the rest stays open for the counts below
    phone.wait_for_selector("#practice", state="hidden")

    for width in (1280, 390):
        boss = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
        watch_policy(boss, problems)
        browser_login(boss, live_server.url, organizer.username, "pw-organizer")
        boss.goto(f"{live_server.url}/tasks/rate-screen/campaigns/rated/")
        boss.wait_for_selector('#campaign-state[data-up-to-date="1"]', timeout=120_000)
        boss.reload()
        invitations = boss.locator("#invitation-list tbody tr[data-invitation]")
        assert invitations.count() == 2
        ids = {i.pk for i in Invitation.objects.filter(campaign=campaign)}
        assert {int(r.get_attribute("data-invitation")) for r in invitations.all()} == ids
        assert "zqv the two texts are cut off" in boss.locator("#skipped").inner_text()
        for user in ("wide", "narrow"):  # one count of a queue, in both tables
            row = boss.locator(f"#invitation-list tr:has-text('{user}') td").nth(3).inner_text()
            if boss.locator(f"#annotators tr[data-user='{user}']").count():  # listed once their ratings count
                progress = boss.locator(f"#annotators tr[data-user='{user}'] td").nth(1).inner_text()
                assert row == progress.strip(), (user, row, progress)
        assert boss.locator("#invitation-list tr:has-text('wide') td").nth(3).inner_text() == "3/3"
        assert boss.locator("#invitation-list tr:has-text('narrow') td").nth(3).inner_text() == "0/3"
        if width == 390:
            assert boss.evaluate("document.documentElement.scrollWidth") <= 390
        boss.screenshot(path=f"/tmp/browser_rating_page_{width}.png", full_page=True)
    assert problems == []
