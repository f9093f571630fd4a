"""Metric paths (``errant.cs.f``): every stored number a leaderboard can be ranked by."""
from __future__ import annotations

from django.core.cache import cache

from scoring import HEADLINE_SCORES

from ..ranking import DEFAULT_METRICS, board_rows

# Bookkeeping numbers of a scores object, not scores.
NOT_SCORES = frozenset({"ref", "pool_size"})


def score_paths(scores: dict, prefix: str = "") -> list[str]:
    """Every numeric leaf of a system's scores object, per-type tables left out."""
    paths = []
    for key, value in scores.items():
        if key.startswith("per_type") or key in NOT_SCORES:
            continue
        if isinstance(value, dict):
            paths.extend(score_paths(value, f"{prefix}{key}."))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            paths.append(f"{prefix}{key}")
    return paths


def metric_menu(rows: list[dict]) -> list[str]:
    """The paths any row has: the usual ones first, then the rest in order."""
    seen: set[str] = set()
    for row in rows:
        seen.update(score_paths(row["scores"]))
    first = [p for p in DEFAULT_METRICS if p in seen]
    return first + sorted(seen.difference(first))


def metric_paths(phase, version: int) -> list[str]:
    """Every path ``phase``'s board can be ranked by, the valid values of ``?metric=``: the
    headline scores of the task's metrics, then every other score its systems store
    (cached per pool version). Meant to become scoring's registry answer
    (``scoring.valid_paths(metric_names)``) once there is one."""
    key = f"metric-paths:{phase.pk}:{version}"
    paths = cache.get(key)
    if paths is None:
        names = phase.task.metric_names()
        headline = [path for _, path in HEADLINE_SCORES if path.split(".")[0] in names]
        stored = [path for path in metric_menu(board_rows(phase.pk, "")) if path.split(".")[0] in names]
        paths = headline + [path for path in stored if path not in headline]
        cache.set(key, paths, timeout=3600)
    return paths


def label(path: str) -> str:
    """A short column heading: ``errant.cs.f`` -> ``ERRANT cs F``."""
    parts = path.split(".")
    names = {"errant": "ERRANT", "gotoscorer": "GTS", "cleme": "CLEME", "cleme2": "CLEME2.0", "usim": "USIM"}
    head = names.get(parts[0], parts[0])
    tail = [{"dependent": "dep", "independent": "ind", "corpus": ""}.get(p, p) for p in parts[1:]]
    tail = [p.upper() if p in ("f", "p", "r") else p for p in tail if p]
    return " ".join([head, *tail])
