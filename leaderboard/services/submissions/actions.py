"""A team's actions on its own submissions: choose the one that counts, withdraw, restore, delete.

Who may act is :mod:`leaderboard.access`'s decision (the submission's team); what the
phase allows is checked here. Each action that can change which submission counts
re-syncs the phase's pool in the same transaction, so board, pool and exports follow.
"""

from __future__ import annotations

from django.db import transaction

from ...board_version import board_changed
from ...models import Phase, Submission, Team
from ...refusals import Refusal
from ..boards import publish as live
from ..pool import membership as pool


class ActionRefused(Refusal):
    """The phase or the submission's state does not allow this action; the message says why."""

    status = 409


def choose(submission: Submission) -> Submission:
    """Make ``submission`` the one that counts for its team (phases counting "chosen"). It
    counts once it is scored; until then, or if it fails, the team's latest scored one
    does (:func:`.pool.counted_per_team`). Any status may be chosen, so choosing tells
    nothing a blind phase hides."""
    phase = submission.phase
    if phase.counting != Phase.Counting.CHOSEN:
        raise ActionRefused(
            f"in the {phase.title} phase {phase.get_counting_display()} counts; there is nothing to choose"
        )
    _require_open(phase, "choose")
    if submission.hidden:
        raise ActionRefused("a withdrawn submission cannot be chosen: restore it first")
    with transaction.atomic():
        Team.objects.select_for_update().filter(pk=submission.team_id).first()  # two members choosing at once: one wins
        Submission.objects.filter(phase=phase, team=submission.team, chosen=True).exclude(pk=submission.pk).update(
            chosen=False
        )
        Submission.objects.filter(pk=submission.pk).update(chosen=True)
        pool.sync_pool(phase.pk)
        board_changed(phase.pk)
    submission.chosen = True
    return submission


def withdraw(submission: Submission) -> Submission:
    """Take a submission off the board and out of the pool; it stays listed for its team."""
    _require_open(submission.phase, "withdraw a submission")
    return _set_hidden(submission, True)


def restore(submission: Submission) -> Submission:
    _require_open(submission.phase, "restore a submission")
    return _set_hidden(submission, False)


def delete_failed(submission: Submission) -> None:
    """Delete a failed submission (nothing of it is on the board or in the pool)."""
    if submission.status != Submission.Status.FAILED:
        raise ActionRefused("only a failed submission can be deleted; withdraw a scored one instead")
    with transaction.atomic():
        submission.delete()
        board_changed(submission.phase_id)
        transaction.on_commit(lambda: live.publish_team(submission.phase, submission.team))


def _set_hidden(submission: Submission, hidden: bool) -> Submission:
    with transaction.atomic():
        withdrawn_choice = {"chosen": False} if hidden else {}  # a withdrawn submission is no longer the choice
        Submission.objects.filter(pk=submission.pk).update(hidden=hidden, **withdrawn_choice)
        pool.sync_pool(submission.phase_id)
        board_changed(submission.phase_id)
    submission.hidden = hidden
    return submission


def _require_open(phase: Phase, what: str) -> None:
    if not phase.is_open():
        raise ActionRefused(f"the {phase.title} phase is {phase.state()}: you can no longer {what}")
