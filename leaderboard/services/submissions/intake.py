"""Accept an upload: check it, store it, queue it after the commit.

The checks are the scoring library's own (the same line-numbered problems as the CLI),
run on the bytes before anything is written; a rejected upload leaves no rows (not
even a team: the team a first upload registers is made in the same transaction). An
accepted one is written first and queued only once the transaction has committed, so a
worker never sees a row that is not there, and a broker outage leaves it ``queued`` for
the sweeper instead of losing it.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import scoring

from ...access import gold_ready, own_team, remaining_submissions, team_refusal
from ...models import Phase, SharedTask, Submission, Team
from ...models.text import field_problems
from ...refusals import Refusal
from ..boards import publish as live
from ..data import corpora
from ..data.datasets import load_dataset
from ..scoring_jobs.dispatch import queued_uploads
from ..scoring_jobs.queued import score_queued
from ..teams import actions as teams
from ..teams import terms


class UploadTooLarge(Refusal):
    """The file is larger than the phase accepts."""

    status = 413


class OverLimit(Refusal):
    """The team has used its submissions for the day or the phase."""

    status = 429


class PhaseClosed(Refusal):
    """The phase does not accept submissions now."""

    status = 403


def team_of(user: User, task: SharedTask, *, create: bool = True) -> Team | None:
    """The user's team in ``task`` (:func:`.access.own_team`); with ``create``, a user
    without one gets a team of their own, named after them (:func:`.teams.personal_team`,
    whatever the signup setting: organizer tools call this; uploads check the setting in
    :func:`accept_submission`)."""
    team = own_team(user, task)
    if team is None and create and user.is_authenticated:
        return teams.personal_team(user, task, enforce_signup=False)
    return team


def check_file(phase: Phase, content: bytes, filename: str) -> None:
    """Raise :class:`scoring.InputError` listing every problem, by line number.

    A text file gets the library's text checks (cheap: no parsing); an M2 file is read in
    full, which is cheap too since its edits are used as given.
    """
    limits = phase.gold.limits()
    if filename.lower().endswith(scoring.M2_SUFFIXES):
        scoring.read_hypothesis(load_dataset(phase.gold_id), content, "upload", filename=filename, limits=limits)
    else:
        scoring.read_text(content, name=filename, expected_lines=phase.gold.n_sentences, limits=limits)


def check_outputs(phase: Phase, filename: str, content: bytes, corpus: str = "") -> list[tuple[Phase, str, bytes]]:
    """The upload split into its corpora (:func:`.corpora.split_upload`), each file
    checked; every problem of every file is raised at once, each naming its file (so its
    corpus) and line."""
    outputs = corpora.split_upload(phase, filename, content, corpus)
    problems = []
    for corpus_phase, name, data in outputs:
        try:
            check_file(corpus_phase, data, name)
        except scoring.InputError as error:
            problems.extend(error.problems)
    if problems:
        raise scoring.InputError(problems)
    return outputs


def _phase_of_corpus(phase: Phase, corpus: str) -> tuple[Phase, str]:
    """An upload to one corpus's own phase is an upload to its parent phase for that corpus."""
    if phase.parent is None:
        return phase, corpus
    if corpus and corpus != phase.corpus:
        raise scoring.InputError(
            [scoring.Problem(0, f"this is the phase of corpus {phase.corpus}; name no other corpus (got {corpus!r})")]
        )
    return phase.parent, phase.corpus


def _check_gate(phase: Phase, user: User | None, content: bytes, enforce_limits: bool) -> None:
    """Refuse before reading the file: too large, phase closed, gold not ready, terms not accepted."""
    if enforce_limits and len(content) > phase.max_upload_bytes():
        raise UploadTooLarge(
            f"the file has {len(content)} bytes; this phase accepts at most {phase.max_upload_bytes()}"
        )
    if enforce_limits and not phase.is_open():
        raise PhaseClosed(f"phase {phase.kind} of {phase.task.slug} is not open for submissions")
    if not gold_ready(phase):  # one query: never loads the prepared gold itself
        raise PhaseClosed(f"the gold of phase {phase.kind} is still being prepared; try again when it is ready")
    if enforce_limits:
        terms.check_terms(user, phase.task)


def _check_fields(phase: Phase, system_name: str, description: str, track: str) -> None:
    """The form's own fields: a system name, lengths the model allows, a track the task has."""
    if not system_name:
        raise scoring.InputError([scoring.Problem(0, "give the system a name")])
    problems = field_problems(Submission, "system_name", system_name) + field_problems(
        Submission, "description", description
    )
    if problems:
        raise scoring.InputError([scoring.Problem(0, message) for message in problems])
    if track and track not in (phase.task.tracks or []):
        tracks = ", ".join(phase.task.tracks or []) or "none"
        raise scoring.InputError([scoring.Problem(0, f"unknown track {track!r}; this task's tracks: {tracks}")])


