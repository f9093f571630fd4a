"""Mode rating in headless Chromium, on whole essays as MultiGEC-2025 rated them: one
corrected essay per screen, rated for grammaticality and fluency from 1 to 4. At 1280 px
an annotator rates with the mouse; at 390 px another rates with the keyboard, and the
essay reads as text should on a phone (no sideways scrolling, a body-sized font, room
between lines, the whole width used, buttons a thumb can hit, the submit button in view
while reading). What is stored is exactly what was rated, and the organizer's page shows
the figures per system and scale, at 390 px too."""

import pytest
from django.contrib.auth.models import User

import tests.conftest as conftest
from leaderboard.models import Assignment, Judgment
from tests.campaigns.support import accept_invitations
from tests.conftest import browser_login, build_insight_task
from tests.support.waits import page_holds

pytestmark = pytest.mark.browser
SENTENCES_PER_ESSAY = 6
ESSAYS = 4
SCALES = [{"name": "grammaticality", "min": 1, "max": 4}, {"name": "fluency", "min": 1, "max": 4}]


def essays_of(head):
    """``insight_head`` with every SENTENCES_PER_ESSAY lines joined into one: an essay a line."""

    def essay_head(path, lines=ESSAYS):
        sentences = head(path, lines * SENTENCES_PER_ESSAY).splitlines()
        step = SENTENCES_PER_ESSAY
        return "".join(" ".join(sentences[i : i + step]) + "\n" for i in range(0, len(sentences), step))

    return essay_head


def pending(user):
    return Assignment.objects.filter(annotator=user, judged=False).select_related("screen").order_by("position").first()


def wait_for_screen(page, done: int) -> None:
    page.wait_for_selector("#screen:not([hidden]) .output")
    page_holds(page, f"document.getElementById('progress-text').textContent.startsWith('{done} /')")


def values_for(screen, seed: int) -> dict:
    return {
        o["key"]: {s["name"]: 1 + (len(o["edits"]) + seed + k) % 4 for k, s in enumerate(SCALES)}
        for o in screen.outputs
    }


def rate_with_mouse(page, user) -> dict:
    given = {}
    for done in range(ESSAYS):
        wait_for_screen(page, done)
        assignment = pending(user)
        values = values_for(assignment.screen, done)
        for key, scales in values.items():
            for scale, value in scales.items():
                assert page.locator("#submit").is_disabled()
                page.click(f'.scale[data-key="{key}"][data-scale="{scale}"] button[data-value="{value}"]')
        given[assignment.pk] = values
        page.click("#submit")
    page.wait_for_selector("#done:not([hidden])")
    return given


def check_reads_well(page) -> None:
    """An essay on a phone: nothing wider than the screen, body-sized text with room between
    lines across the width, buttons a thumb can hit, the submit button in view while reading."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    text = page.locator(".output .text").first
    style = text.evaluate(
        "n => { const s = getComputedStyle(n); return [parseFloat(s.fontSize), parseFloat(s.lineHeight)]; }"
    )
    assert style[0] >= 15.5 and style[1] >= 1.4 * style[0], style
    box = text.bounding_box()
    assert box["width"] >= 300 and box["x"] + box["width"] <= 390, box
    assert len(text.inner_text()) > 300  # a whole essay, not a sentence
    assert page.locator(".scale button").first.bounding_box()["height"] >= 44
    page.evaluate("window.scrollTo(0, 0)")
    submit = page.locator("#submit").bounding_box()
    assert submit["y"] + submit["height"] <= 844, submit  # the sticky bar, at the foot of the screen


def rate_with_keyboard(page, user) -> dict:
    given = {}
    for done in range(ESSAYS):
        wait_for_screen(page, done)
        if done == 0:
            check_reads_well(page)
            page.screenshot(path="/tmp/browser_campaign_rating_390.png", full_page=True)
        assignment = pending(user)
        values = values_for(assignment.screen, done + 1)
        for scales in values.values():
            for scale in SCALES:
                page.keyboard.press(str(scales[scale["name"]]))  # rates the focused scale, then the next
        assert page.locator("#submit").is_enabled()
        given[assignment.pk] = values
        page.keyboard.press("Enter")
    page.wait_for_selector("#done:not([hidden])")
    return given


def test_essays_rated_at_1280_and_390(live_server, chromium, monkeypatch):
    from leaderboard.campaigns.services.create import CampaignSettings, create_campaign

    monkeypatch.setattr(conftest, "insight_head", essays_of(conftest.insight_head))
    data = build_insight_task("essay-test", lines=ESSAYS)
    for name in ("wide", "narrow"):
        User.objects.create_user(name, email=f"{name}@example.org", password="pw-" + name)
    organizer = data["organizer"]
    organizer.set_password("pw-organizer")
    organizer.save()
    campaign = create_campaign(
        data["task"],
        organizer,
        CampaignSettings(
            name="essays",
            annotators=["wide", "narrow"],
            screens_per_annotator=ESSAYS,
            outputs_per_screen=1,
            redundancy=2,
            mode="rating",
            scales=SCALES,
        ),
    )  # prepared inline as it commits
    accept_invitations(campaign)
    campaign.refresh_from_db()
    assert campaign.status == "ready", campaign.message

    desk = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    browser_login(desk, live_server.url, "wide", "pw-wide")
    desk.goto(f"{live_server.url}/tasks/essay-test/campaigns/essays/judge/")
    wait_for_screen(desk, 0)
    assert desk.locator(".output").count() == 1 and desk.locator(".scale").count() == 2
    desk.screenshot(path="/tmp/browser_campaign_rating_1280.png", full_page=True)
    given = rate_with_mouse(desk, User.objects.get(username="wide"))

    phone = chromium.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    ).new_page()
    browser_login(phone, live_server.url, "narrow", "pw-narrow")
    phone.goto(f"{live_server.url}/tasks/essay-test/campaigns/essays/judge/")
    given |= rate_with_keyboard(phone, User.objects.get(username="narrow"))

    stored = {j.assignment_id: j.ratings for j in Judgment.objects.filter(campaign=campaign)}
    assert stored == given

    boss = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    browser_login(boss, live_server.url, organizer.username, "pw-organizer")
    boss.goto(f"{live_server.url}/tasks/essay-test/campaigns/essays/")
    boss.wait_for_selector('#campaign-state[data-up-to-date="1"]', timeout=120_000)
    boss.reload()
    rows = boss.locator("#ratings tbody tr[data-system]")
    assert rows.count() >= 2
    assert boss.locator("#ratings tbody tr[data-system] td[data-cluster]").count() == 2 * rows.count()
    assert boss.locator("#annotators tr[data-trusted='1']").count() == 2
    assert boss.evaluate("document.documentElement.scrollWidth") <= 390
    boss.screenshot(path="/tmp/browser_campaign_rating_page_390.png", full_page=True)
