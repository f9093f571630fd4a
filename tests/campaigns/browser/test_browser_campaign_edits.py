"""The campaign mode ``edits`` in headless Chromium: the judging page lists each output's
ERRANT edits, the annotator marks every one valid or invalid (keyboard: v / i; mouse: the
buttons) and ranks the outputs; the page will not submit a screen with an edit unmarked,
and what is stored is exactly the marks and ranks given."""

import pytest
from django.contrib.auth.models import User

from leaderboard.models import Assignment, Judgment
from tests.campaigns.support import accept_invitations, careful_ranks
from tests.conftest import browser_login, build_insight_task
from tests.support.waits import page_holds

pytestmark = pytest.mark.browser
SCREENS = 3


def pending(user):
    """The assignment the page shows: the user's first unjudged one (what next/ answers)."""
    return Assignment.objects.filter(annotator=user, judged=False).select_related("screen").order_by("position").first()


def wait_for_screen(page, done: int) -> None:
    page.wait_for_selector("#screen:not([hidden]) .output")
    page_holds(page, f"document.getElementById('progress-text').textContent.startsWith('{done} /')")


def test_edits_are_marked_then_ranked_by_keyboard_and_mouse(live_server, chromium):
    from leaderboard.campaigns.services.create import CampaignSettings, create_campaign

    data = build_insight_task("edits-test")
    judge = User.objects.create_user("marker", email="marker@example.org", password="pw-marker")
    campaign = create_campaign(
        data["task"],
        data["organizer"],
        CampaignSettings(
            name="edits", annotators=["marker"], screens_per_annotator=SCREENS, redundancy=1, mode="edits"
        ),
    )  # prepared inline as it commits
    accept_invitations(campaign)
    campaign.refresh_from_db()
    assert campaign.status == "ready", campaign.message

    page = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    browser_login(page, live_server.url, "marker", "pw-marker")
    page.goto(f"{live_server.url}/tasks/edits-test/campaigns/edits/judge/")
    expected, listed = {}, 0
    for done in range(SCREENS):
        wait_for_screen(page, done)
        assignment = pending(judge)
        outputs, ranks = assignment.screen.outputs, careful_ranks(assignment.screen)
        shown = page.locator(".output .edits li").count()
        assert shown == sum(len(o["edits"]) for o in outputs)
        listed += shown
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        keyboard = done % 2 == 0
        marks = {o["key"]: [k != 0 if keyboard else k % 2 == 0 for k in range(len(o["edits"]))] for o in outputs}
        for output in outputs:  # ranked first: the page still waits for the marks
            key = output["key"]
            if keyboard:
                page.keyboard.press(key.lower())
                page.keyboard.press(str(ranks[key]))
            else:
                page.click(f'.output[data-key="{key}"] .ranks button[data-rank="{ranks[key]}"]')
        if shown:
            assert page.locator("#submit").is_disabled() and "edits" in page.inner_text("#missing")
        for output in outputs:
            key = output["key"]
            for k, valid in enumerate(marks[key]):
                if keyboard:
                    page.keyboard.press(key.lower())
                    page.keyboard.press("v" if valid else "i")
                else:
                    page.locator(f'.output[data-key="{key}"] .edits li').nth(k).locator(
                        "button.valid" if valid else "button.invalid"
                    ).click()
        assert page.locator("#submit").is_enabled()
        expected[assignment.pk] = (ranks, marks)
        if keyboard:
            page.keyboard.press("Enter")
        else:
            page.click("#submit")
    page.wait_for_selector("#done:not([hidden])")
    stored = {j.assignment_id: (j.ranks, j.edits) for j in Judgment.objects.filter(campaign=campaign)}
    assert stored == expected and listed > 0
