"""M2, which no module of ``leaderboard/`` names, reaches the board, its menu, the API,
exports, tie groups and the per-type page through the metric registry alone."""

import csv
import io
import json

import pytest

from tests.conftest import build_insight_task, remove_insight_task

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def m2_task(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        data = build_insight_task("m2-board", lines=40, metrics=["errant", "m2"])
    yield data
    with django_db_blocker.unblock():
        remove_insight_task(data)


def test_board_ranks_by_m2_with_tie_groups(m2_task, client):
    html = client.get("/tasks/m2-board/", {"metric": "m2.f"}).content.decode()
    menu = html.split('name="metric"')[1].split("</select>")[0]
    assert 'value="m2.f" selected>M2 F</option>' in menu and 'value="m2.p">M2 P</option>' in menu
    assert 'value="m2.fp"' not in menu  # a count: ?metric= still takes it, the list offers headline scores
    assert 'id="ties-note"' in html


def test_api_ranks_by_m2(m2_task, client):
    body = json.loads(client.get("/api/tasks/m2-board/leaderboard/", {"metric": "m2.f"}).content)
    values = [row["scores"]["m2"]["f"] for row in body["rows"]]
    assert len(values) == 4 and values == sorted(values, reverse=True)
    baseline = next(row for row in body["rows"] if row["system_name"] == "INPUT")["scores"]["m2"]
    assert (baseline["tp"], baseline["fp"], baseline["f"]) == (0, 0, 0.0)


def test_export_has_m2_columns(m2_task, client):
    client.force_login(m2_task["organizer"])
    rows = list(
        csv.reader(
            io.StringIO(
                client.get(
                    "/api/tasks/m2-board/leaderboard/export", {"format": "csv", "metrics": "m2.f,m2.tp"}
                ).content.decode()
            )
        )
    )
    assert rows[0][3:] == ["M2 F", "M2 tp"]


def test_per_type_page_shows_m2_types(m2_task, client):
    subs = m2_task["submissions"]
    response = client.get("/tasks/m2-board/per-type/", {"metric": "m2", "systems": [subs["T5"].pk, subs["BART"].pk]})
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-type="R:' in html or 'data-type="M:' in html
