"""A MultiGEC-style task in headless Chromium: an organizer creates a task of three
corpora in two languages from a zip bundle and opens a phase of them; a participant's
zip with one corpus missing and one bad line is refused with the corpus file and line
named; a good zip is scored in the background and the board shows every corpus and the
macro average."""

import json

import pytest
from django.contrib.auth.models import Permission, User

from tests.conftest import browser_login
from tests.support.corpora_support import LANGUAGES, text, zipped

pytestmark = pytest.mark.browser
CS_SOURCE, CS_REF = LANGUAGES["cs"]
UK_SOURCE, UK_REF = LANGUAGES["uk"]
CORPORA = {"cs-natwebinf": (CS_SOURCE, CS_REF), "cs-romani": (CS_REF, CS_REF), "uk-ua-gec": (UK_SOURCE, UK_REF)}


def write(tmp_path, name: str, content: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content)
    return str(path)


def test_multigec_journey(live_server, chromium, tmp_path, settings):
    settings.GEC_TASK_MODE = "thread"
    host = User.objects.create_user("hannah", password="pw-hannah")
    host.user_permissions.add(Permission.objects.get(codename="host_tasks"))
    User.objects.create_user("pavel", password="pw-pavel")
    bundle = {
        f"{name}/{file}": content
        for name, (source, ref) in CORPORA.items()
        for file, content in (("source.txt", text(source)), ("ref1.txt", text(ref)))
    }
    bundle["uk-ua-gec/corpus.json"] = json.dumps({"language": "uk", "pipeline": "tokens"})
    organizer = chromium.new_context().new_page()
    browser_login(organizer, live_server.url, "hannah", "pw-hannah")

    organizer.click("text=Host a task")
    organizer.fill("input[name=title]", "MultiGEC journey")
    organizer.fill("input[name=slug]", "multigec")
    organizer.set_input_files("input[name=bundle]", write(tmp_path, "gold.zip", zipped(bundle)))
    for metric in ("cleme", "cleme2", "usim"):
        organizer.uncheck(f"input[name=metrics][value={metric}]")
    organizer.click("#task-form button")
    organizer.wait_for_selector("#task-status[data-finished]:has-text('Ready')", timeout=120_000)
    organizer.click("#add-phase")
    organizer.fill("input[name=kind]", "test")
    organizer.select_option("select[name=gleu_variant]", "multigec")
    organizer.select_option("select[name=results_visibility]", "public")
    assert organizer.locator("input[name=corpora]:checked").count() == 3  # the bundle's corpora
    organizer.click("#phase-form button")
    for name in CORPORA:
        assert name in organizer.inner_text("#phase-test")
    for _ in range(120):  # the corpora's gold is prepared in the background
        if "preparing" not in organizer.inner_text("#phase-test"):
            break
        organizer.wait_for_timeout(500)
        organizer.reload()

    participant = chromium.new_context().new_page()
    browser_login(participant, live_server.url, "pavel", "pw-pavel")
    participant.goto(f"{live_server.url}/tasks/multigec/submit/")
    assert participant.locator("#corpora li").count() == 3
    bad = {"cs-natwebinf.txt": text(CS_REF), "uk-ua-gec.txt": UK_REF[0] + "\nЦе \x00 ідея .\n"}  # cs-romani missing
    participant.fill("input[name=system_name]", "nmt")
    participant.set_input_files("input[name=file]", write(tmp_path, "bad.zip", zipped(bad)))
    participant.click("#upload-form button")
    assert "uk-ua-gec.txt: line 2: NUL at column 4" in participant.inner_text("ul.problems")

    good = {f"{name}.txt": text(ref) for name, (_, ref) in CORPORA.items()}
    participant.fill("input[name=system_name]", "nmt")
    participant.set_input_files("input[name=file]", write(tmp_path, "good.zip", zipped(good)))
    participant.click("#upload-form button")
    participant.wait_for_selector("#leaderboard td[data-metric=macro]:not(:has(span))", timeout=120_000)  # polled in
    board = participant.inner_text("#leaderboard")
    assert "Macro average" in board or "MACRO AVERAGE" in board.upper()
    for (
        name
    ) in CORPORA:  # each corpus's column group (one shown at a time when they do not all fit: a picker says which)
        assert (
            participant.locator(f"#leaderboard thead th[data-corpus={name}]").count() == 5
        )  # its heading and GLEU, P, R, F0.5
    assert participant.inner_text("#leaderboard td[data-metric=macro]") == "1.0000"  # the references themselves
    assert participant.locator("#leaderboard td[data-corpus=uk-ua-gec]").count() == 4  # GLEU, P, R, F0.5
