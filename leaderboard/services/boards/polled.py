"""Which URL a page polls for the viewer's own: their team's channel file for a team
member (served by the proxy), Django for an organizer (the own rows fragment, the status
API), who may see more than a member and is one of few; for everyone when channels are
off (``GEC_LIVE_DIR`` empty).

A page that shows a member's rows (``own_rows``) only names the channel and says what
it answers now: a read writes nothing. The channel is written where a change happens
(:mod:`.publish`); a change no upload announces is written by its service (an
organizer's reveal or hide) or by the sweeper (a phase that ended, :func:`.publish.publish_phase`).
``status`` writes a submission's status file: the upload's POST asks it, before the page
that follows the submission.
"""

from __future__ import annotations

from django.urls import reverse

from ... import access
from ...models import Phase, Submission, Team
from . import publish
from .channels import enabled, submission_channel, team_channel


def own_rows(user, phase: Phase, team: Team | None, shown: list[dict] | None = None) -> tuple[str, str]:
    """(URL, what it answers now) of the rows under the board; the answer is "" for an
    organizer's (Django renders them per request), both are "" without a team. ``shown``:
    the rows the page shows ``user``, when it read them (a member who organizes nothing
    sees what the channel holds, so they are not read twice)."""
    if team is None:
        return "", ""
    if not enabled() or access.may_organize(phase.task, user):
        return reverse("task-own-rows", args=[phase.task.slug]) + f"?phase={phase.kind}", ""
    return team_channel(team.pk, phase.pk).url, publish.own_rows_body(phase, team, shown).decode()


def status_url(user, submission: Submission) -> str:
    """The URL of one submission's polled status (``{"id", "status", "finished", "progress"}``),
    written nowhere: the view that shows it first calls :func:`status`."""
    if not enabled() or access.may_organize(submission.phase.task, user):
        return reverse("api-submission-status", args=[submission.pk])
    return submission_channel(submission.pk, submission.team_id).url


def status(user, submission: Submission) -> str:
    """:func:`status_url`, the member's channel written first (now, not after the commit:
    the page that follows the submission may be the next request)."""
    url = status_url(user, submission)
    if enabled() and not access.may_organize(submission.phase.task, user):
        publish.write_safely(submission_channel(submission.pk, submission.team_id), publish.status_body(submission))
    return url
