"""The leaderboard page's extras: a track filter, tie groups, charts, notes on the pool.

They work on the rows :func:`leaderboard.ranking.board_rows` builds, so the page, the API
and the exports rank the same way.
"""
from __future__ import annotations

import numpy as np
from django.core.cache import cache

from scoring import PoolCounts, metric_of, resampled_paths

from ..models import GoldChunk, MetricResult, Submission
from ..ranking import gotoscorer_pool, ranked
from . import charts, ties
from .corpora import corpus_table, macro_columns, unsupported_notes


def with_tracks(rows: list[dict]) -> list[dict]:
    """Each row with the track its submission declared ('' = none)."""
    tracks = dict(Submission.objects.filter(pk__in=[r["submission_id"] for r in rows]).values_list("pk", "track"))
    return [{**row, "track": tracks.get(row["submission_id"], "")} for row in rows]


def in_track(rows: list[dict], track: str) -> list[dict]:
    """The rows of one track (baselines stay, as reference points), ranked among themselves."""
    if not track:
        return rows
    return ranked([r for r in rows if r["track"] == track or r["baseline"]])


def metric_statistics(submission_ids: list[int], metric: str) -> dict[int, dict]:
    """The stored per-sentence statistics of ``metric`` (a metric name) of each submission."""
    return dict(MetricResult.objects.filter(submission_id__in=submission_ids, metric=metric).values_list("submission_id", "statistics"))


def tie_groups(phase, rows: list[dict], metric: str, version: int, track: str = "") -> dict[int, dict]:
    """Bootstrap tie groups of the board, cached per pool version (they only change with it)."""
    if not ties.can_bootstrap(metric) or not rows:
        return {}
    key = f"ties:{phase.pk}:{version}:{metric}:{track}"
    groups = cache.get(key)
    if groups is None:
        statistics = metric_statistics([r["submission_id"] for r in rows if r["value"] is not None], metric_of(metric).name)
        pool = pool_counts(phase) if metric_of(metric).pooled else None
        groups = ties.tie_groups(rows, statistics, metric, phase.scoring_options(), pool=pool)
        cache.set(key, groups, timeout=3600)
    return groups


def pool_counts(phase) -> PoolCounts | None:
    """n_i and N of the phase's GoToScorer pool as stored, read in one statement (so
    both are of the same moment); None before the pool has gold chunks."""
    rows = list(GoldChunk.objects.filter(phase=phase).with_n().order_by("position").values_list("n", "phase__pool__size"))
    if not rows:
        return None
    return PoolCounts(np.fromiter((n for n, _ in rows), dtype=np.int64, count=len(rows)), rows[0][1])


def board_extras(phase, rows: list[dict], metric: str, version: int, track: str = "") -> dict:
    """What the page adds to the platform's board context."""
    pool = gotoscorer_pool(phase.task.metric_names(), len(rows))  # the whole pool, whatever the track
    rows = in_track(with_tracks(rows), track)
    groups = {} if phase.is_multi_corpus else tie_groups(phase, rows, metric, version, track)  # a macro average has no per-sentence statistics
    for row in rows:
        row["tie"] = groups.get(row["submission_id"])
    return {
        "rows": rows,
        "tracks": list(phase.task.tracks or []),
        "track_column": bool(phase.task.tracks) and any(row["track"] for row in rows),
        "track": track,
        "ties": bool(groups),
        "ties_test": {"samples": ties.DEFAULT_SAMPLES, "seed": ties.DEFAULT_SEED, "alpha": ties.ALPHA},
        "bootstrappable": ties.can_bootstrap(metric),
        "chart": charts.board_chart(rows, metric, phase.task.beta),
        "ties_metric": metric_of(metric).display_name() if ties.can_bootstrap(metric) else "",
        "ties_pooled": ties.can_bootstrap(metric) and metric_of(metric).pooled,
        "resampled_paths": resampled_paths(phase.task.metric_names()),
        "corpora": corpus_table(phase, rows) if phase.is_multi_corpus else None,
        "macro_columns": macro_columns(rows, metric, phase.task.metric_names()) if phase.is_multi_corpus else [],
        "unsupported": unsupported_notes(phase),
        "gotoscorer_pool": pool,
        "baselines": any(row["baseline"] for row in rows),
    }
