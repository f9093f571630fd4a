"""The charts in headless Chromium: drawn from the vendored Chart.js (no network), the
right systems in them, and pages that fit a 390 px phone screen (tables scroll in
their own box)."""

import pytest

from tests.conftest import build_insight_task
from tests.support.waits import page_holds

pytestmark = pytest.mark.browser
LINES = 12
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def site(live_server, chromium):
    data = build_insight_task("charts", lines=LINES)
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(live_server.url) else None)
    yield live_server.url, page, data, outside
    context.close()


def chart_labels(page, canvas_id):
    return page.evaluate(f"() => Chart.getChart(document.getElementById('{canvas_id}')).data.labels")


def overflows(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth > window.innerWidth + 1")


def test_board_chart_and_precision_recall_scatter(site):
    url, page, _, outside = site
    page.goto(f"{url}/tasks/charts/")
    page_holds(page, "() => window.Chart && Chart.getChart(document.getElementById('board-chart'))")
    labels = chart_labels(page, "board-chart")
    assert len(labels) == 4 and any("alice/T5" in label for label in labels) and "INPUT (baseline)" in labels
    scatter = page.evaluate("() => Chart.getChart(document.getElementById('pr-chart')).data.datasets.map(d => d.label)")
    assert "bob/BART" in scatter and any(label.startswith("F0.5 = ") for label in scatter)
    assert not overflows(page)
    assert not outside
    page.screenshot(path="/tmp/browser_board_phone.png", full_page=True)


def test_per_type_profile_compares_the_chosen_systems(site):
    url, page, data, outside = site
    subs = data["submissions"]
    page.goto(f"{url}/tasks/charts/per-type/?systems={subs['T5'].pk}&systems={subs['BART'].pk}")
    page_holds(page, "() => window.Chart && Chart.getChart(document.getElementById('type-profile-chart'))")
    names = page.evaluate(
        "() => Chart.getChart(document.getElementById('type-profile-chart')).data.datasets.map(d => d.label)"
    )
    assert names == ["alice/T5", "bob/BART"]
    assert chart_labels(page, "type-profile-chart")
    assert not overflows(page)  # the wide table scrolls inside its box
    assert not outside


def test_a_team_sees_its_score_over_its_submissions(site):
    from django.contrib.auth.models import User

    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission
    from tests.conftest import SUBSET_OUTPUTS, browser_login, insight_head

    url, page, data, outside = site
    alice = User.objects.get(username="alice")
    again = accept_submission(
        data["phase"],
        alice,
        system_name="T5-again",
        filename="b.txt",
        content=insight_head(SUBSET_OUTPUTS / "BART.txt", LINES).encode(),
        enforce_limits=False,
        queue=False,
    )
    score_submission(again.pk)
    browser_login(page, url, "alice", "pw-alice")
    page.goto(f"{url}/tasks/charts/submissions/")
    page_holds(page, "() => window.Chart && Chart.getChart(document.getElementById('history-chart'))")
    labels = chart_labels(page, "history-chart")
    assert len(labels) == 2 and labels[1].endswith("T5-again")
    assert not overflows(page)
    assert not outside


def test_the_insight_pages_fit_a_phone(site):
    from tests.conftest import browser_login, ensure_cleme2_results

    url, page, data, outside = site
    ensure_cleme2_results(data["submissions"].values())
    browser_login(page, url, data["organizer"].username, "pw")
    for path in ("cleme2/", "difficulty/", "?phase=dev&metric=gotoscorer.f"):
        page.goto(f"{url}/tasks/charts/{path}")
        assert not overflows(page), path
    assert not outside
