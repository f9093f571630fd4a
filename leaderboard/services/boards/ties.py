"""A board's significance groups, computed in the worker and stored for every render.

A render reads :class:`~leaderboard.models.BoardTies` (``insights.board.stored_tie_groups``)
and, when the groups are not of the rows it shows, asks for new ones here
(:func:`ask_for_tie_groups`): one request of all the web processes wins a conditional
update and queues the job, at most once per ``GEC_TIE_GROUPS_EVERY`` seconds a board,
so steady scoring costs one bootstrap every few seconds, not one per version, and a crowd
of pages costs none. The worker (:func:`refresh_tie_groups`) ranks the board as it stands
when the job runs, stores the groups with the digest of those rows, and moves the board's version on
so that open pages fetch the board again and find them.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ...board_version import board_changed
from ...insights.board import board_rows_in_track, compute_tie_groups, rows_key
from ...models import BoardTies, Phase
from ...queue import Message, job, queue_option
from ...standings import board_rows

LOST_AFTER = 300  # seconds after which a question no worker answered is asked again


def ask_for_tie_groups(phase: Phase, metric: str, track: str, key: str) -> bool:
    """Ask a worker for the groups of the rows named ``key``, unless this board was asked
    about less than ``GEC_TIE_GROUPS_EVERY`` seconds ago (or about these very rows, and the
    answer may still come). True when this call asked."""
    now = timezone.now()
    row, _ = BoardTies.objects.get_or_create(phase=phase, metric=metric, track=track)
    due = Q(asked_at__lte=now - timedelta(seconds=settings.GEC_TIE_GROUPS_EVERY)) & (
        ~Q(asked_key=key) | Q(asked_at__lte=now - timedelta(seconds=LOST_AFTER))
    )
    if not BoardTies.objects.filter(Q(pk=row.pk) & (due | Q(asked_key=""))).update(asked_key=key, asked_at=now):
        return False
    refresh_tie_groups.enqueue(phase.pk, metric, track)
    return True


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
        if settings.GEC_TASK_MODE != "sync":  # inline (the tests' mode), the render that asked shows them already
            board_changed(phase.pk)  # open pages fetch the board again and find the groups
    return "computed"
