"""Tables organizers paste into the overview paper: CSV, JSON, Markdown and LaTeX (booktabs).

A table is columns, column groups and rows of plain values; one renderer per format
turns it into a file. Names come from participants, so every renderer neutralises what
its format would act on: a CSV cell that a spreadsheet would run as a formula, Markdown
and HTML in a Markdown cell, LaTeX commands and line breaks. Scores are fractions in [0, 1] (docs/contracts.md section
2); the
Markdown and LaTeX versions print them as percentages with two decimals, as papers do,
and the LaTeX one sets the best score of each column in bold (baselines excluded).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring import is_count, label, value_at
from scoring.fields.spreadsheet import safe_cell

FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "json": "application/json",
    "md": "text/markdown; charset=utf-8",
    "tex": "application/x-tex; charset=utf-8",
}


@dataclass
class Table:
    caption: str
    columns: list[str]
    rows: list[list]
    score_columns: set[int] = field(default_factory=set)  # fractions: printed as percent
    groups: list[tuple[str, int]] = field(default_factory=list)  # a header row above columns
    baseline_rows: set[int] = field(default_factory=set)


def leaderboard_table(
    rows: list[dict],
    metrics: list[str],
    caption: str,
    corpora: Sequence[tuple[str, list[str]]] = (),
    human: Sequence[dict] = (),
) -> Table:
    """Rank, team, system and one column per metric path, in board order; counts (as the
    metric declares them) print as they are, fractions as percentages. ``corpora``: for a
    phase of several corpora, ``(corpus, paths)`` each: the metric columns are then the
    macro average, followed by each corpus's own columns, a group per corpus. ``human``:
    published human evaluation campaigns, a group each (:func:`with_human`)."""
    paths = [*metrics, *(path for _, corpus_paths in corpora for path in corpus_paths)]
    columns = ["Rank", "Team", "System", *(label(m) for m in paths)]
    body = [
        [
            r["rank"],
            r["team"],
            r["system_name"],
            *(value_at(r["scores"], m) for m in metrics),
            *(
                value_at(r["corpora"].get(corpus) or {}, path)
                for corpus, corpus_paths in corpora
                for path in corpus_paths
            ),
        ]
        for r in rows
    ]
    scores = {3 + k for k, m in enumerate(paths) if not is_count(m)}
    baselines = {k for k, r in enumerate(rows) if r.get("baseline")}
    groups = (
        [("", 3), ("macro average", len(metrics)), *((corpus, len(corpus_paths)) for corpus, corpus_paths in corpora)]
        if corpora
        else []
    )
    table = Table(caption, columns, body, scores, groups, baselines)
    return with_human(table, rows, human) if human else table


def with_human(table: Table, rows: list[dict], human: Sequence[dict]) -> Table:
    """A published human evaluation column's group (``standings.column_heads``): Expected Wins
    (a fraction) of a ranking campaign, or the mean z-score of a rating campaign's scale, and
    the cluster."""
    width = len(table.columns)
    groups = table.groups or [("", width)]
    for column in human:
        table.score_columns.add(len(table.columns))
        table.columns += [column["figure"], "cluster"]
        groups.append((f"human: {column['name']}", 2))
        figure = "z" if column["figure"] == "z" else "expected_wins"
        for line, row in zip(table.rows, rows):
            cell = (row.get("human") or {}).get(column["name"]) or {}
            line += [cell.get(figure), cell.get("cluster")]
    table.groups = groups
    return table


def per_type_table(comparison: dict, caption: str) -> Table:
    """Type, then per system: TP, FP, FN, P, R, F (correction) and each detection mode's F."""
    detection_modes = comparison.get("detection_modes", ())
    per_system = ["TP", "FP", "FN", "P", "R", "F", *(f"{m} F" for m in detection_modes)]
    columns = ["Type", *(c for _ in comparison["systems"] for c in per_system)]
    scores = {1 + k * len(per_system) + j for k in range(len(comparison["systems"])) for j in range(3, len(per_system))}
    body = []
    for row in comparison["rows"]:
        line = [row["type"]]
        for cell in row["cells"]:
            cs = cell.get("cs", {})
            line += [cs.get("tp"), cs.get("fp"), cs.get("fn"), cs.get("p"), cs.get("r"), cs.get("f")]
            line += [cell.get(m, {}).get("f") for m in detection_modes]
        body.append(line)
    groups = [("", 1), *((name, len(per_system)) for name in comparison["systems"])]
    return Table(caption, columns, body, scores, groups)


def annotator_type_table(comparison: dict, caption: str) -> Table:
    """Type (the gold annotators' own), then per system: TP, FN and recall."""
    per_system = ["TP", "FN", "R"]
    columns = ["Type", *(c for _ in comparison["systems"] for c in per_system)]
    scores = {1 + k * len(per_system) + 2 for k in range(len(comparison["systems"]))}
    body = [
        [row["type"], *(v for cell in row["cells"] for v in (cell.get("tp"), cell.get("fn"), cell.get("r")))]
        for row in comparison["rows"]
    ]
    groups = [("", 1), *((name, len(per_system)) for name in comparison["systems"])]
    return Table(caption, columns, body, scores, groups)


