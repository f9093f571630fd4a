"""Organizers write the Overview, Data, Evaluation and Terms pages in Markdown, from the
organizer pages or the API; everyone sees them as tabs of the task page, sanitised; a
page left empty has no tab (Data always has one: it lists the phases' files)."""

import pytest

from leaderboard.models import TaskPage
from leaderboard.sanitise import MAX_PAGE_CHARS
from tests.support.task_pages_support import SLUG, VIEWERS, api_client_of, client_of, season_task

pytestmark = pytest.mark.django_db
PAGES = {
    "overview": "# Welcome\n\nCorrect *every* error.",
    "data": "",
    "evaluation": "Ranked by **ERRANT F0.5**.",
    "terms": "Research only.",
}


@pytest.fixture
def task(db):
    return season_task()


def test_the_organizer_writes_the_pages_and_everyone_sees_the_tabs(task):
    organizer = client_of("organizer")
    assert 'id="edit-pages"' in organizer.get(f"/tasks/{SLUG}/manage/").content.decode()
    assert organizer.post(f"/tasks/{SLUG}/manage/pages/", PAGES).status_code == 302
    assert dict(TaskPage.objects.values_list("name", "markdown")) == {k: v for k, v in PAGES.items() if v}
    for viewer in VIEWERS:
        board = client_of(viewer).get(f"/tasks/{SLUG}/").content.decode()
        for name, label in (
            ("overview", "Overview"),
            ("data", "Data"),
            ("evaluation", "Evaluation"),
            ("terms", "Terms"),
        ):
            assert f'href="/tasks/{SLUG}/pages/{name}/?phase=' in board and f">{label}</a>" in board
        overview = client_of(viewer).get(f"/tasks/{SLUG}/pages/overview/")
        assert "<h1>Welcome</h1>" in overview.content.decode() and "<em>every</em>" in overview.content.decode()


def test_an_empty_page_has_no_tab(task):
    client_of("organizer").post(f"/tasks/{SLUG}/manage/pages/", {**PAGES, "evaluation": ""})
    assert "/pages/evaluation/" not in client_of("anonymous").get(f"/tasks/{SLUG}/").content.decode()
    assert client_of("anonymous").get(f"/tasks/{SLUG}/pages/evaluation/").status_code == 404
    assert client_of("anonymous").get(f"/tasks/{SLUG}/pages/data/").status_code == 200
    assert client_of("anonymous").get(f"/tasks/{SLUG}/pages/nope/").status_code == 404


def test_raw_html_scripts_and_javascript_links_do_not_survive(task):
    hostile = (
        '<script>alert(1)</script>\n\n[x](javascript:alert(2)) <img src=x onerror="alert(3)"> <a href="#" '
        'onclick="alert(4)">y</a>'
    )
    client_of("organizer").post(f"/tasks/{SLUG}/manage/pages/", {**PAGES, "overview": hostile})
    page = client_of("participant").get(f"/tasks/{SLUG}/pages/overview/").content.decode()
    article = page[page.index('id="page-overview"') : page.index("</article>")]
    for leak in ("<script", "javascript:", "onerror", "onclick", "<img"):
        assert leak not in article


def test_only_organizers_edit(task):
    for viewer in ("participant", "other team"):
        assert client_of(viewer).post(f"/tasks/{SLUG}/manage/pages/", PAGES).status_code == 403
        assert (
            api_client_of(viewer)
            .put(f"/api/tasks/{SLUG}/pages/overview/", {"markdown": "x"}, content_type="application/json")
            .status_code
            == 403
        )
    assert client_of("anonymous").post(f"/tasks/{SLUG}/manage/pages/", PAGES).status_code == 302  # to the log-in page
    assert api_client_of("anonymous").put(
        f"/api/tasks/{SLUG}/pages/overview/", {"markdown": "x"}, content_type="application/json"
    ).status_code in (401, 403)
    assert not TaskPage.objects.exists()


def test_the_api_reads_and_writes_pages(task):
    organizer = api_client_of("organizer")
    written = organizer.put(
        f"/api/tasks/{SLUG}/pages/evaluation/", {"markdown": "Ranked by **F0.5**."}, content_type="application/json"
    )
    assert written.status_code == 200 and written.json()["html"] == "<p>Ranked by <strong>F0.5</strong>.</p>"
    pages = api_client_of("anonymous").get(f"/api/tasks/{SLUG}/pages/").json()["pages"]
    assert pages == {
        "evaluation": {"markdown": "Ranked by **F0.5**.", "html": "<p>Ranked by <strong>F0.5</strong>.</p>"}
    }
    unknown = organizer.put(f"/api/tasks/{SLUG}/pages/rules/", {"markdown": "x"}, content_type="application/json")
    assert unknown.status_code == 400 and "overview, data, evaluation, terms" in unknown.json()["errors"][0]["message"]


def test_pages_are_length_limited(task):
    too_long = "x" * (MAX_PAGE_CHARS + 1)
    answer = client_of("organizer").post(f"/tasks/{SLUG}/manage/pages/", {**PAGES, "overview": too_long})
    assert answer.status_code == 400 and f"at most {MAX_PAGE_CHARS}" in answer.content.decode()
    api = api_client_of("organizer").put(
        f"/api/tasks/{SLUG}/pages/overview/", {"markdown": too_long}, content_type="application/json"
    )
    assert api.status_code == 400 and not TaskPage.objects.exists()
