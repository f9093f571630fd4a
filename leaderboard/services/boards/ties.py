"""A board's significance groups, computed in the worker and stored for every render.

A render reads :class:`~leaderboard.models.BoardTies` (``insights.board.stored_tie_groups``)
and writes nothing: when the groups are not of the rows it shows, it shows the earlier
ones or none yet. The write side asks: a score landing or the pool moving calls
:func:`board_rows_changed`, which queues one job a phase at most once per
``GEC_TIE_GROUPS_EVERY`` seconds, so steady scoring costs one bootstrap every few seconds,
not one per version, and a crowd of pages costs none. The worker
(:func:`refresh_board_ties`, each board by :func:`refresh_tie_groups`) ranks the boards as
they stand when the job runs, stores the groups with the digest of those rows, and moves
the board's version on so that open pages fetch the board again and find them.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from ...board_version import board_changed
from ...insights.board import board_rows_in_track, compute_tie_groups, rows_key
from ...insights.paths import rank_by_choices
from ...insights.ties import can_bootstrap
from ...models import BoardTies, Phase
from ...queue import Message, job, queue_option, runs_inline
from ...standings import board_rows, headline_metric
from .sampled import keep_board_vectors

log = logging.getLogger(__name__)


def board_rows_changed(phase_id: int) -> None:
    """A score landed or the pool moved: once this commits, ask for the groups of the
    phase's boards (:func:`refresh_board_ties`). One job at a time a phase: the first change
    queues it ``GEC_TIE_GROUPS_EVERY`` seconds ahead, the changes meanwhile find it due, and
    it ranks the boards as they stand when it runs. Where jobs run inline, the groups are
    computed now, inside the change's transaction, so that the change and its groups reach
    open pages as one version (not two moves a moment apart, each fetched)."""
    if runs_inline():
        try:
            with transaction.atomic():  # a failure here undoes the groups only, never the change
                refresh_board_ties(phase_id)
        except Exception:
            log.exception("tie groups of phase %s", phase_id)
    elif cache.add(f"ties-due:{phase_id}", 1, timeout=max(1, int(settings.GEC_TIE_GROUPS_EVERY))):
        transaction.on_commit(lambda: refresh_board_ties.enqueue(phase_id))


def after_the_interval(phase_id: int) -> list[Message]:
    """The boards' queue (``GEC_TIE_GROUPS_QUEUE``), ``GEC_TIE_GROUPS_EVERY`` seconds ahead."""
    every = settings.GEC_TIE_GROUPS_EVERY
    countdown = {"countdown": every} if every else {}
    return [Message((phase_id,), {**queue_option(settings.GEC_TIE_GROUPS_QUEUE), **countdown})]


@job("leaderboard.tasks.refresh_board_ties", messages=after_the_interval)
def refresh_board_ties(phase_id: int) -> int:
    """The groups of every board of the phase a page offers (each "Rank by" score a
    bootstrap can resample, in every track) and of every other one computed before;
    returns how many were computed anew."""
    cache.delete(f"ties-due:{phase_id}")
    phase = Phase.every.select_related("task").filter(pk=phase_id).first()
    if phase is None:
        return 0
    task = phase.task
    rows = board_rows(phase.pk, headline_metric(task))
    boards = {(path, track) for path in grouped_paths(task, rows) for track in ["", *(task.tracks or [])]}
    boards |= set(BoardTies.objects.filter(phase=phase).values_list("metric", "track"))
    return sum(refresh_tie_groups(phase.pk, metric, track) == "computed" for metric, track in sorted(boards))


def grouped_paths(task, rows: list[dict]) -> list[str]:
    """The scores the board offers to rank by that a bootstrap can resample: the paths whose
    groups every refresh computes (and whose halves the scoring worker keeps)."""
    return [path for path, _ in rank_by_choices(task, rows) if can_bootstrap(path)]


def to_the_boards_queue(phase_id: int, metric: str, track: str = "") -> list[Message]:
    """The boards' queue, when the workers keep one (``GEC_TIE_GROUPS_QUEUE``)."""
    return [Message((phase_id, metric, track), queue_option(settings.GEC_TIE_GROUPS_QUEUE))]


@job("leaderboard.tasks.refresh_tie_groups", messages=to_the_boards_queue)
def refresh_tie_groups(phase_id: int, metric: str, track: str = "") -> str:
    """Compute and store the groups of the board as it stands now; ``fresh`` when the
    stored ones already are of these rows."""
    phase = Phase.every.select_related("task").filter(pk=phase_id).first()
    if phase is None:
        return "gone"
    rows = board_rows_in_track(phase, board_rows(phase.pk, metric), track)
    key = rows_key(rows, metric, track, phase.scoring_options())
    if BoardTies.objects.filter(phase=phase, metric=metric, track=track, rows_key=key).exists():
        return "fresh"
    keep_board_vectors(phase, rows, metric)  # the memo the bootstrap reads, written here and not in a read
    groups = compute_tie_groups(phase, rows, metric) if rows else {}
    with transaction.atomic():  # the groups and the pool's new version are seen together, or neither
        BoardTies.objects.update_or_create(
            phase=phase,
            metric=metric,
            track=track,
            defaults={
                "rows_key": key,
                "order": [[r["submission_id"], r["value"]] for r in rows],
                "groups": {str(sid): group for sid, group in groups.items()},
                "computed_at": timezone.now(),
            },
        )
        board_changed(phase.pk)  # open pages, and the board kept for this version, read the groups anew
    return "computed"
