"""Who may see what: the one place that decides it, for every page, fragment, endpoint and export.

Hidden references and other teams' outputs stay with the organizers.

* scores and per-type tables: whoever may see the phase's results (``Phase.results_visible_to``);
* a submission's chunk-by-chunk view (it shows the system's output): organizers, and
  the submitting team once the phase's results are visible to it;
* reference chunks and their difficulty (they show the hidden references): organizers,
  and everyone once the phase has ended, as for ``GET /api/tasks/<slug>/difficulty/``.
"""
from __future__ import annotations

from .services.intake import remaining_submissions, team_of


def sees_results(phase, user) -> bool:
    return phase.results_visible_to(user)


def sees_output(submission, user) -> bool:
    phase = submission.phase
    if phase.task.is_organizer(user):
        return True
    own = team_of(user, phase.task, create=False) == submission.team
    return own and phase.results_visible_to(user)


def sees_references(phase, user) -> bool:
    return phase.task.is_organizer(user) or phase.has_ended()


def hidden_results(submission_data: dict, *, blind: bool) -> dict:
    """A team's own submission while the phase's results are hidden: no scores; in a
    blind phase not even whether scoring worked, only that the file was received."""
    data = {**submission_data, "scores": {}, "signature": ""}
    if blind:
        data.update(status="received", progress=None, error="", scored_at=None, started_at=None)
    return data


# -- hosting and organizer pages ---------------------------------------------------------

def may_host(user) -> bool:
    """Create tasks: staff, and users granted ``leaderboard.host_tasks`` (``manage.py grant_host``)."""
    return user.is_authenticated and (user.is_staff or user.has_perm("leaderboard.host_tasks"))


def organizes(task, user) -> bool:
    return task.is_organizer(user)


def gold_ready(phase) -> bool:
    from .models import Dataset

    return Dataset.objects.filter(pk=phase.dataset_id).exclude(prepared=b"").exists()


def when(moment, phase=None) -> str:
    """A date in UTC, and in the phase's own time zone when that differs."""
    from zoneinfo import ZoneInfo

    text = f"{moment:%Y-%m-%d %H:%M} UTC"
    if phase is not None and phase.time_zone not in ("", "UTC"):
        text += f" ({moment.astimezone(ZoneInfo(phase.time_zone)):%Y-%m-%d %H:%M} {phase.time_zone})"
    return text


def until_references_public(phase) -> str:
    return f"until the {phase.title} phase ends on {when(phase.ends_at, phase)}" if phase.ends_at else f"until the {phase.title} phase ends (no end date is set yet)"


def references_denied(phase, page: str = "The difficulty map") -> str:
    """The 403 message of a page that shows the hidden references."""
    return f"{page} shows the hidden references: organizers only {until_references_public(phase)}."


def results_denied(phase) -> str:
    """The 403 message of a page that shows a phase's scores while they are hidden."""
    if phase.results_visibility == phase.Visibility.AFTER_END:
        until = f"until the phase ends on {when(phase.ends_at, phase)}" if phase.ends_at else "until the phase ends"
    else:
        until = "until the organizers reveal them"
    return f"The results of the {phase.title} phase are hidden: organizers only {until}."


def upload_closed_reason(phase, user) -> str:
    """Why this user may not upload to ``phase`` now; empty when they may (the upload
    form is then offered, else shown disabled with this reason)."""
    state = phase.state()
    if state == "upcoming":
        return f"The {phase.title} phase opens on {when(phase.starts_at, phase)}."
    if state == "frozen":
        return f"The organizers have frozen the {phase.title} phase: no submissions until they unfreeze it."
    if state == "ended":
        return f"The {phase.title} phase ended on {when(phase.ends_at, phase)}."
    if not gold_ready(phase):
        return f"The gold of the {phase.title} phase is still being prepared; uploads open when it is ready."
    if not user.is_authenticated:
        return "Log in to upload."
    team = team_of(user, phase.task, create=False)
    if team is None:
        return {
            phase.task.Signup.CLOSED: f"Registration for {phase.task.title} is closed; ask a registered team for its invite link.",
            phase.task.Signup.APPROVAL: "Register your team first (Team page): it needs the organizers' approval before it may submit.",
        }.get(phase.task.signup, "")
    if not team.approved:
        return f"Your team {team.name} waits for the organizers' approval."
    remaining = remaining_submissions(phase, team)
    if remaining["total"] == 0:
        return f"Your team has used all {phase.max_total} submissions of this phase."
    if remaining["per_day"] == 0:
        return f"Your team has used its {phase.max_per_day} submissions for today; more after midnight UTC."
    return ""


# -- a team's own submissions and its team (participants' pages) ---------------------------
# A submission exists only for its team and the task's organizers: anyone else gets a 404.


def is_member(team, user) -> bool:
    return user.is_authenticated and team is not None and team.memberships.filter(user=user).exists()


def sees_submission(submission, user) -> bool:
    """Its listing, status, file and detail page: its team and the task's organizers."""
    return is_member(submission.team, user) or submission.phase.task.is_organizer(user)


def sees_submission_record(submission, user) -> bool:
    """``GET /api/submissions/<id>/``: its team and the organizers; anyone who may see the
    board, for a submission on it (in the pool). Another team's withdrawn, failed or
    not-counted submissions stay theirs."""
    from .models import PoolMember

    if sees_submission(submission, user):
        return True
    return sees_results(submission.phase, user) and PoolMember.objects.filter(submission=submission).exists()


def manages_submission(submission, user) -> bool:
    """Choose, withdraw, restore or delete it: its team only (organizers have the admin)."""
    return is_member(submission.team, user)


def sees_scores(submission, user) -> bool:
    """Its scores, per-type table, per-sentence results: as the phase's results."""
    return sees_submission(submission, user) and sees_results(submission.phase, user)


def shown_status(submission, user) -> str:
    """While a blind phase's results are hidden, its team learns only "received"."""
    if submission.phase.blind and not sees_results(submission.phase, user):
        return "received"
    return submission.status


def sees_counted(phase, user) -> bool:
    """Which submission counts (it is in the pool), while the results are hidden: not under
    "best" (it would tell which submission scored higher), nor in a blind phase (it would
    tell whether and when scoring ended; the team sees its own choice instead)."""
    return sees_results(phase, user) or (phase.counting != phase.Counting.BEST and not phase.blind)


def manages_teams(task, user) -> bool:
    """Approve teams and see every team's members: the task's organizers."""
    return task.is_organizer(user)


def sees_meta_evaluation(task, user) -> bool:
    """How metrics agree with the task's human judgments (it ranks the judged systems):
    organizers; everyone once every phase of the task has ended."""
    phases = list(task.phases.all())
    return task.is_organizer(user) or (bool(phases) and all(p.has_ended() for p in phases))