def accept_submission(
    phase: Phase,
    user: User | None,
    *,
    system_name: str,
    filename: str,
    content: bytes,
    description: str = "",
    track: str = "",
    corpus: str = "",
    team: Team | None = None,
    is_baseline: bool = False,
    enforce_limits: bool = True,
    queue: bool = True,
) -> Submission:
    """Check, store and queue one system output. Organizer tools pass ``enforce_limits=False``;
    ``queue=False`` leaves scoring to the caller (``load_demo`` scores inline).

    For a phase of several corpora the upload is a zip with one file per corpus (or the
    file of the one ``corpus`` named): it is stored as it came, and each corpus file as
    a submission of its own under it, queued for scoring on its corpus. An upload to one
    corpus's own phase (``dev--uk-ua-gec``, where its pages link) is an upload to the
    phase for that corpus."""
    phase, corpus = _phase_of_corpus(phase, corpus)
    _check_gate(phase, user, content, enforce_limits)
    system_name = system_name.strip()
    _check_fields(phase, system_name, description, track)
    outputs = check_outputs(phase, filename, content, corpus)
    with transaction.atomic():  # a refusal from here on keeps nothing, not even the team of one an upload registers
        if team is None:
            if user is None:
                raise ValueError("a submission needs the user who sends it or the team it is for")
            team = team_of(user, phase.task, create=not enforce_limits) or registered_team(user, phase.task)
        if enforce_limits:
            teams.check_may_submit(team)
        Team.objects.select_for_update().filter(pk=team.pk).first()  # one upload per team at a time: limits hold
        if enforce_limits:
            check_limits(phase, team)
        fields = {
            "team": team,
            "submitted_by": user,
            "system_name": system_name,
            "description": description,
            "track": track,
            "is_baseline": is_baseline,
        }
        status = (
            Submission.Status.RUNNING if phase.is_multi_corpus else Submission.Status.QUEUED
        )  # an upload of corpora waits for them
        submission = Submission.objects.create(
            phase=phase,
            filename=filename,
            content=content,
            size=len(content),
            status=status,
            heartbeat_at=timezone.now(),
            **fields,
        )
        scored = [submission]
        if phase.is_multi_corpus:
            scored = [
                Submission.objects.create(
                    phase=c,
                    parent=submission,
                    filename=name,
                    content=data,
                    size=len(data),
                    heartbeat_at=timezone.now(),
                    **fields,
                )
                for c, name, data in outputs
            ]
        live.after_commit(submission.pk)  # the team's open pages show it queued
        if queue:
            transaction.on_commit(lambda: request_all(scored))
    return submission


def registered_team(user: User, task: SharedTask) -> Team:
    """The team of one a first upload registers (:func:`.teams.personal_team`); where the
    organizers approve teams, one that would wait for approval is refused as the upload
    page refuses it (:func:`.access.team_refusal`), and the caller's transaction keeps
    nothing of it."""
    team = teams.personal_team(user, task)
    if not team.approved:
        raise teams.TeamError(team_refusal(task, None, "submit"))
    return team


def request_all(submissions: list[Submission]) -> None:
    for submission in submissions:
        score_queued.enqueue(submission.pk)


def check_limits(phase: Phase, team: Team) -> None:
    """Over either limit (:func:`remaining_submissions` says what counts), or with
    ``GEC_MAX_QUEUED_UPLOADS`` uploads of the phase still waiting or scoring: OverLimit."""
    waiting = queued_uploads(phase.pk, team.pk)
    if settings.GEC_MAX_QUEUED_UPLOADS and waiting >= settings.GEC_MAX_QUEUED_UPLOADS:
        raise OverLimit(
            f"your team has {waiting} uploads of this phase waiting to be scored, the most this site allows "
            f"(GEC_MAX_QUEUED_UPLOADS = {settings.GEC_MAX_QUEUED_UPLOADS}); submit again when one of them is scored"
        )
    left = remaining_submissions(phase, team)
    if left["total"] == 0:
        raise OverLimit(f"your team has used all {phase.max_total} submissions of this phase")
    if left["per_day"] == 0:
        raise OverLimit(
            f"your team has used its {phase.max_per_day} submissions for today (UTC); try again after midnight UTC"
        )
