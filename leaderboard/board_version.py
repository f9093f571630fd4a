"""The board's version: one number per phase that every change of what its board shows
moves on (a score landing, a pool join or leave, a phase edit, a team renamed, a
campaign's column published, the significance groups computed).

Every cached board, export and live fragment is keyed by it, and the polled answers
(``version`` in the board's JSON, the pages' ``?since=``, their ETags) are made of it, so
a new version is what tells a reader to fetch again. This module is its only writer
(:func:`board_changed`) and its only reader (:func:`board_version`, and
:func:`version_sql` for the board's hand-written query); the number is kept on the
phase's ``Pool`` row, which no other module bumps (.importlinter, the architecture test).
"""

from __future__ import annotations

from django.db.models import F, Q, Sum
from django.dispatch import Signal

from .models import Phase, Pool

# Sent inside the writer's transaction whenever a phase's board version moves (``phase_id``):
# the public live files (services/boards/mirror.py) are written again once it commits. A
# signal because the files are a service's and this module sits below the services.
version_moved = Signal()


def board_changed(phase_id: int) -> None:
    """What the phase's board shows changed: its next read is a new version. Called inside
    the writer's transaction, so the change and the new version are seen together."""
    Pool.objects.filter(phase_id=phase_id).update(version=F("version") + 1)
    version_moved.send(sender=None, phase_id=phase_id)


def board_version(phase_id: int) -> int:
    """The phase's board version; of a phase of several corpora, the sum over its own and
    its corpora's, so that any corpus's change is a new version of the whole board."""
    pools = Pool.objects.filter(Q(phase_id=phase_id) | Q(phase__parent_id=phase_id))
    return pools.aggregate(version=Sum("version"))["version"] or 0


def version_sql(phase_alias: str) -> str:
    """:func:`board_version` as an SQL expression over the phase row ``phase_alias``, for a
    query that reads many phases at once (leaderboard/selectors/board.py)."""
    pool, phase = Pool._meta.db_table, Phase._meta.db_table
    pool_phase, parent = Pool._meta.get_field("phase").column, Phase._meta.get_field("parent").column
    own = f"(SELECT v.version FROM {pool} v WHERE v.{pool_phase} = {phase_alias}.id)"
    corpora = (
        f"(SELECT SUM(cv.version) FROM {pool} cv JOIN {phase} c ON cv.{pool_phase} = c.id"
        f" WHERE c.{parent} = {phase_alias}.id)"
    )
    return f"CAST(COALESCE({own}, 0) + COALESCE({corpora}, 0) AS BIGINT)"
