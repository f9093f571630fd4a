"""Tell a team by email when its submission is scored or fails, so nobody has to poll,
and when the organizers approve it.

Called once the result is committed (``transaction.on_commit`` in :mod:`.scoring`), so
the mail never announces a result a rollback undid. It says what any participant may
know (:mod:`leaderboard.access` as for a visitor): no scores while they are hidden, and
in a blind phase whose results are hidden no mail at all, since a mail's time would
tell the team when scoring ended, which the blind phase keeps from it (its pages say
"received" from the upload on; the results show there once the organizers reveal them).
Members who turned notifications off in their profile, or have no address, get nothing.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.mail import send_mass_mail
from django.template.loader import render_to_string

from ... import access
from ...insights.scores import headline
from ...models import Submission, Team
from ...standings import headline_metric, stored_scores

log = logging.getLogger(__name__)


def recipients(team: Team) -> list[str]:
    members = User.objects.filter(memberships__team=team, is_active=True).exclude(email="")
    return list(members.exclude(profile__notify_by_email=False).values_list("email", flat=True))


def submission_finished(submission_id: int) -> int:
    """Email the submission's team; returns the number of messages sent."""
    submission = Submission.objects.select_related("phase__task", "team").filter(pk=submission_id).first()
    if submission is None or submission.is_baseline:
        return 0
    visitor = AnonymousUser()
    if access.shown_status(submission, visitor) == "received":
        return 0
    to = recipients(submission.team)
    if not to:
        return 0
    context = {
        "submission": submission,
        "task": submission.phase.task,
        "phase": submission.phase,
        "status": access.shown_status(submission, visitor),
        "scores": headline(
            stored_scores([submission.pk]).get(submission.pk, {}), headline_metric(submission.phase.task)
        )
        if access.may_see_results(submission.phase, visitor)
        else [],
        "url": f"{settings.GEC_SITE_URL}/tasks/{submission.phase.task.slug}/submissions/{submission.pk}/",
        "profile_url": f"{settings.GEC_SITE_URL}/accounts/profile/",
    }
    subject = " ".join(render_to_string("leaderboard/email/submission_finished_subject.txt", context).split())
    body = render_to_string("leaderboard/email/submission_finished.txt", context)
    sent = send_mass_mail([(subject, body, None, [address]) for address in to])
    log.info("told %s member(s) of team %s about submission %s", sent, submission.team_id, submission_id)
    return sent


def team_approved(team_id: int) -> int:
    """Email the members of a team the organizers just approved: they may submit now."""
    team = Team.objects.select_related("task").filter(pk=team_id).first()
    to = recipients(team) if team else []
    if team is None or team.task is None or not to:
        return 0
    url = f"{settings.GEC_SITE_URL}/tasks/{team.task.slug}/submit/"
    body = f"The organizers of {team.task.title} approved your team {team.name}: you can submit now at {url}\n"
    return send_mass_mail([(f"{team.task.title}: team {team.name} approved", body, None, [address]) for address in to])
