"""CLEME2.0 pages: Hit/Error/Under/Over bars per system, and the coloured sentence viewer."""

import re

import pytest

from leaderboard.insights.cleme2 import segments
from tests.conftest import ensure_cleme2_results

SOURCE = ["He", "go", "to", "school", "yesterday", "."]


def test_segments_colour_each_chunk_and_keep_the_rest_plain():
    records = [
        [1, 1, 2, "went", ["went"], ["TP"], "TP"],
        [3, 3, 4, "schools", ["school"], ["FP_un"], "FP_un"],
        [4, 4, 5, None, ["last week"], ["FN"], "FN"],
    ]
    parts = segments(SOURCE, records, show_references=False)
    assert [(p["text"], p["cls"]) for p in parts] == [
        ("He", ""),
        ("went", "TP"),
        ("to", ""),
        ("schools", "FP_un"),
        ("yesterday", "FN"),
        (".", ""),
    ]
    assert all("last week" not in p.get("title", "") for p in parts)  # a participant never sees a reference
    organizer = segments(SOURCE, records, show_references=True)
    assert "ref 0: last week" in organizer[4]["title"]


def test_a_chunk_only_some_references_change_is_plain_text_to_participants():
    records = [[4, 4, 4, None, ["today", None], ["FN", "TN"], "TN"]]
    assert all(
        "cls" in p and not p["cls"] and "title" not in p for p in segments(SOURCE, records, show_references=False)
    )
    organizer = segments(SOURCE, records, show_references=True)
    assert any("ref 0: today" in p.get("title", "") for p in organizer)


def test_a_deletion_shows_the_source_struck_through():
    parts = segments(SOURCE, [[2, 2, 3, "", [None], ["FP_un"], "FP_un"]], show_references=False)
    assert parts[1] == {
        "text": "to",
        "cls": "FP_un",
        "title": "over-correction: to \u2192 (deleted)",
        "deleted": True,
        "chunk": 2,
    }


@pytest.fixture(scope="module")
def cleme2_task(insight_task, django_db_blocker):
    with django_db_blocker.unblock():
        ensure_cleme2_results(insight_task["submissions"].values())
    return insight_task


def user(name):
    from django.contrib.auth.models import User

    return User.objects.get(username=name)


@pytest.mark.django_db
def test_bars_per_system_with_hit_error_under_over(cleme2_task, client):
    html = client.get("/tasks/insight/cleme2/").content.decode()
    table = html.split('id="cleme2-bars"')[1].split("</table>")[0]
    for system in ("alice/T5", "bob/BART", "carol/GECToR-BERT", "INPUT (baseline)"):
        assert system in table
    for kind in ("hit", "error", "under"):
        assert re.search(rf'<span class="{kind}" style="width:[\d.]+%"', table)
    assert "sentences</a>" not in table  # anonymous visitors see no one's outputs


@pytest.mark.django_db
def test_participant_sees_only_their_own_sentences(cleme2_task, client):
    client.force_login(user("alice"))
    html = client.get("/tasks/insight/cleme2/").content.decode()
    own = cleme2_task["submissions"]["T5"].pk
    assert html.count("sentences</a>") == 1 and f"/cleme2/{own}/" in html
    page = client.get(f"/tasks/insight/cleme2/{own}/")
    assert page.status_code == 200
    classes = set(re.findall(r'data-class="(\w+)"', page.content.decode()))
    assert "TP" in classes and classes <= {"TP", "FP_ne", "FP_un", "FN", ""}
    assert "ref 0:" not in page.content.decode()
    other = cleme2_task["submissions"]["BART"].pk
    assert client.get(f"/tasks/insight/cleme2/{other}/").status_code == 403


@pytest.mark.django_db
def test_organizer_sees_every_system_with_the_references(cleme2_task, client):
    client.force_login(cleme2_task["organizer"])
    html = client.get("/tasks/insight/cleme2/").content.decode()
    assert html.count("sentences</a>") == 4
    page = client.get(
        f"/tasks/insight/cleme2/{cleme2_task['submissions']['BART'].pk}/", {"outcome": "FN"}
    ).content.decode()
    assert "ref 0:" in page
    blocks = page.split('class="sentence"')[1:]
    assert blocks and all('data-class="FN"' in b for b in blocks)


@pytest.mark.django_db
def test_a_task_without_cleme2_has_no_cleme2_tab(client):
    from leaderboard.services.hosting.task_creation import create_task

    create_task("plain-errant", source="a b .\n", references=[("r", "a c .\n")], metrics=["errant"])
    create_task("with-cleme2", source="a b .\n", references=[("r", "a c .\n")], metrics=["errant", "cleme2"])
    page = client.get("/tasks/plain-errant/").content.decode()
    assert "Per error type" in page and "/tasks/plain-errant/cleme2/" not in page and ">CLEME2.0<" not in page
    assert client.get("/tasks/plain-errant/cleme2/").status_code == 404
    assert "/tasks/with-cleme2/cleme2/" in client.get("/tasks/with-cleme2/").content.decode()
