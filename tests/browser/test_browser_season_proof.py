"""The season's safe defaults and every screen, in headless Chromium on a fresh database:
an organizer opens a dev and a hidden test phase; a participant submits with gec-submit
without ``--phase`` and lands in dev; every table shows its scores at 390 px; revealing
the test results asks before acting; the demo's per-type page (M2 gold with NUCLE types)
has no cut type name and no row with P or R at 100 unless its counts say so."""

import io
import re

import pytest
from django.contrib.auth.models import Permission, User

import scoring
from leaderboard import demo
from leaderboard.models import Phase, Submission
from leaderboard.services.hosting.task_creation import create_task
from leaderboard.services.scoring_jobs.submission import score_submission
from leaderboard.services.submissions.intake import accept_submission
from leaderboard_client.cli import main
from scoring.metrics.gold_types import ERRANT_CATEGORIES
from tests.browser.test_browser_phone_tables import PARTICIPANT_PAGES, WIDTH, in_view
from tests.conftest import SUBSET_OUTPUTS, SUBSET_REFS, browser_login, insight_head

pytestmark = pytest.mark.browser
LINES = 10


def open_phases(page, url):
    """The organizer adds a public dev phase and a hidden test phase on the same gold."""
    for kind in ("dev", "test"):
        page.goto(f"{url}/tasks/season/phases/new/")
        page.fill("input[name=kind]", kind)
        page.fill("input[name=starts_at]", "2026-01-01T00:00")
        page.fill("input[name=ends_at]", "2030-01-01T00:00")
        page.click("#phase-form button")
    assert "public while open" in page.inner_text("#phase-dev") and "organizers only" in page.inner_text("#phase-test")


def gec_submit(url, tmp_path, monkeypatch, capsys) -> str:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr("sys.stdin", io.StringIO("pw-alice\n"))
    assert main(["--server", url, "login", "alice", "--password-stdin"]) == 0
    output = tmp_path / "t5.txt"
    output.write_text(insight_head(SUBSET_OUTPUTS / "T5.txt", LINES), encoding="utf-8")
    assert main(["submit", "season", str(output), "--system", "t5", "--interval", "0.2"]) == 0
    return capsys.readouterr().out


def test_season(live_server, chromium, tmp_path, monkeypatch, capsys):
    url = live_server.url
    organizer = User.objects.create_user("olive", password="pw-olive")
    organizer.user_permissions.add(Permission.objects.get(codename="host_tasks"))
    task = create_task(
        "season",
        title="Season",
        source=insight_head(SUBSET_OUTPUTS / "INPUT.txt", LINES),
        references=[(p.stem, insight_head(p, LINES)) for p in SUBSET_REFS],
        metrics=["errant", "gotoscorer", "cleme2"],
    )
    Phase.objects.filter(task=task).delete()  # the organizer opens the phases from the page
    task.organizers.add(organizer)
    for name in ("alice", "bob"):
        User.objects.create_user(name, password=f"pw-{name}")
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    browser_login(page, url, "olive", "pw-olive")
    open_phases(page, url)

    # the participant leaves --phase out: the upload lands in dev (public), not in the hidden test
    printed = gec_submit(url, tmp_path, monkeypatch, capsys)
    assert "to the dev phase" in printed and "scored" in printed
    assert list(Submission.objects.values_list("phase__kind", flat=True)) == ["dev"]
    bob = accept_submission(
        Phase.objects.get(task=task, kind="dev"),
        User.objects.get(username="bob"),
        system_name="bart",
        filename="b.txt",
        content=insight_head(SUBSET_OUTPUTS / "BART.txt", LINES).encode(),
        queue=False,
    )
    score_submission(bob.pk)

    # every table's scores at 390 px
    phone = chromium.new_context(viewport={"width": WIDTH, "height": 844}).new_page()
    browser_login(phone, url, "alice", "pw-alice")
    for path, selectors in PARTICIPANT_PAGES.items():
        phone.goto(url + path.replace("/phone/", "/season/"))
        assert phone.evaluate("document.documentElement.scrollWidth") <= WIDTH, path
        for selector in selectors:
            assert in_view(phone, selector)["inside"], (path, selector)
    phone.screenshot(path="/tmp/season_proof_cleme2_390.png", full_page=True)

    # revealing the test results asks first, saying what becomes public
    page.goto(f"{url}/tasks/season/?phase=test")
    page.click("#organizer-tools button:has-text('Reveal results')")
    assert "become public" in page.inner_text("#consequence")
    assert not Phase.objects.get(task=task, kind="test").revealed
    page.click("#confirm-form button")
    page.wait_for_load_state()
    assert Phase.objects.get(task=task, kind="test").revealed


def test_demo_per_type_page_tells_the_truth(live_server, chromium):
    gold = demo.gold_blocks(0, 60)
    task = create_task("demo-types", m2=gold, metrics=["errant"])
    corpus = scoring.read_m2(gold.encode(), name="gold")
    ids = []
    for system in demo.SYSTEMS[1:3]:
        submission = accept_submission(
            task.phases.get(),
            User.objects.create_user(system.name.lower()),
            system_name=system.name,
            filename="o.txt",
            content=demo.simulate(corpus, system).encode(),
            enforce_limits=False,
            queue=False,
        )
        score_submission(submission.pk)
        ids.append(submission.pk)
    page = chromium.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{live_server.url}/tasks/demo-types/per-type/?" + "&".join(f"systems={pk}" for pk in ids))
    types = page.eval_on_selector_all("#per-type tr[data-type]", "rows => rows.map(r => r.dataset.type)")
    assert types and set(types) <= ERRANT_CATEGORIES | {"UNK"} and "" not in types
    for row in page.eval_on_selector_all(
        "#per-type tr[data-type]", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))"
    ):
        for k in range(1, len(row) - 7, 8):
            tp, fp, fn, p, r = row[k : k + 5]
            if tp.isdigit():
                assert (p == "100.0") == (fp == "0" and tp != "0"), row
                assert (r == "100.0") == (fn == "0" and tp != "0"), row
    page.screenshot(path="/tmp/season_proof_demo_per_type.png", full_page=True)
    page.select_option("select[name=types]", "annotator")
    page.click("#pick button")
    assert "Annotators' own types (recall only)" in page.inner_text("#view-name")
    assert re.search(r"\bArtOrDet\b", page.inner_text("#per-annotator-type"))
