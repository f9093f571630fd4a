"""What the board asks of human evaluation: the columns its published campaigns add.

The slice's one interface to the board (``standings``, the board's page and its export):
each published campaign of the phase adds the columns its mode names
(:meth:`leaderboard.campaigns.registry.CampaignMode.columns`), and each board row gets
its cell of each column. A rating campaign's built-in outputs (ORIGINAL, REFERENCE:
:mod:`leaderboard.campaigns.services.builtin`) are no board row: each column carries their
cells apart (``builtin``), which the board shows as marked reference rows at its foot.
"""

from __future__ import annotations

from ..models import Campaign, Submission
from .registry import mode_named

BUILTIN_LABELS = {"ORIGINAL": "ORIGINAL (uncorrected input)", "REFERENCE": "REFERENCE (first reference)"}


def human_columns(phase) -> list[dict]:
    """The board's column groups of the phase's published campaigns, in the order they were made:
    ``[{"name", "campaign", "figure", "by_submission": {id: cell}, "by_system": {(team, system): cell}}]``.

    A ranking campaign is one column, named as the campaign, of Expected Wins (``figure``
    ``"EW"``; cells ``{"expected_wins", "cluster"}``); a rating campaign is one column per
    scale, named ``campaign:scale``, of the mean per-annotator z-score (``"z"``; cells
    ``{"z", "mean", "cluster"}``, WMT's DA figure and its clusters; and its ``scale``). ``by_system`` keeps a
    judged team's cell after it uploads again under the same name: the figures stay those
    of the submission the campaign judged. ``builtin``: ``{"ORIGINAL"/"REFERENCE": cell}``
    of the built-in outputs the campaign rated (empty for the others)."""
    campaigns = list(  # the figures only, not the results' resampled scores
        Campaign.objects.filter(phase=phase, published=True)
        .order_by("created_at", "pk")
        .values_list("name", "mode", "scales", "results__systems", "results__system_ids", "results__builtin")
    )
    judged = {pk for *_, ids, _builtin in campaigns for pk in (ids or {}).values() if pk > 0}
    names = {
        pk: (team, system)
        for pk, team, system in Submission.objects.filter(pk__in=judged).values_list("pk", "team__name", "system_name")
    }
    columns = []
    for name, mode, scales, systems, ids, builtin in campaigns:
        for column in mode_named(mode).columns(name, scales, systems or {}):
            scale = {} if column.scale is None else {"scale": column.scale}
            cells = {system: cell for system, cell in column.cells.items() if system not in (builtin or {})}
            built_in = {system: column.cells[system] for system in builtin or {} if column.cells.get(system)}
            shown = human_column(column.name, name, column.figure, cells, ids or {}, names)
            columns.append({**scale, **shown, "builtin": built_in})
    return columns


def human_column(name: str, campaign: str, figure: str, cells: dict, ids: dict, names: dict) -> dict:
    """One column: the cells of the judged systems, by submission and by (team, system name)."""
    by_submission = {ids[system]: cell for system, cell in cells.items() if system in ids and cell}
    by_system = {names[pk]: cell for pk, cell in by_submission.items() if pk in names}
    return {
        "name": name,
        "campaign": campaign,
        "figure": figure,
        "by_submission": by_submission,
        "by_system": by_system,
    }


def column_heads(columns: list[dict]) -> list[dict]:
    """What a board's header and an export need of each column: ``name``, ``campaign``,
    ``figure`` and ``scale`` (None for a ranking campaign's)."""
    return [{key: column.get(key) for key in ("name", "campaign", "figure", "scale")} for column in columns]


def human_cell(row: dict, column: dict) -> dict | None:
    """The row's submission's figures, else its team's judged system of that name."""
    found = column["by_submission"].get(row["submission_id"])
    return found or column.get("by_system", {}).get((row.get("team"), row.get("system_name")))


def builtin_rows(columns: list[dict]) -> list[dict]:
    """The board's foot: one row per built-in output any column rated, ``{"name", "label",
    "cells": [its cell or None per column]}``, in the order ORIGINAL, REFERENCE."""
    return [
        {"name": name, "label": label, "cells": [column.get("builtin", {}).get(name) for column in columns]}
        for name, label in BUILTIN_LABELS.items()
        if any(column.get("builtin", {}).get(name) for column in columns)
    ]


def builtin_cells(columns: list[dict]) -> dict:
    """The board API's ``builtin``: ``{column name: {"ORIGINAL"/"REFERENCE": cell}}`` of the
    columns that rated built-in outputs."""
    return {column["name"]: column["builtin"] for column in columns if column.get("builtin")}


def with_human_columns(rows: list[dict], columns: list[dict]) -> list[dict]:
    """Each board row with ``human``: ``{column name: its cell or None}``."""
    return [{**row, "human": {c["name"]: human_cell(row, c) for c in columns}} for row in rows]
