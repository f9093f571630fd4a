"""Live pages at constant cost: open pages watch the phase's few-byte version and
fetch their fragment once when a score lands (no reload); My submissions asks for all its
pending rows in one request; a hidden tab does not poll at all."""

import pytest
from django.db import transaction

from tests.conftest import SUBSET_OUTPUTS, browser_login, build_insight_task, insight_head
from tests.support.waits import page_holds, until

pytestmark = pytest.mark.browser
LINES = 10


def requests_to(page, fragment: str) -> list[str]:
    """The URLs this page asks for that contain ``fragment``, as they happen."""
    seen = []
    page.on("request", lambda request: seen.append(request.url) if fragment in request.url else None)
    return seen


def test_a_score_landing_appears_on_open_pages_with_one_request_each(live_server, chromium):
    from django.contrib.auth.models import User

    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission

    built = build_insight_task("live", lines=LINES, teams={"alice": "T5"})
    User.objects.create_user("dave", password="pw-dave")
    anonymous = chromium.new_context().new_page()
    participant = chromium.new_context().new_page()
    browser_login(participant, live_server.url, "dave", "pw-dave")
    mine_context = chromium.new_context()
    mine = mine_context.new_page()
    browser_login(mine, live_server.url, "alice", "pw-alice")

    bart = insight_head(SUBSET_OUTPUTS / "BART.txt", LINES).encode()
    pending = accept_submission(
        built["phase"],
        User.objects.get(username="alice"),
        system_name="alice-bart",
        filename="b.txt",
        content=bart,
        queue=False,
    )

    boards = {}
    for name, page in (("anonymous", anonymous), ("participant", participant)):
        page.goto(f"{live_server.url}/tasks/live/")
        page.evaluate("window.notReloaded = true")
        boards[name] = requests_to(page, "/tasks/live/rows/")
        assert page.locator("#leaderboard tbody tr").count() == 2
    mine.goto(f"{live_server.url}/tasks/live/submissions/")
    mine.evaluate("window.notReloaded = true")
    mine_rows = requests_to(mine, "/tasks/live/submissions/rows/")
    versions = requests_to(anonymous, "/tasks/live/version/")
    assert mine.locator("tr[data-status=queued]").count() == 1

    until(  # the first poll comes 3 s after the page loaded
        lambda: versions, timeout=20, what="the first poll", pause=lambda s: anonymous.wait_for_timeout(s * 1000)
    )
    participant.wait_for_timeout(500)  # the pages poll and see nothing new: no fragment asked for
    assert versions and not boards["anonymous"] and not boards["participant"]

    with transaction.atomic():  # the score lands at once, as one new version
        score_submission(pending.pk)

    for page in (anonymous, participant):
        page.wait_for_selector("#leaderboard td:has-text('alice-bart')", timeout=30_000)
        assert page.evaluate("window.notReloaded") is True
    mine.wait_for_selector("tr[data-status=scored] >> text=alice-bart", timeout=30_000)
    assert mine.evaluate("window.notReloaded") is True
    for page in (anonymous, participant, mine):
        page.wait_for_load_state("networkidle")  # every poll the new version caused has been answered
    assert len(boards["anonymous"]) == 1 and len(boards["participant"]) == 1, boards
    assert len(mine_rows) == 1, mine_rows  # every pending row in one request, not one each
    mine_context.close()


def test_a_hidden_tab_does_not_poll_and_polls_again_when_shown(live_server, chromium):
    build_insight_task("quiet", lines=LINES, teams={"alice": "T5"})
    page = chromium.new_context().new_page()
    page.goto(f"{live_server.url}/tasks/quiet/")
    versions = requests_to(page, "/tasks/quiet/version/")
    page_holds(page, "() => true")
    page.evaluate("""() => {
        Object.defineProperty(document, "hidden", {configurable: true, get: () => window.gecHidden});
        window.gecHidden = true;
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    page.wait_for_load_state("networkidle")  # a poll under way when it was hidden has landed
    before = len(versions)
    page.wait_for_timeout(5000)
    assert len(versions) == before  # two polls' worth of time hidden: none
    page.evaluate("() => { window.gecHidden = false; document.dispatchEvent(new Event('visibilitychange')); }")
    until(  # shown again: it asks at once
        lambda: len(versions) > before,
        timeout=1,
        what="a poll once the tab is shown",
        pause=lambda s: page.wait_for_timeout(s * 1000),
    )


def test_a_members_own_rows_and_status_follow_the_teams_channels(live_server, chromium):
    """A team member's task page shows their pending upload scored, and its page reloads
    once scored, without a request to Django for either: both poll the team's channel
    files (which the proxy serves in production)."""
    from django.contrib.auth.models import User

    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission

    built = build_insight_task("channels", lines=LINES, teams={"alice": "T5"})
    bart = insight_head(SUBSET_OUTPUTS / "BART.txt", LINES).encode()
    pending = accept_submission(
        built["phase"],
        User.objects.get(username="alice"),
        system_name="alice-own",
        filename="b.txt",
        content=bart,
        queue=False,
    )
    context = chromium.new_context()
    board, status = context.new_page(), context.new_page()
    browser_login(board, live_server.url, "alice", "pw-alice")
    board.goto(f"{live_server.url}/tasks/channels/")
    status.goto(f"{live_server.url}/tasks/channels/submissions/{pending.pk}/")
    django_asked = requests_to(board, "/tasks/channels/own/") + requests_to(status, "/api/submissions/")
    versions = requests_to(board, "/tasks/channels/version/")
    channels = requests_to(board, "/live/team/")
    statuses = requests_to(status, "/live/submission/")
    board.evaluate("window.notReloaded = true")
    assert board.locator("#own-submissions tr[data-status], #own-submissions [data-status=queued]").count() >= 1

    with transaction.atomic():
        score_submission(pending.pk)

    board.wait_for_selector(
        "#own-submissions [data-status=scored] >> xpath=ancestor::tr >> text=alice-own", timeout=30_000
    )
    assert board.evaluate("window.notReloaded") is True
    status.wait_for_selector(
        "#state[data-finished='1']", timeout=30_000
    )  # reloaded once finished: the scores are there
    assert channels and statuses and versions and not django_asked, (channels, statuses, versions, django_asked)
    context.close()
