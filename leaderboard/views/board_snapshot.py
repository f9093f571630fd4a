"""The board a page shows, read once per phase, query and version.

Everyone who may see a phase's results sees the same board, and it changes only when its
version moves (:func:`leaderboard.board_version.board_changed`: a score, the pool, the
tie groups, a published campaign, the task's settings, a team's name). So its rows, the
published campaigns' columns and the extras (tie groups, tracks, corpora, notes) are read
once per (phase, metric, track, version) and kept in the fragments cache beside the
rendered fragments: the task page and its polled rows then cost the same few queries at 10
rows or 500. Who may see the board is asked before, on every request; a hidden board is
never read from here, so a copy never outlives the visibility it was made under.
"""

from __future__ import annotations

from ..campaigns.board import human_columns, with_human_columns
from ..insights.board import board_extras
from ..models import Phase
from ..standings import board_rows
from .fragment_cache import shared_value


def shown_board(phase: Phase, metric: str, track: str, version: str) -> dict:
    """``{"rows", "human", "extra"}`` of the board at ``version`` (the caller read it
    first, so a copy is never older than its key)."""
    return shared_value(("board", phase.pk, metric, track), version, lambda: read_board(phase, metric, track))


def read_board(phase: Phase, metric: str, track: str) -> dict:
    """The board as stored now: its ranked rows with their human columns, and the extras."""
    rows = board_rows(phase.pk, metric)
    human = human_columns(phase)
    rows = with_human_columns(rows, human) if human else rows
    return {"rows": rows, "human": human, "extra": board_extras(phase, rows, metric, track)}


def hidden_board(phase: Phase, metric: str, track: str) -> dict:
    """What a viewer who may not see the results gets: no row, no column."""
    return {"rows": [], "human": [], "extra": board_extras(phase, [], metric, track)}
