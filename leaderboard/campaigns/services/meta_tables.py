"""The meta-evaluation tables kept on a phase's judgments row, written by the worker so
that no read writes (:mod:`leaderboard.campaigns.insights.meta` serves them, and computes a stale
one for its answer without keeping it).

They go stale when a judged system's results change (a score, a rescore), when the
judgments change, and when a campaign is ranked again, published or withdrawn: the
scoring of a submission in a judged phase and the campaign job ask for
:func:`refresh_meta_tables`; attaching judgments refreshes at once.
"""

from __future__ import annotations

from ...access import ORGANIZERS, PUBLIC
from ...models import Judgments
from ...queue import job
from ..insights import meta


@job("leaderboard.tasks.refresh_meta_tables")
def refresh_meta_tables(phase_id: int) -> int:
    """Bring both audiences' tables up to date; returns how many were computed (none when
    the phase has no judgments row, or both still hold)."""
    judgments = Judgments.objects.select_related("phase__task", "phase__dataset").filter(phase_id=phase_id).first()
    if judgments is None:
        return 0
    computed = 0
    for audience in (PUBLIC, ORGANIZERS):
        found = meta.stored_table(judgments, audience)
        if found.stored is not None:
            continue
        table_field, key_field = found.slot
        setattr(judgments, table_field, meta.compute_table(judgments, found.human, found.submissions))
        setattr(judgments, key_field, found.key)
        judgments.save(update_fields=[table_field, key_field])
        computed += 1
    return computed


def judged(phase_id: int) -> bool:
    """Whether the phase has a meta-evaluation whose tables its results feed."""
    return Judgments.objects.filter(phase_id=phase_id).exists()
