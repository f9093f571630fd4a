"""Upload through the form in one tab; the leaderboard open in another shows the new row, no reload."""

import pytest

from tests.conftest import SUBSET_OUTPUTS, browser_login, build_insight_task, insight_head

pytestmark = pytest.mark.browser
LINES = 10


def test_uploaded_system_appears_on_the_open_board(live_server, chromium, tmp_path):
    build_insight_task("upload", lines=LINES, teams={"alice": "T5"})
    context = chromium.new_context()
    board = context.new_page()
    from django.contrib.auth.models import User

    User.objects.create_user("dave", password="pw-dave")
    browser_login(board, live_server.url, "dave", "pw-dave")
    board.goto(f"{live_server.url}/tasks/upload/")
    board.evaluate("window.notReloaded = true")
    assert board.locator("#leaderboard tbody tr").count() == 2  # INPUT and alice's T5

    output = tmp_path / "BART.txt"
    output.write_text(insight_head(SUBSET_OUTPUTS / "BART.txt", LINES), encoding="utf-8")
    form = context.new_page()
    form.goto(f"{live_server.url}/tasks/upload/submit/")
    form.fill("input[name=system_name]", "my-bart")
    form.set_input_files("input[name=file]", str(output))
    form.click("form button:has-text('Upload')")
    form.wait_for_load_state()

    board.wait_for_selector("#leaderboard td:has-text('my-bart')", timeout=20_000)
    assert board.evaluate("window.notReloaded") is True
    assert board.locator("#leaderboard tbody tr").count() == 3
    board.screenshot(path="/tmp/browser_upload.png", full_page=True)
    context.close()
