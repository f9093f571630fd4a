"""Organizer actions on a phase: freeze/unfreeze, reveal/hide, rescore and show ranks that moved.

A test phase is created with ``results_visibility`` "organizers" (hidden until revealed)
or "after_end" (revealed when it ends), optionally ``blind``. Freezing closes it to new
submissions without ending it (its end date, and what the end reveals, stay as set);
revealing makes its results public. Both are flags, so each can be undone.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ...board_version import board_changed
from ...models import Phase
from ...standings import board_rows, headline_metric
from ..boards import publish
from ..scoring_jobs.rescore import rescore_task


def _set(phase: Phase, **fields) -> Phase:
    with transaction.atomic():
        for name, value in fields.items():
            setattr(phase, name, value)
        phase.save(update_fields=list(fields))
        board_changed(phase.pk)
        transaction.on_commit(lambda: publish.publish_phase(phase.pk))  # what members see of their rows changed
    return phase


def freeze(phase: Phase) -> Phase:
    """No submission is accepted until :func:`unfreeze`."""
    return phase if phase.frozen_at else _set(phase, frozen_at=timezone.now())


def unfreeze(phase: Phase) -> Phase:
    return _set(phase, frozen_at=None)


def reveal(phase: Phase) -> Phase:
    """The results become public, for participants and anonymous visitors alike."""
    return _set(phase, revealed=True)


def hide(phase: Phase) -> Phase:
    """Undo :func:`reveal`: the results follow the phase's visibility setting again."""
    return _set(phase, revealed=False)


def ranks(phase: Phase, metric: str) -> dict[int, dict]:
    return {r["submission_id"]: r for r in board_rows(phase.pk, metric)}


def rescore_with_ranks(task, report=lambda _line: None, progress=lambda _done: None) -> list[dict]:
    """Rescore the task (``services.scoring_jobs.rescore``) and list, per phase, every system with its
    rank before and after under the task's headline metric, and how many scores moved."""
    metric = headline_metric(task)
    phases = list(task.phases.all())
    before = {p.pk: ranks(p, metric) for p in phases}
    changes = rescore_task(task, report=report, progress=progress)
    result = []
    for phase in phases:
        after = ranks(phase, metric)
        for sid in sorted(set(before[phase.pk]) | set(after), key=lambda s: (after.get(s, {}).get("rank") or 10**9, s)):
            old, new = before[phase.pk].get(sid), after.get(sid)
            row = new or old
            assert row is not None  # sid came from before's or after's keys: one of them has it
            result.append(
                {
                    "phase": phase.kind,
                    "submission_id": sid,
                    "team": row["team"],
                    "system_name": row["system_name"],
                    "metric": metric,
                    "old_rank": old and old["rank"],
                    "new_rank": new and new["rank"],
                    "old_value": old and old["value"],
                    "new_value": new and new["value"],
                    "moved": (old and old["rank"]) != (new and new["rank"]),
                    "changed_scores": len(changes.get(sid, {})),
                }
            )
    return result
