"""A metric the platform's code never names (GLEU) reaches the board, its menu, the API,
exports and tie groups through the metric registry alone."""

import csv
import io
import json

import pytest

from tests.conftest import build_insight_task, remove_insight_task

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def gleu_task(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        data = build_insight_task("gleu-board", lines=40, metrics=["errant", "gleu"])
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def test_board_ranks_by_gleu_with_tie_groups(gleu_task, client):
    html = client.get("/tasks/gleu-board/", {"metric": "gleu.score"}).content.decode()
    menu = html.split('name="metric"')[1].split("</select>")[0]
    assert 'value="gleu.score" selected>GLEU</option>' in menu
    assert 'title="ranked by GLEU">GLEU</th>' in html
    assert 'id="ties-note"' in html and "per-sentence GLEU statistics" in html


def test_api_ranks_by_gleu(gleu_task, client):
    body = json.loads(client.get("/api/tasks/gleu-board/leaderboard/", {"metric": "gleu.score"}).content)
    values = [row["scores"]["gleu"]["score"] for row in body["rows"]]
    assert len(values) == 4 and values == sorted(values, reverse=True) and all(0 <= v <= 1 for v in values)


def test_export_has_a_gleu_column_as_a_percentage(gleu_task, client):
    client.force_login(gleu_task["organizer"])
    rows = list(
        csv.reader(
            io.StringIO(client.get("/api/tasks/gleu-board/leaderboard/export", {"format": "csv"}).content.decode())
        )
    )
    assert rows[0][3:] == ["ERRANT cs F", "GLEU score"]
    markdown = client.get(
        "/api/tasks/gleu-board/leaderboard/export", {"format": "md", "metrics": "gleu.score,errant.cs.tp"}
    ).content.decode()
    first = markdown.splitlines()[4].split("|")
    assert "." in first[4] and "." not in first[5]  # GLEU in percent, TP a count
