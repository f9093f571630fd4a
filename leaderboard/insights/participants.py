"""The organizers' list of a task's participants: who registered, in which team, when
the team was approved, when they accepted the terms, and how much they submitted."""

from __future__ import annotations

from collections import Counter

from django.db.models import Count

from ..models import Membership, SharedTask, Submission, TermsAcceptance
from ..models.pages import current_terms, terms_version
from .exports import Table

COLUMNS = [
    "Username",
    "E-mail",
    "Team",
    "Team approved",
    "Registered",
    "Approved",
    "Terms accepted",
    "Terms version",
    "Current terms",
    "Submissions",
    "Team submissions",
]


def stamp(moment) -> str:
    return f"{moment:%Y-%m-%dT%H:%M:%SZ}" if moment else ""


def participants_table(task: SharedTask) -> Table:
    """One row per user in a team of the task, then per user who accepted its terms
    without a team; times in UTC. Submissions count the user's own uploads (baselines
    aside), team submissions the whole team's."""
    current = terms_version(current_terms(task))
    latest = {}
    for acceptance in TermsAcceptance.objects.filter(task=task).select_related("user").order_by("accepted_at"):
        latest[acceptance.user_id] = acceptance
    uploads = Submission.objects.filter(phase__task=task, is_baseline=False)
    by_user = Counter(dict(uploads.values_list("submitted_by").annotate(n=Count("pk")).order_by()))
    by_team = Counter(dict(uploads.values_list("team").annotate(n=Count("pk")).order_by()))
    members = Membership.objects.filter(task=task).select_related("user", "team").order_by("team__name", "joined_at")
    rows, seen = [], set()
    for m in members:
        seen.add(m.user_id)
        rows.append(
            row(
                m.user,
                latest.get(m.user_id),
                current,
                m.team.name,
                m.team.approved,
                m.joined_at,
                m.team.approved_at,
                by_user[m.user_id],
                by_team[m.team_id],
            )
        )
    for user_id, acceptance in sorted(latest.items(), key=lambda item: item[1].user.username):
        if user_id not in seen:
            rows.append(row(acceptance.user, acceptance, current, "", "", None, None, by_user[user_id], 0))
    return Table(f"Participants of {task.title}", COLUMNS, rows)


def row(user, acceptance, current, team, approved, registered, approved_at, submissions, team_submissions) -> list:
    accepted = acceptance.accepted_at if acceptance else None
    version = acceptance.version if acceptance else ""
    approved_text = {True: "yes", False: "no"}.get(approved, "")
    return [
        user.username,
        user.email,
        team,
        approved_text,
        stamp(registered),
        stamp(approved_at),
        stamp(accepted),
        version,
        "yes" if current and version == current else ("" if not current else "no"),
        submissions,
        team_submissions,
    ]