csv_cell = safe_cell  # the project's one CSV escaping (scoring/fields/spreadsheet.py), named for this module's callers


def to_csv(table: Table) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180; and a CR or LF in a cell then gets the cell quoted
    if table.groups:
        writer.writerow([csv_cell(name) for name, span in table.groups for _ in range(span)])
    writer.writerow([csv_cell(c) for c in table.columns])
    writer.writerows([[csv_cell(v) for v in row] for row in table.rows])
    return out.getvalue()


def to_json(table: Table) -> str:
    groups = [name for name, span in table.groups for _ in range(span)] if table.groups else None
    keys = [f"{g} {c}".strip() for g, c in zip(groups, table.columns)] if groups else table.columns
    return json.dumps(
        {"caption": table.caption, "columns": keys, "rows": [dict(zip(keys, row)) for row in table.rows]}, indent=1
    )


def _cell(table: Table, column: int, value) -> str:
    if value is None:
        return "\u2013"
    if column in table.score_columns and isinstance(value, int | float):
        return f"{100 * value:.2f}"
    return str(value)


MARKDOWN_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", **{ch: "\\" + ch for ch in "\\|*_`[]#~"}}


def markdown_escape(text: str) -> str:
    """One table cell's worth of plain text: no HTML, no Markdown markup, no line break."""
    return "".join(MARKDOWN_ESCAPES.get(ch, ch) for ch in " ".join(text.split()))


def to_markdown(table: Table) -> str:
    columns = [f"{g} {c}".strip() for (g, c) in zip(_spread(table), table.columns)] if table.groups else table.columns
    lines = [f"**{markdown_escape(table.caption)}**", "", "| " + " | ".join(markdown_escape(c) for c in columns) + " |"]
    lines.append("|" + "|".join("---:" if _numeric(table, k) else "---" for k in range(len(columns))) + "|")
    for r, row in enumerate(table.rows):
        cells = [markdown_escape(_cell(table, k, v)) for k, v in enumerate(row)]
        if r in table.baseline_rows:
            cells = [f"*{c}*" if c else c for c in cells]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _spread(table: Table) -> list[str]:
    return [name for name, span in table.groups for _ in range(span)]


LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}


def latex_escape(text: str) -> str:
    """Plain text in a table cell: specials escaped, line breaks (a blank line would end
    the row's paragraph) and control characters made spaces."""
    return "".join(LATEX_SPECIALS.get(ch, ch) for ch in " ".join(text.split()))


def _best(table: Table) -> dict[int, float]:
    best = {}
    for k in table.score_columns:
        values = [
            row[k]
            for r, row in enumerate(table.rows)
            if r not in table.baseline_rows and isinstance(row[k], int | float)
        ]
        if values:
            best[k] = max(values)
    return best


def _numeric(table: Table, column: int) -> bool:
    values = [row[column] for row in table.rows if row[column] is not None]
    return bool(values) and all(isinstance(v, int | float) for v in values)


def to_latex(table: Table) -> str:
    """A booktabs ``table`` environment: \\toprule, \\midrule, \\bottomrule, no vertical rules."""
    align = "".join("r" if _numeric(table, k) else "l" for k in range(len(table.columns)))
    best = _best(table)
    lines = [
        "% \\usepackage{booktabs}",
        "\\begin{table}[t]",
        "\\centering",
        "\\small",
        f"\\begin{{tabular}}{{{align}}}",
        "\\toprule",
    ]
    if table.groups:
        heads, rules, column = [], [], 1
        for name, span in table.groups:
            heads.append(f"\\multicolumn{{{span}}}{{c}}{{{latex_escape(name)}}}" if span > 1 else latex_escape(name))
            if name:
                rules.append(f"\\cmidrule(lr){{{column}-{column + span - 1}}}")
            column += span
        lines += [" & ".join(heads) + " \\\\", " ".join(rules)]
    lines.append(" & ".join(latex_escape(c) for c in table.columns) + " \\\\")
    lines.append("\\midrule")
    for r, row in enumerate(table.rows):
        cells = []
        for k, value in enumerate(row):
            text = latex_escape(_cell(table, k, value)) if value is not None else "--"
            if k in best and value == best[k] and r not in table.baseline_rows:
                text = f"\\textbf{{{text}}}"
            elif r in table.baseline_rows:
                text = f"\\textit{{{text}}}"
            cells.append(text)
        lines.append(" & ".join(cells) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", f"\\caption{{{latex_escape(table.caption)}}}", "\\end{table}"]
    return "\n".join(lines) + "\n"


RENDERERS = {"csv": to_csv, "json": to_json, "md": to_markdown, "tex": to_latex}


def render(table: Table, fmt: str) -> tuple[str, str]:
    """``(text, content type)``; ValueError for an unknown format."""
    if fmt not in RENDERERS:
        raise ValueError(f"format must be one of {', '.join(RENDERERS)}")
    return RENDERERS[fmt](table), FORMATS[fmt]
