"""The annotator's page and the organizer's page in headless Chromium.

The judging client (leaderboard/campaigns/static/leaderboard/judge.js) is driven with the keyboard on a screen
of ten outputs in mode edits (the API's answers stood in for by the browser's routes, as
the test task has four systems): guidelines first, letters A-K (no I, no V), digits 1-9
and 0 = 10, v / i marking edits, Enter posting exactly the ranks, marks and a duration.
The organizer's page at 390 px keeps each annotator's controls, p and trusted in view."""

import json

import pytest
from django.contrib.auth.models import User

from tests.campaigns.support import accept_invitations, careful_ranks
from tests.conftest import browser_login, build_insight_task
from tests.support.waits import page_holds

pytestmark = pytest.mark.browser
KEYS = ["A", "B", "C", "D", "E", "F", "G", "H", "J", "K"]


def ten_outputs() -> dict:
    source = "this are a sentence"
    outputs = [
        {
            "key": key,
            "text": f"this is a sentence {k}",
            "edits": [{"start": 1, "end": 2, "source": "are", "correction": "is", "type": "R:VERB:SVA"}],
        }
        for k, key in enumerate(KEYS)
    ]
    return {
        "item": 4242,
        "source": source,
        "context": {"before": "", "after": ""},
        "outputs": outputs,
        "mode": "edits",
        "practice": False,
        "progress": {"done": 0, "total": 1},
    }


def test_ten_outputs_by_keyboard_in_mode_edits(live_server, chromium):
    from leaderboard.campaigns.services.create import CampaignSettings, create_campaign

    data = build_insight_task("keys-test")
    User.objects.create_user("keys", email="keys@example.org", password="pw-keys")
    campaign = create_campaign(
        data["task"],
        data["organizer"],
        CampaignSettings(
            name="ten", annotators=["keys"], screens_per_annotator=2, mode="edits", guidelines="# Rules\n\nBe **kind**."
        ),
    )
    accept_invitations(campaign)
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    browser_login(page, live_server.url, "keys", "pw-keys")
    posted, served = [], []

    def next_screen(route):
        served.append(1)
        if len(served) == 1:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(ten_outputs()))
        else:
            route.fulfill(status=204, body="")

    def judgments(route):
        posted.append(json.loads(route.request.post_data))
        route.fulfill(status=201, content_type="application/json", body='{"item": 4242, "judgment": 1}')

    page.route("**/campaigns/ten/next/", next_screen)
    page.route("**/campaigns/ten/judgments/", judgments)
    page.goto(f"{live_server.url}/tasks/keys-test/campaigns/ten/judge/")
    page.wait_for_selector("#guidelines:not([hidden]) h1")  # shown first, nothing asked yet
    assert served == [] and page.is_hidden("#screen")
    page.click("#start")
    page.wait_for_selector("#screen:not([hidden]) .output")
    assert page.locator(".output").count() == 10
    for k, key in enumerate(KEYS):  # picks each output by its letter; rank k+1, 0 = 10
        page.keyboard.press(key.lower())
        page.keyboard.press("i" if k % 2 else "v")  # never picks an output: marks the picked one's edit
        page.keyboard.press(str((k + 1) % 10))
    page.keyboard.press("?")
    assert page.is_visible("#guidelines")
    page.keyboard.press("?")
    assert page.is_hidden("#guidelines")
    page.keyboard.press("Enter")
    page.wait_for_selector("#done:not([hidden])")
    assert len(posted) == 1
    body = posted[0]
    assert body["item"] == 4242
    assert body["ranks"] == {key: k + 1 for k, key in enumerate(KEYS)}
    assert body["edits"] == {key: [k % 2 == 0] for k, key in enumerate(KEYS)}
    assert isinstance(body["duration"], (int, float)) and 0 <= body["duration"] < 120


def test_organizers_page_at_390_px(live_server, chromium):
    from leaderboard.campaigns.insights.campaigns import next_screen
    from leaderboard.campaigns.services.create import CampaignSettings, create_campaign
    from leaderboard.campaigns.services.judging import record_judgment
    from leaderboard.models import Screen

    data = build_insight_task("phone-camp")
    organizer = data["organizer"]
    organizer.set_password("pw-organizer")
    organizer.save()
    name = "an-annotator-with-a-long-name"
    user = User.objects.create_user(name, email="long@example.org", password="pw")
    campaign = create_campaign(
        data["task"],
        organizer,
        CampaignSettings(name="phone", annotators=[name], screens_per_annotator=8, controls=0.5, threshold=0.1),
    )
    accept_invitations(campaign)
    campaign.refresh_from_db()

    def judge(count: int) -> None:
        for _ in range(count):
            item = next_screen(campaign, user)["item"]
            record_judgment(campaign, user, item, careful_ranks(Screen.objects.get(assignments__pk=item)))

    judge(7)
    page = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    browser_login(page, live_server.url, organizer.username, "pw-organizer")
    fetched = []
    page.on("request", lambda request: fetched.append(request.url.split("?")[-1]) if "part=" in request.url else None)
    page.goto(f"{live_server.url}/tasks/phone-camp/campaigns/phone/")
    page.wait_for_selector(f'#annotators tr[data-user="{name}"]')
    page.wait_for_event("response", lambda response: "part=version" in response.url, timeout=30_000)
    page.wait_for_load_state("networkidle")  # the first poll of the version: unchanged, so no fragment is fetched
    assert "part=version" in fetched and "part=live" not in fetched, fetched
    judge(1)  # the last screen: the page follows the version and fetches the figures once
    page_holds(page, f"document.querySelector('#annotators tr[data-user=\"{name}\"]').textContent.includes('8/8')", 60)
    assert "part=live" in fetched
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    row = f'#annotators tr[data-user="{name}"]'
    for column in (3, 7, 8):  # controls judged, p, trusted
        box = page.eval_on_selector(
            f"{row} td:nth-child({column})",
            "e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, width: r.width}; }",
        )
        assert box["width"] > 0 and box["left"] >= 0 and box["right"] <= 390, (column, box)
    page.screenshot(path="/tmp/browser_campaign_organizer_390.png", full_page=True)
