"""The task's pages in headless Chromium, at 1280 and 390 px: an organizer writes the
Overview, Data, Evaluation and Terms pages; a participant sees them as tabs, accepts the
terms, and downloads the inputs from the Data tab and from the task page."""

import pytest

from tests.conftest import browser_login
from tests.support.task_pages_support import SLUG, SOURCE, season_task

pytestmark = pytest.mark.browser
PAGES = {
    "overview": "# Welcome to Season\n\nCorrect the learners' sentences.",
    "data": "The inputs are **three** sentences.",
    "evaluation": "| Metric | Role |\n|---|---|\n| ERRANT F0.5 | ranking |",
    "terms": "Use the data for research only.",
}


@pytest.mark.parametrize("width", [1280, 390])
def test_organizer_writes_pages_participant_accepts_terms_and_downloads(live_server, chromium, width, tmp_path):
    from leaderboard.models import TaskPage, TermsAcceptance

    season_task()
    base, viewport = live_server.url, {"width": width, "height": 900}

    organizer = chromium.new_context(viewport=viewport).new_page()
    browser_login(organizer, base, "org", "pw")
    organizer.goto(f"{base}/tasks/{SLUG}/manage/")
    organizer.click("#edit-pages")
    for name, text in PAGES.items():
        organizer.fill(f"textarea[name={name}]", text)
    organizer.click("#pages-form button")
    organizer.wait_for_load_state()
    assert "The pages are saved." in organizer.content()
    assert TaskPage.objects.filter(task__slug=SLUG).count() == 4

    context = chromium.new_context(viewport=viewport, accept_downloads=True)
    participant = context.new_page()
    browser_login(participant, base, "pat", "pw")
    participant.goto(f"{base}/tasks/{SLUG}/?phase=dev")
    tabs = participant.locator("nav.task-nav a").all_inner_texts()
    assert tabs[:4] == ["Overview", "Data", "Evaluation", "Terms"], tabs
    assert "You have not accepted the terms yet" in participant.inner_text("#phase-status")

    participant.click("nav.task-nav >> text=Overview")
    assert participant.inner_text("#page-overview h1") == "Welcome to Season"
    participant.click("nav.task-nav >> text=Evaluation")
    assert participant.inner_text("#page-evaluation td >> nth=0") == "ERRANT F0.5"

    participant.click("nav.task-nav >> text=Terms")
    assert "research only" in participant.inner_text("#page-terms")
    participant.click("#terms-acceptance button")
    participant.wait_for_load_state()
    assert "You accepted these terms on" in participant.inner_text("#terms-acceptance")
    assert TermsAcceptance.objects.filter(user__username="pat").exists()

    participant.click("nav.task-nav >> text=Data")
    assert "three" in participant.inner_text("#page-data")
    with participant.expect_download() as download:
        participant.click("#phase-files tr[data-phase=dev] a.download-input")
    assert download.value.suggested_filename == f"{SLUG}-dev.src.txt"
    assert open(download.value.path(), encoding="utf-8").read() == SOURCE
    with participant.expect_download() as download:
        participant.click("#download-input")
    assert open(download.value.path(), encoding="utf-8").read() == SOURCE

    for url in (
        f"/tasks/{SLUG}/?phase=dev",
        f"/tasks/{SLUG}/pages/data/",
        f"/tasks/{SLUG}/pages/terms/",
        f"/tasks/{SLUG}/manage/pages/",
    ):
        page = organizer if "manage" in url else participant
        page.goto(base + url)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, url
        page.screenshot(
            path=f"/tmp/task_pages_{width}_{url.strip('/').split('/')[-1].split('?')[0]}.png", full_page=True
        )
    tab = participant.locator("nav.task-nav a >> text=Terms").bounding_box()
    assert tab and tab["x"] + tab["width"] <= width
