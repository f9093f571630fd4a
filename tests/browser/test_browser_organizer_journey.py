"""The organizer's journey in headless Chromium on a fresh database: log in, create a task from
files, wait until its gold is ready, add a dev and a hidden test phase with dates and limits,
upload a baseline, freeze, reveal, rescore, export. Jobs run in the embedded mode's background
thread, as on a bare machine, so every wait is a real one."""

import re

import pytest
from django.contrib.auth.models import Permission, User

from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, browser_login, insight_head
from tests.support.waits import page_holds

pytestmark = pytest.mark.browser
LINES = 8


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def lines(path, start, stop):
    return "".join(path.read_text(encoding="utf-8").splitlines(keepends=True)[start:stop])


def test_organizer_journey(live_server, chromium, tmp_path, settings):
    settings.GEC_TASK_MODE = "thread"
    host = User.objects.create_user("hannah", password="pw-hannah")
    host.user_permissions.add(Permission.objects.get(codename="host_tasks"))
    dev_gold = [write(tmp_path, "source.txt", insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES))] + [
        write(tmp_path, p.name, insight_head(p, LINES)) for p in SUBSET_REFS
    ]
    test_dir = tmp_path / "test"
    test_dir.mkdir()
    test_gold = [write(test_dir, "source.txt", lines(SUBSET_OUTPUTS / "INPUT.txt", LINES, 2 * LINES))] + [
        write(test_dir, p.name, lines(p, LINES, 2 * LINES)) for p in SUBSET_REFS
    ]
    page = chromium.new_context().new_page()
    browser_login(page, live_server.url, "hannah", "pw-hannah")

    page.click("text=Host a task")
    page.fill("input[name=title]", "Journey GEC")
    page.fill("input[name=slug]", "journey")
    page.set_input_files("input[name=source]", dev_gold[0])
    page.set_input_files("input[name=references]", dev_gold[1:])
    for metric in ("cleme", "cleme2", "usim"):
        page.uncheck(f"input[name=metrics][value={metric}]")
    page.click("#task-form button")
    page.wait_for_selector("#task-status[data-finished]:has-text('Ready')", timeout=120_000)

    page.click("#add-phase")
    page.fill("input[name=kind]", "dev")
    page.fill("input[name=name]", "Development")
    page.select_option("select[name=time_zone]", "Europe/Berlin")
    page.fill("input[name=starts_at]", "2026-01-01T10:00")
    page.fill("input[name=ends_at]", "2030-03-01T13:00")
    page.fill("input[name=max_per_day]", "5")
    page.fill("input[name=max_total]", "50")
    page.click("#phase-form button")
    assert "2030-03-01 12:00 UTC (2030-03-01 13:00 Europe/Berlin)" in page.inner_text("#phase-dev")

    page.click("#add-phase")
    page.fill("input[name=kind]", "test")
    page.select_option("select[name=reuse]", "")
    page.set_input_files("input[name=source]", test_gold[0])
    page.set_input_files("input[name=references]", test_gold[1:])
    page.fill("input[name=starts_at]", "2026-01-01T00:00")
    page.fill("input[name=ends_at]", "2030-06-01T12:00")
    page.fill("input[name=max_total]", "3")
    page.select_option("select[name=results_visibility]", "organizers")
    page.check("input[name=blind]")
    page.click("#phase-form button")
    assert "organizers only" in page.inner_text("#phase-test") and "blind" in page.inner_text("#phase-test")
    for _ in range(120):  # the test gold is prepared in the background
        if "preparing" not in page.inner_text("#phase-test"):
            break
        page.wait_for_timeout(500)
        page.reload()
    assert "preparing" not in page.inner_text("#phase-test")

    page.select_option("#baseline-form select[name=phase]", "dev")
    page.fill("#baseline-form input[name=system_name]", "INPUT")
    page.set_input_files("#baseline-form input[name=file]", dev_gold[0])
    page.click("#baseline-form button")
    page.wait_for_selector("#baselines .status:has-text('scored')", timeout=120_000)  # the table polls, no reload

    page.click("#phase-dev button:has-text('Freeze')")
    assert "no team may submit until you unfreeze it" in page.inner_text("#consequence")  # it asks first
    page.click("#confirm-form button")
    assert page.inner_text("#phase-dev .state") == "frozen"
    page.click("#phase-test button:has-text('Reveal results')")
    assert "become public" in page.inner_text("#consequence")
    page.click("#confirm-form button")
    assert "revealed" in page.inner_text("#phase-test")
    page.screenshot(path="/tmp/browser_organizer_manage.png", full_page=True)

    page.goto(f"{live_server.url}/tasks/journey/?phase=dev")
    assert "The organizers have frozen the Development phase" in page.inner_text("#phase-status")
    assert "INPUT" in page.inner_text("#leaderboard")
    page.screenshot(path="/tmp/browser_organizer_board.png", full_page=True)

    page.goto(f"{live_server.url}/tasks/journey/?phase=test")
    page_holds(page, "document.querySelector('time.countdown').textContent.startsWith('(in ')")
    assert re.fullmatch(r"\(in \d+ d \d+ h \d+ min \d+ s\)", page.inner_text("time.countdown"))

    page.goto(f"{live_server.url}/tasks/journey/rescore/")
    page.click("button:has-text('Rescore everything')")
    page.wait_for_selector("#rank-changes", timeout=120_000)
    assert "INPUT" in page.inner_text("#rank-changes")
    page.screenshot(path="/tmp/browser_organizer_journey.png", full_page=True)

    export = page.request.get(f"{live_server.url}/api/tasks/journey/leaderboard/export?format=csv&phase=dev")
    assert export.status == 200 and "INPUT" in export.text()
