"""A new participant's whole journey in headless Chromium, on a fresh database.

Sign up, register a team, invite a second user who joins by the link, upload a good
file, a bad one (line-numbered errors shown) and another good one, watch scoring
progress without reloading, open the submission's page, download its per-sentence CSV,
choose the submission that counts (the phase counts the chosen one) and see the board,
open in another tab, follow.
"""

import csv
import re
import threading

import pytest

from tests.conftest import SUBSET_OUTPUTS, build_insight_task, insight_head

pytestmark = pytest.mark.browser
LINES = 10


def sign_up(page, username: str) -> None:
    """Fill in the form, then open the link of the mail it sends (the test server's outbox)."""
    from django.core import mail

    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password1]", "a long pass phrase")
    page.fill("input[name=password2]", "a long pass phrase")
    page.click("form button:has-text('Sign up')")
    page.wait_for_load_state()
    assert "Check your email" in page.content()
    page.goto(re.search(r"https?://\S+/accounts/signup/activate/\S+", mail.outbox[-1].body).group(0))
    page.wait_for_load_state()


def upload(page, base: str, path, system: str) -> None:
    page.goto(f"{base}/tasks/journey/submit/")
    page.fill("input[name=system_name]", system)
    page.set_input_files("input[name=file]", str(path))
    page.click("form button:has-text('Upload')")
    page.wait_for_load_state()


def test_participant_journey(live_server, chromium, tmp_path, settings):
    from leaderboard.models import Submission, Team
    from leaderboard.queue import background, wait_for_background

    settings.GEC_TASK_MODE = "thread"  # scoring in the background, as in embedded mode: pages must follow it
    build_insight_task("journey", lines=LINES, teams={"alice": "T5"}, counting="chosen")
    base = live_server.url

    # 1. sign up from the task page, register a team
    zoe = chromium.new_context().new_page()
    zoe.goto(f"{base}/tasks/journey/")
    zoe.click("header >> text=sign up")
    sign_up(zoe, "zoe")
    assert zoe.url.endswith("/tasks/journey/")
    zoe.click("nav.task-nav >> text=Team")
    zoe.fill("input[name=name]", "Zebra Fixers")
    zoe.click("#create-team button")
    assert zoe.inner_text("#team-name") == "Zebra Fixers"
    invite = zoe.input_value("#invite-link")

    # 2. a second user follows the invite link, signs up on the way, and joins
    yan = chromium.new_context().new_page()
    yan.goto(invite)
    assert "/accounts/login/" in yan.url
    yan.click("#signup-link")
    sign_up(yan, "yan")
    assert "Zebra Fixers" in yan.inner_text("#joining")
    yan.click("form button:has-text('Join')")
    yan.wait_for_load_state()
    assert yan.inner_text("#team-name") == "Zebra Fixers" and "zoe, yan" in yan.content()

    # 3. uploads: a good one, a bad one (every problem by line number), another good one
    files = {}
    for system in ("GECToR-BERT", "BART"):
        files[system] = tmp_path / f"{system}.txt"
        files[system].write_text(insight_head(SUBSET_OUTPUTS / f"{system}.txt", LINES), encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text("only\n\nthree lines\n", encoding="utf-8")
    upload(zoe, base, files["GECToR-BERT"], "zebra-gector")
    wait_for_background()
    upload(zoe, base, bad, "broken")
    problems = zoe.locator("ul.problems li").all_inner_texts()
    assert any(re.match(r"(bad\.txt: )?line \d+: ", p) for p in problems), (
        problems
    )  # named by file (e-multigec) and line

    # 4. watch progress: the scoring thread is busy, so the upload waits in the queue
    release = threading.Event()
    background().submit(release.wait)
    upload(zoe, base, files["BART"], "zebra-bart")
    zoe.goto(f"{base}/tasks/journey/submissions/")
    zoe.evaluate("window.notReloaded = true")
    latest = Submission.objects.get(system_name="zebra-bart")
    zoe.wait_for_selector(f"tr[data-submission='{latest.pk}'] .submission-status[data-status='queued']")
    release.set()
    zoe.wait_for_selector(f"tr[data-submission='{latest.pk}'] .submission-status[data-status='scored']", timeout=30_000)
    assert zoe.evaluate("window.notReloaded") is True
    wait_for_background()

    # 5. the board shows the team's latest; open it in another tab
    board = zoe.context.new_page()
    board.goto(f"{base}/tasks/journey/")
    board.evaluate("window.notReloaded = true")
    assert "zebra-bart" in board.inner_text("#leaderboard") and "Zebra Fixers" in board.inner_text("#leaderboard")
    assert "zebra-gector" not in board.inner_text("#leaderboard")

    # 6. the first submission's page and its per-sentence CSV
    first = Submission.objects.get(system_name="zebra-gector")
    zoe.click(f"tr[data-submission='{first.pk}'] a")
    zoe.wait_for_selector("#scores")
    assert zoe.locator("#per-type tbody tr").count() > 0
    with zoe.expect_download() as download:
        zoe.click("#per-sentence-csv")
    with open(download.value.path(), encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == LINES and "errant f" in rows[0]

    # 7. choose the first one to count: the open board follows without a reload
    zoe.goto(f"{base}/tasks/journey/submissions/")
    zoe.click(f"tr[data-submission='{first.pk}'] button.choose")
    zoe.wait_for_load_state()
    assert "counts" in zoe.inner_text(f"tr[data-submission='{first.pk}'] td.counted")
    board.wait_for_selector("#leaderboard td:has-text('zebra-gector')", timeout=20_000)
    assert "zebra-bart" not in board.inner_text("#leaderboard")
    assert board.evaluate("window.notReloaded") is True
    assert Team.objects.get(name="Zebra Fixers").memberships.count() == 2

    # 8. readable on a phone: the page does not scroll sideways, tables scroll in their box
    phone = chromium.new_context(viewport={"width": 390, "height": 800})
    phone.add_cookies(zoe.context.cookies())
    small = phone.new_page()
    for name, url in (
        ("mine", "/tasks/journey/submissions/"),
        ("detail", f"/tasks/journey/submissions/{first.pk}/"),
        ("team", "/tasks/journey/team/"),
    ):
        small.goto(base + url)
        assert small.evaluate("document.documentElement.scrollWidth") <= 390, url
        small.screenshot(path=f"/tmp/participant_journey_{name}_390px.png", full_page=True)
    for context in (zoe.context, yan.context, phone):
        context.close()
