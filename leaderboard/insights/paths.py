"""The board's metric menu: every stored number a leaderboard can be ranked by."""
from __future__ import annotations

from scoring import flatten, valid_paths


def metric_menu(rows: list[dict]) -> list[str]:
    """The paths any row has, in the registry's order (headline scores first), then any
    path no registered metric declares, sorted."""
    seen: set[str] = set()
    for row in rows:
        seen.update(flatten(row["scores"]))
    known = [path for path in valid_paths() if path in seen]
    return known + sorted(seen.difference(known))


def metric_paths(phase) -> list[str]:
    """Every path ``phase``'s board can be ranked by, the valid values of ``?metric=``: the
    registry's paths of the task's metrics."""
    return valid_paths(phase.task.metric_names())
