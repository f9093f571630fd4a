"""Accept an upload: check it, store it, queue it after the commit.

The checks are the scoring library's own (the same line-numbered problems as the CLI),
run on the bytes before anything is written; a rejected upload leaves no rows. An
accepted one is written first and queued only once the transaction has committed, so a
worker never sees a row that is not there, and a broker outage leaves it ``queued`` for
the sweeper instead of losing it.
"""
from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import scoring

from ..models import Membership, Phase, SharedTask, Submission, Team
from . import teams, terms
from .datasets import load_dataset
from .jobs import enqueue_scoring


class UploadTooLarge(Exception):
    """HTTP 413."""


class OverLimit(Exception):
    """HTTP 429: the team has used its submissions for the day or the phase."""


class PhaseClosed(Exception):
    """HTTP 403: the phase does not accept submissions now."""


def team_of(user: User, task: SharedTask, *, create: bool = True) -> Team | None:
    """The user's team in ``task``; with ``create``, a user without one gets a team of
    their own, named after them (:func:`.teams.personal_team`, whatever the signup setting:
    organizer tools call this; uploads check the setting in :func:`accept_submission`)."""
    if not user.is_authenticated:
        return None
    membership = Membership.objects.select_related("team").filter(user=user, task=task).first()
    if membership:
        return membership.team
    return teams.personal_team(user, task, enforce_signup=False) if create else None


def check_file(phase: Phase, content: bytes, filename: str) -> None:
    """Raise :class:`scoring.InputError` listing every problem, by line number.

    A text file gets the library's text checks (cheap: no parsing); an M2 file is read in
    full, which is cheap too since its edits are used as given.
    """
    limits = scoring.Limits(line_tokens=phase.task.max_tokens)
    if filename.lower().endswith(scoring.M2_SUFFIXES):
        scoring.read_hypothesis(load_dataset(phase.dataset_id), content, "upload", filename=filename, limits=limits)
    else:
        scoring.read_text(content, name=filename, expected_lines=phase.dataset.n_sentences, limits=limits)


def accept_submission(
    phase: Phase,
    user: User | None,
    *,
    system_name: str,
    filename: str,
    content: bytes,
    description: str = "",
    track: str = "",
    team: Team | None = None,
    is_baseline: bool = False,
    enforce_limits: bool = True,
    queue: bool = True,
) -> Submission:
    """Check, store and queue one system output. Organizer tools pass ``enforce_limits=False``;
    ``queue=False`` leaves scoring to the caller (``load_demo`` scores inline)."""
    if enforce_limits and len(content) > phase.max_upload_bytes():
        raise UploadTooLarge(f"the file has {len(content)} bytes; this phase accepts at most {phase.max_upload_bytes()}")
    if enforce_limits and not phase.is_open():
        raise PhaseClosed(f"phase {phase.kind} of {phase.task.slug} is not open for submissions")
    if not phase.dataset.is_prepared:
        raise PhaseClosed(f"the gold of phase {phase.kind} is still being prepared; try again when it is ready")
    if enforce_limits:
        terms.check_terms(user, phase.task)
    system_name = system_name.strip()
    if not system_name:
        raise scoring.InputError([scoring.Problem(0, "give the system a name")])
    if track and track not in (phase.task.tracks or []):
        raise scoring.InputError([scoring.Problem(0, f"unknown track {track!r}; this task's tracks: {', '.join(phase.task.tracks or []) or 'none'}")])
    check_file(phase, content, filename)
    if team is None:
        team = team_of(user, phase.task, create=not enforce_limits) or teams.personal_team(user, phase.task)
    if enforce_limits:
        teams.check_may_submit(team)
    with transaction.atomic():
        Team.objects.select_for_update().filter(pk=team.pk).first()  # one upload per team at a time: limits hold
        if enforce_limits:
            check_limits(phase, team)
        submission = Submission.objects.create(
            phase=phase, team=team, submitted_by=user, system_name=system_name, description=description, track=track,
            filename=filename, content=content, size=len(content), is_baseline=is_baseline, heartbeat_at=timezone.now(),
        )
        if queue:
            transaction.on_commit(lambda: enqueue_scoring(submission.pk))
    return submission


def check_limits(phase: Phase, team: Team) -> None:
    """Over either limit (:func:`remaining_submissions` says what counts): OverLimit."""
    left = remaining_submissions(phase, team)
    if left["total"] == 0:
        raise OverLimit(f"your team has used all {phase.max_total} submissions of this phase")
    if left["per_day"] == 0:
        raise OverLimit(f"your team has used its {phase.max_per_day} submissions for today (UTC); try again after midnight UTC")


def remaining_submissions(phase: Phase, team: Team | None) -> dict:
    """``{"per_day": n, "total": n}`` a team may still upload (None = no limit).

    A submission that failed through the platform's fault does not count; one whose file
    caused it (bad lines, over its time budget or memory, or one that stopped its
    workers: ``failure_cause="input"``) does, so a costly file cannot be sent again and
    again."""
    counted = Submission.objects.filter(phase=phase, team=team).exclude(
        status=Submission.Status.FAILED, failure_cause__in=[Submission.FailureCause.PLATFORM, Submission.FailureCause.NONE]
    )
    midnight = timezone.now().astimezone(dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return {
        "per_day": None if phase.max_per_day is None else max(phase.max_per_day - counted.filter(created_at__gte=midnight).count(), 0),
        "total": None if phase.max_total is None else max(phase.max_total - counted.count(), 0),
    }
