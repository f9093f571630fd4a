"""The per-type page and export on the demo's M2 gold (CoNLL-2014, NUCLE types): ERRANT's
types for system and gold edits alike, no cut type name, P or R at 100 only where the row's
counts say so, and the annotators' own types as a recall-only view (page and export)."""

import re

import pytest
from django.contrib.auth.models import User

import scoring
from leaderboard import demo
from leaderboard.services.hosting.task_creation import create_task
from leaderboard.services.scoring_jobs.submission import score_submission
from leaderboard.services.submissions.intake import accept_submission
from scoring.metrics.gold_types import ERRANT_CATEGORIES
from tests.conftest import remove_insight_task

pytestmark = pytest.mark.django_db
SENTENCES = 80


@pytest.fixture(scope="module")
def demo_task(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        gold = demo.gold_blocks(0, SENTENCES)
        task = create_task("pt-demo", m2=gold, metrics=["errant"])
        organizer = User.objects.create_user("pt-demo-organizer")
        task.organizers.add(organizer)
        corpus = scoring.read_m2(gold.encode(), name="gold")
        ids = []
        for system in demo.SYSTEMS[1:3]:
            user = User.objects.create_user(f"pt-{system.name.lower()}")
            submission = accept_submission(
                task.phases.get(),
                user,
                system_name=system.name,
                filename="out.txt",
                content=demo.simulate(corpus, system).encode(),
                enforce_limits=False,
                queue=False,
            )
            score_submission(submission.pk)
            ids.append(submission.pk)
    data = {
        "task": task,
        "organizer": organizer,
        "ids": ids,
        "nucle": {line.split("|||")[1] for line in gold.splitlines() if line.startswith("A ")},
    }
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


ROW = re.compile(r'<tr data-type="([^"]*)">(.*?)</tr>', re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)


def rows_of(html: str) -> dict[str, list[str]]:
    return {etype: [re.sub(r"<[^>]+>", "", c).strip() for c in CELL.findall(body)] for etype, body in ROW.findall(html)}


def test_errant_view_has_whole_types_and_true_hundreds(demo_task, client):
    systems = "&".join(f"systems={pk}" for pk in demo_task["ids"])
    html = client.get(f"/tasks/pt-demo/per-type/?{systems}").content.decode()
    assert "ERRANT types (system and gold edits classified alike)" in html
    rows = rows_of(html)
    assert rows and set(rows) <= ERRANT_CATEGORIES | {"UNK"}
    for etype, cells in rows.items():
        for k in range(0, len(cells) - 1, 8):  # per system: TP FP FN P R F bar detection
            tp, fp, fn, p, r = cells[k + 1 : k + 6]
            if not tp.isdigit():
                continue
            assert (p == "100.0") == (int(fp) == 0 and int(tp) > 0), (etype, cells)
            assert (r == "100.0") == (int(fn) == 0 and int(tp) > 0), (etype, cells)


def test_annotator_view_is_recall_only_with_their_types(demo_task, client):
    systems = "&".join(f"systems={pk}" for pk in demo_task["ids"])
    html = client.get(f"/tasks/pt-demo/per-type/?{systems}&types=annotator").content.decode()
    assert "Annotators&#x27; own types (recall only)" in html and 'id="per-annotator-type"' in html
    rows = rows_of(html)
    assert {"ArtOrDet", "Nn"} <= set(rows) <= demo_task["nucle"]
    assert '<th class="num">FP</th>' not in html.split('id="per-annotator-type"')[1]


def test_export_offers_both_views(demo_task, client):
    client.force_login(User.objects.get(username="pt-demo-organizer"))
    systems = ",".join(map(str, demo_task["ids"]))
    query = f"/api/tasks/pt-demo/leaderboard/export?table=per_type&format=csv&systems={systems}"
    errant = client.get(query).content.decode()
    types = {line.split(",")[0] for line in errant.splitlines()[2:]}
    assert types and types <= ERRANT_CATEGORIES | {"UNK", "multi-token"}
    annotator = client.get(query + "&types=annotator").content.decode()
    assert "TP,FN,R" in annotator and "ArtOrDet" in annotator and "FP" not in annotator
