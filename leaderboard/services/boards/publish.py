"""What a team's channels hold, written where a change happens.

A submission's status file is :func:`~leaderboard.insights.team_submissions.status_of`
as any member sees it (a blind phase's hidden results say "received"), and the team's
file is its newest rows under the board (``_board_own.html``) as any member sees them:
both are rendered for a team member who is not an organizer, so they never hold more
than the team may know. An organizer's pages ask Django instead (views/live_files.py).

Every call is after the change has committed (:func:`after_commit`) and never raises: a
full disk or a missing directory makes pages poll a stale file, never fails a score.
"""

from __future__ import annotations

import functools
import json
import logging

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.template.loader import render_to_string

from ...insights.team_submissions import status_of, team_submissions
from ...models import Phase, Submission, Team
from .channels import Channel, enabled, submission_channel, team_channel, write

log = logging.getLogger(__name__)
MEMBER = (
    AnonymousUser()
)  # what a team member who organizes nothing may see: the public's rules, plus the team's own rows
OWN_SHOWN = 10  # the team's newest submissions under the board (views/pages.py shows the same)
POLLED = ("id", "status", "finished", "progress")


def status_body(submission: Submission) -> bytes:
    state = status_of(submission, MEMBER)
    return json.dumps({key: state[key] for key in POLLED}).encode()


def own_rows_body(phase: Phase, team: Team | None, own: list[dict] | None = None) -> bytes:
    """The team's newest rows as the task page shows them under the board (``own``: those
    rows as read for a member who organizes nothing, who sees what :data:`MEMBER` sees)."""
    if own is None:
        own = team_submissions(phase, team, MEMBER, latest=OWN_SHOWN, with_scores=False)
    context = {"task": phase.task, "phase": phase, "own": own, "pending": any(not row["finished"] for row in own)}
    return render_to_string("leaderboard/_board_own.html", context).encode()


def publish_team(phase: Phase, team: Team | None) -> None:
    """Write the team's rows of ``phase``."""
    if team is not None:
        write_safely(team_channel(team.pk, phase.pk), own_rows_body(phase, team))


def publish_phase(phase_id: int) -> int:
    """Write the rows of every team with an upload in the phase (or its corpora): what a
    change no upload announces needs (an organizer reveals or hides, the phase ends).
    Returns how many teams."""
    if not enabled():
        return 0
    phase = Phase.every.select_related("task").filter(pk=phase_id).first()
    if phase is None:
        return 0
    teams = Team.objects.filter(
        submissions__phase__in=Phase.every.filter(pk=phase_id) | Phase.every.filter(parent_id=phase_id)
    )
    written = 0
    for team in teams.distinct():
        publish_team(phase, team)
        written += 1
    return written


def write_safely(channel: Channel, body: bytes) -> None:
    _safely(lambda: write(channel, body))


def publish_submission(submission_id: int, *, team_rows: bool = True) -> None:
    """Write the submission's status and, with ``team_rows``, its team's rows; for a
    corpus file of a zip, the zip's (its upload's) too, which is what pages show."""

    def publish() -> None:
        submission = (
            Submission.objects.select_related("phase__task", "team").defer("content").filter(pk=submission_id).first()
        )
        if submission is None:
            return
        write(submission_channel(submission.pk, submission.team_id), status_body(submission))
        if submission.parent_id:
            publish_submission(submission.parent_id, team_rows=team_rows)
        elif team_rows:
            publish_team(submission.phase, submission.team)

    _safely(publish)


def after_commit(submission_id: int, *, team_rows: bool = True) -> None:
    """:func:`publish_submission` once the current transaction commits (at once outside one)."""
    transaction.on_commit(functools.partial(publish_submission, submission_id, team_rows=team_rows))


def _safely(publish) -> None:
    if not enabled():
        return
    try:
        publish()
    except OSError:
        log.warning("a live channel could not be written (GEC_LIVE_DIR)", exc_info=True)
