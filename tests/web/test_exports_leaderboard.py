"""GET /api/tasks/<slug>/leaderboard/export?format=csv|json|tex|md (docs/contracts.md section 3)."""

import csv
import io
import json

import pytest

from leaderboard.insights.exports import Table, latex_escape, to_latex

pytestmark = pytest.mark.django_db
URL = "/api/tasks/insight/leaderboard/export"


@pytest.fixture
def organizer_client(insight_task, client):
    client.force_login(insight_task["organizer"])
    return client


def test_csv_has_the_ranking_in_board_order(organizer_client):
    response = organizer_client.get(URL, {"format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert 'filename="insight-dev-leaderboard.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["Rank", "Team", "System", "ERRANT cs F"]
    assert [r[2] for r in rows[1:]][-1] == "INPUT" and len(rows) == 5
    values = [float(r[3]) for r in rows[1:]]
    assert values == sorted(values, reverse=True) and all(0 <= v <= 1 for v in values)


def test_json_rows_are_keyed_by_column(organizer_client):
    body = json.loads(organizer_client.get(URL, {"format": "json", "metrics": "errant.cs.p,gotoscorer.f"}).content)
    assert body["columns"] == ["Rank", "Team", "System", "ERRANT cs P", "GTS F"]
    assert {r["System"] for r in body["rows"]} == {"T5", "BART", "GECToR-BERT", "INPUT"}


def test_tex_is_a_booktabs_table_ready_to_paste(organizer_client):
    text = organizer_client.get(URL, {"format": "tex", "metric": "gotoscorer.f"}).content.decode()
    assert text.index("\\toprule") < text.index("\\midrule") < text.index("\\bottomrule")
    assert "\\begin{tabular}{rllrr" in text and "|" not in text.split("\\begin{tabular}")[1].split("}")[0]
    assert "\\textbf{" in text and "\\textit{INPUT}" in text and "ranked by gotoscorer.f" in text
    assert text.count("\\\\") == 1 + 4  # header and four systems


def test_markdown_prints_percentages(organizer_client):
    text = organizer_client.get(URL, {"format": "md"}).content.decode()
    lines = text.splitlines()
    assert lines[2].startswith("| Rank | Team | System | ERRANT cs F")
    assert lines[3].startswith("|---:|---|---|---:")
    assert "*INPUT*" in text and "| 0.00 |" not in lines[4]


def test_per_type_table_exports_too(organizer_client, insight_task):
    subs = insight_task["submissions"]
    text = organizer_client.get(
        URL, {"format": "tex", "table": "per_type", "cat": "1", "systems": f"{subs['T5'].pk},{subs['BART'].pk}"}
    ).content.decode()
    assert "\\multicolumn{8}{c}{alice/T5}" in text and "\\cmidrule(lr){2-9}" in text and "\\cmidrule(lr){10-17}" in text
    for etype in ("M", "R", "U"):
        assert f"\n{etype} & " in text


def test_bad_requests_say_what_is_wrong(organizer_client):
    assert organizer_client.get(URL, {"format": "xlsx"}).status_code == 400
    assert "errant.nope" in organizer_client.get(URL, {"format": "csv", "metrics": "errant.nope"}).content.decode()
    assert organizer_client.get(URL, {"format": "csv", "table": "per_type"}).status_code == 400


def test_participants_and_visitors_cannot_export(insight_task, client):
    from django.contrib.auth.models import User

    assert client.get(URL, {"format": "csv"}).status_code in (401, 403)
    client.force_login(User.objects.get(username="alice"))
    assert client.get(URL, {"format": "csv"}).status_code == 403


def test_latex_escapes_team_names():
    assert latex_escape("a_b & 50% #1 {x}") == r"a\_b \& 50\% \#1 \{x\}"
    text = to_latex(Table("t", ["Rank", "Team", "System", "F"], [[1, "R&D_lab", "sys~1", 0.5]], {3}))
    assert r"R\&D\_lab & sys\textasciitilde{}1 & \textbf{50.00}" in text


def test_board_has_export_buttons_for_organizers_only(insight_task, client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.get(username="alice"))
    assert 'id="organizer-tools"' not in client.get("/tasks/insight/").content.decode()
    client.force_login(insight_task["organizer"])
    html = client.get("/tasks/insight/", {"metric": "gotoscorer.f"}).content.decode()
    for fmt in ("csv", "json", "tex", "md"):
        assert f"/api/tasks/insight/leaderboard/export?format={fmt}&amp;phase=dev&amp;metric=gotoscorer.f" in html
