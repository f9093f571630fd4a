"""Who counts changed by an organizer's hand: the pool and every board follow at once.

An upload, a choice or a withdrawal re-syncs its phase's pool as it happens; an
organizer changing the rule itself (a phase's counting rule, the task's headline that
"best" compares, a submission's state in the admin) must too, or the board keeps the
old winners until the next upload. :func:`recount` is that one step: the pool moved to
the rule as it now reads (:func:`.membership.sync_pool`) and open pages told (a
new pool version, which every cached board is keyed by). The "counts" mark on a team's
pages follows the pool, so it moves with it.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from ...board_version import board_changed
from ...models import Phase, SharedTask, Submission
from . import membership as pool


def recount(phase_id: int) -> bool:
    """Bring the phase's pool (every corpus's, for a phase of several) to its rule now.
    Returns whether anyone joined or left."""
    with transaction.atomic():
        changed = pool.sync_pool(phase_id)
        board_changed(phase_id)
    return changed


def leave_pools_before_deletion(submissions) -> None:
    """Withdraw ``submissions`` (a queryset; their corpus files too) and recount their
    phases, so that each pool subtracts what the members held before the rows go: the
    cascade of a deletion removes pool rows without moving the counts, and the board
    would keep showing the gone systems. Call inside the deleting transaction."""
    ids = list(submissions.values_list("pk", flat=True))
    phases = set(Submission.objects.filter(pk__in=ids).values_list("phase_id", flat=True))
    Submission.objects.filter(Q(pk__in=ids) | Q(parent_id__in=ids)).update(hidden=True)
    for phase_id, parent_id in Phase.every.filter(pk__in=phases).values_list("pk", "parent_id"):
        recount(parent_id or phase_id)


def recount_task(task: SharedTask) -> None:
    """:func:`recount` every phase of ``task`` (a new headline changes who is best, and
    what every board ranks by)."""
    for phase_id in Phase.objects.filter(task=task).order_by("pk").values_list("pk", flat=True):
        recount(phase_id)
