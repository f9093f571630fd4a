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
        return ""
    if not team.approved:
        return f"Your team {team.name} waits for the organizers' approval."
    remaining = remaining_submissions(phase, team)
    if remaining["total"] == 0:
        return f"Your team has used all {phase.max_total} submissions of this phase."
    if remaining["per_day"] == 0:
        return f"Your team has used its {phase.max_per_day} submissions for today; more after midnight UTC."
    return ""
