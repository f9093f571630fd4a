"""Hidden references and other teams' outputs are never served to participants or visitors.

Canaries: every reference line carries a token no system writes, and each team's output
carries a token of its own. Every URL pattern of the site (admin aside) is requested as
an anonymous visitor and as a participant of another team, and no answer may contain a
canary it must not. The organizer's answers are checked to contain them, so the test
would notice a leak.
"""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.conftest import SUBSET_OUTPUTS, ensure_cleme2_results, insight_head, insight_metrics
from tests.web.site_urls import patterns, site_urls

SLUG = "canary"
REF_CANARY, ALICE_CANARY, BOB_CANARY = "zqxref", "zqxalice", "zqxbob"
LINES = 8


def with_canary(text: str, canary: str) -> str:
    """Each line with ``canary`` inserted before its last token (a one-token insertion)."""
    lines = []
    for line in text.splitlines():
        tokens = line.split()
        lines.append(" ".join(tokens[:-1] + [canary] + tokens[-1:]))
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def canary_task(django_db_setup, django_db_blocker):
    from leaderboard.services.hosting.task_creation import create_task
    from leaderboard.services.scoring_jobs.submission import score_submission
    from leaderboard.services.submissions.intake import accept_submission
    from tests.conftest import remove_insight_task

    with django_db_blocker.unblock():
        source = insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES)
        task = create_task(
            SLUG,
            title="Canary",
            source=source,
            metrics=insight_metrics(),
            references=[("REF0", with_canary(source, REF_CANARY)), ("REF1", with_canary(source, REF_CANARY + "b"))],
        )
        phase = task.phases.get()
        organizer = User.objects.create_user("canary-organizer", password="pw")
        task.organizers.add(organizer)
        submissions = {}
        for name, system, canary in (("alice", "T5", ALICE_CANARY), ("bob", "BART", BOB_CANARY)):
            user = User.objects.create_user(f"canary-{name}", password="pw")
            text = with_canary(insight_head(SUBSET_OUTPUTS / f"{system}.txt", LINES), canary)
            submission = accept_submission(
                phase,
                user,
                system_name=system,
                filename=f"{system}.txt",
                content=text.encode(),
                enforce_limits=False,
                queue=False,
            )
            score_submission(submission.pk)
            submissions[name] = submission
        ensure_cleme2_results(submissions.values())
    data = {"task": task, "phase": phase, "organizer": organizer, "submissions": submissions}
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def urls(data) -> list[str]:
    """Each pattern with its parameters filled in every way that matters here."""
    values = {"slug": [SLUG], "pk": [str(s.pk) for s in data["submissions"].values()], "action": ["freeze", "reveal"]}
    result = []
    for url in site_urls(values):
        result += [f"{url}?format={fmt}" for fmt in ("csv", "json", "tex", "md")] if "export" in url else [url]
    return result + ["/tasks/canary/difficulty/map/?type=M:OTHER", "/tasks/canary/per-type/?cat=3"]


def answers(client, data):
    for url in urls(data):
        yield url, client.get(url)
        if "/phase/" in url or "rescore" in url:
            yield url, client.post(url)


def test_every_url_pattern_is_requested(canary_task):
    routes = set(patterns())
    assert {
        "tasks/<slug:slug>/difficulty/",
        "tasks/<slug:slug>/cleme2/<int:pk>/",
        "api/tasks/<slug:slug>/leaderboard/export",
    } <= routes
    assert len(urls(canary_task)) >= len(routes)


@pytest.mark.django_db
def test_anonymous_visitors_see_no_reference_and_no_output(canary_task):
    for url, response in answers(Client(), canary_task):
        body = response.content.decode(errors="replace").lower()
        for canary in (REF_CANARY, ALICE_CANARY, BOB_CANARY):
            assert canary not in body, f"{url} ({response.status_code}) shows {canary}"


@pytest.mark.django_db
def test_a_participant_sees_no_reference_and_no_other_teams_output(canary_task):
    client = Client()
    client.force_login(User.objects.get(username="canary-alice"))
    seen_own = False
    for url, response in answers(client, canary_task):
        body = response.content.decode(errors="replace").lower()
        assert REF_CANARY not in body, f"{url} ({response.status_code}) shows a reference"
        assert BOB_CANARY not in body, f"{url} ({response.status_code}) shows bob's output"
        seen_own |= ALICE_CANARY in body
    assert seen_own  # alice does see her own output (the CLEME2.0 sentence viewer)


@pytest.mark.django_db
def test_the_canaries_would_be_noticed(canary_task):
    client = Client()
    client.force_login(canary_task["organizer"])
    heatmap = client.get("/tasks/canary/difficulty/").content.decode()
    bob = client.get(f"/tasks/canary/cleme2/{canary_task['submissions']['bob'].pk}/").content.decode()
    assert REF_CANARY in heatmap and BOB_CANARY in bob
