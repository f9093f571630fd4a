"""A participant's MultiGEC path in headless Chromium, at 1280 px and at 390 px, on a task
of three corpora ranked by GLEU: a zip of every corpus, then one corpus alone; the
upload's scores on My submissions and on its page (the macro average of the team's
entry and each corpus, with the upload each came from); the board keeps the zip's
other corpora in the entry, marks the organizers' baseline "base", and fits the page
(one corpus at a time beside the macro average when three do not), team names whole."""

import pytest
from django.contrib.auth.models import User

from leaderboard.models import SharedTask
from leaderboard.services.submissions.intake import accept_submission
from tests.conftest import browser_login
from tests.support.corpora_support import LANGUAGES, corpora_task, corpus, text, zipped

pytestmark = pytest.mark.browser
CORPORA = {"cs-natwebinf": LANGUAGES["cs"], "de-merlin": LANGUAGES["de"], "uk-ua-gec": LANGUAGES["uk"]}
TEAM = "Sprachkorrekturgruppe"  # one long word: it must not break in the middle


def write(tmp_path, name: str, content: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content)
    return str(path)


def name_corpus(page, name: str) -> None:
    """The upload form's corpus field, a text box or a list."""
    if page.locator("select[name=corpus]").count():
        page.select_option("select[name=corpus]", name)
    else:
        page.fill("input[name=corpus]", name)


def upload(page, url: str, system: str, path: str, corpus: str = "") -> None:
    page.goto(f"{url}/tasks/three/submit/")
    page.fill("input[name=system_name]", system)
    if corpus:
        name_corpus(page, corpus)
    page.set_input_files("input[name=file]", path)
    page.click("#upload-form button")
    page.wait_for_load_state()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_team_builds_its_entry_one_corpus_at_a_time(live_server, chromium, tmp_path, width):
    phase = corpora_task(
        "three",
        [corpus(name, name[:2], source, ref) for name, (source, ref) in CORPORA.items()],
        metrics=("errant", "gleu"),
    )
    SharedTask.objects.filter(pk=phase.task_id).update(headline_metric="gleu.score")
    organizer = User.objects.create_user("olga", password="pw-olga")
    phase.task.organizers.add(organizer)
    accept_submission(
        phase,
        organizer,
        system_name="copy",
        filename="copy.zip",
        is_baseline=True,
        enforce_limits=False,
        content=zipped({f"{n}.txt": text(source) for n, (source, _) in CORPORA.items()}),
    )
    User.objects.create_user(TEAM, password="pw-team")
    page = chromium.new_context(viewport={"width": width, "height": 900}).new_page()
    browser_login(page, live_server.url, TEAM, "pw-team")

    first = {
        "cs-natwebinf.txt": text(CORPORA["cs-natwebinf"][1]),
        "de-merlin.txt": text(CORPORA["de-merlin"][0]),
        "uk-ua-gec.txt": text(CORPORA["uk-ua-gec"][1]),
    }
    upload(page, live_server.url, "nmt", write(tmp_path, "all.zip", zipped(first)))
    upload(
        page,
        live_server.url,
        "nmt-de",
        write(tmp_path, "de.txt", text(CORPORA["de-merlin"][1]).encode()),
        corpus="de-merlin",
    )
    zip_id, de_id = sorted(
        User.objects.get(username=TEAM).submission_set.filter(parent__isnull=True).values_list("pk", flat=True)
    )

    page.goto(f"{live_server.url}/tasks/three/submissions/?phase=dev")
    rows = {int(r.get_attribute("data-submission")): r for r in page.locator("#my-submissions tbody tr").all()}
    de_scores = rows[de_id].locator("td.scores").inner_text()
    assert "macro average" in de_scores and "GLEU" in de_scores and f"(from #{zip_id})" in de_scores
    assert "cs-natwebinf: GLEU" in rows[zip_id].locator("td.scores").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.goto(f"{live_server.url}/tasks/three/submissions/{de_id}/")
    assert "not public yet" not in page.inner_text("body")
    assert page.locator("#scores tr").count() >= 2  # the macro average's headline scores
    corpora = {r.get_attribute("data-corpus"): r.inner_text() for r in page.locator("#corpus-outputs tbody tr").all()}
    assert (
        "this upload" in corpora["de-merlin"]
        and f"upload {zip_id}" in corpora["cs-natwebinf"]
        and f"upload {zip_id}" in corpora["uk-ua-gec"]
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.goto(f"{live_server.url}/tasks/three/")
    team_row = page.locator(f"#leaderboard tr[data-submission='{de_id}']")
    assert (
        team_row.locator("td").first.inner_text() == "1"
        and "1.0000" in team_row.locator("td[data-metric=macro]").inner_text()
    )
    assert f"from #{zip_id}" in team_row.inner_text()
    base = page.locator("#leaderboard tr.baseline td").first.inner_text()
    assert base == "base"  # never "None"
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the page itself never scrolls sideways
    table_fits = (
        "(() => { const t = document.getElementById('leaderboard'); return t.scrollWidth <= "
        "t.parentElement.clientWidth + 1; })()"
    )
    if width >= 1280:
        assert page.evaluate(table_fits)  # one corpus beside the macro average when three do not fit
    if page.locator("#corpus-picker").is_visible():
        shown = page.locator("#leaderboard thead th[data-corpus]:visible").all()
        assert len({th.get_attribute("data-corpus") for th in shown}) == 1
        page.select_option("#corpus-shown", "uk-ua-gec")
        assert {
            th.get_attribute("data-corpus") for th in page.locator("#leaderboard thead th[data-corpus]:visible").all()
        } == {"uk-ua-gec"}
        assert (
            team_row.locator("td[data-corpus=uk-ua-gec]:visible").count() == 4
            and team_row.locator("td[data-corpus=cs-natwebinf]:visible").count() == 0
        )
    page.screenshot(path=f"/tmp/multigec_entry_board_{width}px.png", full_page=True)
    lines = page.evaluate(
        """(name) => {
        const cell = [...document.querySelectorAll('#leaderboard td')].find(td => td.textContent.trim() === name);
        const range = document.createRange(); range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }""",
        TEAM,
    )
    assert lines == 1  # the team's name on one line, not broken mid-word
