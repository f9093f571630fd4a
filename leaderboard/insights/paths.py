"""The board's metric menu: every stored number a leaderboard can be ranked by."""

from __future__ import annotations

import functools

from scoring import REGISTRY, flatten, headline_scores, is_reference_free, valid_paths, value_at

SIMILARITY_PATHS = "cleme2.sim."  # scored only on tasks with similarity-weighted CLEME2.0


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
    return list(paths_of(tuple(phase.task.metric_names()), len(REGISTRY)))


@functools.lru_cache(maxsize=64)
def paths_of(metric_names: tuple[str, ...], registered: int) -> tuple[str, ...]:
    """:func:`scoring.valid_paths`, once per metric list: every poll of a board ranked by
    an explicit ``?metric=`` checks it (``registered``: a metric registered later is a new key)."""
    return tuple(valid_paths(metric_names))


def rank_by_choices(task, rows: list[dict]) -> list[tuple[str, str]]:
    """The one "Rank by" list, and the board's score columns: the headline scores of the
    task's metrics as ``(path, label)``, without similarity-weighted CLEME2.0 on a task
    that does not score it, and, once the board has rows, without a score no row has."""
    paths = [
        (s.path, s.label)
        for s in headline_scores(task.metric_names())
        if task.sim or not s.path.startswith(SIMILARITY_PATHS)
    ]
    paths.sort(key=lambda choice: is_reference_free(choice[0]))  # a column group of their own, last
    return [
        (path, name) for path, name in paths if not rows or any(value_at(r["scores"], path) is not None for r in rows)
    ]


def reference_free_columns(choices: list[tuple[str, str]]) -> list[str]:
    """The paths among a board's ``(path, label)`` columns that need no reference (Scribendi,
    SOME, IMPARA): the board shows them as a group of their own."""
    return [path for path, _ in choices if is_reference_free(path)]
