"""The leaderboard page's extras: a track filter, tie groups, charts, notes on the pool.

Tie groups are computed by a worker (:func:`compute_tie_groups`, asked for by the
template tag through :mod:`leaderboard.services.boards`) and only read here.

They work on the rows :func:`leaderboard.standings.board_rows` builds, so the page, the API
and the exports rank the same way.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from scoring import PoolCounts, known_metric_of, resampled_paths

from ..models import BoardTies, MetricResult, Submission
from ..standings import gotoscorer_pool, ranked
from . import charts, ties
from .corpora import corpus_table, macro_columns, unsupported_notes
from .pooled_samples import pool_layout, pooled_sampled
from .sampled import board_sampled_scores


def with_tracks(rows: list[dict], task=None) -> list[dict]:
    """Each row with the track its submission declared ('' = none); no query when
    ``task`` (given) has no tracks."""
    if task is not None and not task.tracks:
        return [{**row, "track": ""} for row in rows]
    tracks = dict(Submission.objects.filter(pk__in=[r["submission_id"] for r in rows]).values_list("pk", "track"))
    return [{**row, "track": tracks.get(row["submission_id"], "")} for row in rows]


def in_track(rows: list[dict], track: str) -> list[dict]:
    """The rows of one track (baselines stay, as reference points), ranked among themselves."""
    if not track:
        return rows
    return ranked([r for r in rows if r["track"] == track or r["baseline"]])


def metric_statistics(submission_ids: list[int], metric: str) -> dict[int, dict]:
    """The stored per-sentence statistics of ``metric`` (a metric name) of each submission."""
    return dict(
        MetricResult.objects.filter(submission_id__in=submission_ids, metric=metric).values_list(
            "submission_id", "statistics"
        )
    )


@dataclass(frozen=True)
class ShownTies:
    """The groups a render shows and how they relate to its rows: ``exact`` (computed on
    these very rows), ``earlier`` (of an earlier board, kept for the rows that have not
    moved or changed since), ``pending`` (none yet: a worker is asked) or ``none`` (the
    board's score cannot be resampled)."""

    groups: dict[int, dict]
    state: str
    key: str = ""


def rows_key(rows: list[dict], metric: str, track: str, options) -> str:
    """A digest of the ranked rows the groups depend on: who, with what value, scored when."""
    shown = [(r["submission_id"], r["value"], r.get("scored_at")) for r in rows]
    return hashlib.sha256(repr((shown, metric, track, repr(options))).encode()).hexdigest()


def stored_tie_groups(phase, rows: list[dict], metric: str, track: str = "") -> ShownTies:
    """The board's groups as a worker stored them (:class:`~leaderboard.models.BoardTies`):
    one indexed read, never a bootstrap in the request."""
    if (
        phase.is_multi_corpus or not ties.can_bootstrap(metric) or not rows
    ):  # a macro average has no per-sentence statistics
        return ShownTies({}, "none")
    key = rows_key(rows, metric, track, phase.scoring_options())
    stored = (
        BoardTies.objects.filter(phase=phase, metric=metric, track=track).values("rows_key", "order", "groups").first()
    )
    if stored is None or not stored["rows_key"]:
        return ShownTies({}, "pending", key)
    groups = {int(sid): group for sid, group in stored["groups"].items()}
    if stored["rows_key"] == key:
        return ShownTies(groups, "exact", key)
    kept = unmoved_groups(stored["order"], groups, rows)
    return ShownTies(kept, "earlier" if kept else "pending", key)


def unmoved_groups(order: list, groups: dict[int, dict], rows: list[dict]) -> dict[int, dict]:
    """An earlier board's groups for the rows still there with the same value, kept only
    when those rows still stand in the same order (a new row may sit between two of a
    group: it has none yet); none when anything moved."""
    before = {sid: value for sid, value in order}
    same = [
        r["submission_id"] for r in rows if r["submission_id"] in before and before[r["submission_id"]] == r["value"]
    ]
    kept = set(same)
    if same != [sid for sid, _ in order if sid in kept]:
        return {}
    return {sid: groups[sid] for sid in same if sid in groups}


def compute_tie_groups(phase, rows: list[dict], metric: str) -> dict[int, dict]:
    """The bootstrap itself (a worker's job, :mod:`leaderboard.services.boards`)."""
    options = phase.scoring_options()
    if known_metric_of(metric).pooled:  # its weights change with the pool: every member sampled afresh, at once
        kept = pooled_sampled(phase, rows, metric, samples=ties.DEFAULT_SAMPLES, seed=ties.DEFAULT_SEED)
    else:
        kept = board_sampled_scores(rows, metric, options, samples=ties.DEFAULT_SAMPLES, seed=ties.DEFAULT_SEED)
    return ties.tie_groups(rows, {}, metric, options, sampled=kept.get)


def pool_counts(phase) -> PoolCounts | None:
    """n_i and N of the phase's GoToScorer pool as stored, read in one statement (so
    both are of the same moment); None before the pool has gold chunks."""
    found = pool_layout(phase)
    return None if found is None else found[0]


def board_rows_in_track(phase, rows: list[dict], track: str) -> list[dict]:
    """The rows a board of one track shows (all of them for ``""``), as its groups see them."""
    return in_track(with_tracks(rows, phase.task), track)


def board_extras(phase, rows: list[dict], metric: str, track: str = "") -> dict:
    """What the page adds to the platform's board context."""
    pool = gotoscorer_pool(phase.task.metric_names(), len(rows))  # the whole pool, whatever the track
    rows = board_rows_in_track(phase, rows, track)
    shown = stored_tie_groups(phase, rows, metric, track)
    for row in rows:
        row["tie"] = shown.groups.get(row["submission_id"])
    return {
        "rows": rows,
        "shown_ties": shown,
        "ties_state": shown.state,
        "tracks": list(phase.task.tracks or []),
        "track_column": bool(phase.task.tracks) and any(row["track"] for row in rows),
        "track": track,
        "ties": bool(shown.groups),
        "ties_test": {"samples": ties.DEFAULT_SAMPLES, "seed": ties.DEFAULT_SEED, "alpha": ties.ALPHA},
        "bootstrappable": ties.can_bootstrap(metric),
        "chart": charts.board_chart(rows, metric, phase.task.beta),
        "ties_metric": known_metric_of(metric).display_name() if ties.can_bootstrap(metric) else "",
        "ties_pooled": ties.can_bootstrap(metric) and known_metric_of(metric).pooled,
        "resampled_paths": resampled_paths(phase.task.metric_names()),
        "corpora": corpus_table(phase, rows) if phase.is_multi_corpus else None,
        "macro_columns": macro_columns(rows, metric, phase.task.metric_names()) if phase.is_multi_corpus else [],
        "unsupported": unsupported_notes(phase),
        "gotoscorer_pool": pool,
        "baselines": any(row["baseline"] for row in rows),
    }
