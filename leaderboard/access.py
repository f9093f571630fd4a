"""Who may see what: the one place that decides it, for every page, fragment, endpoint and export.

Hidden references and other teams' outputs stay with the organizers.

* scores and per-type tables: whoever may see the phase's results (``Phase.results_visible_to``);
* a submission's chunk-by-chunk view (it shows the system's output): organizers, and
  the submitting team once the phase's results are visible to it;
* reference chunks and their difficulty (they show the hidden references): organizers,
  and everyone once the phase has ended, as for ``GET /api/tasks/<slug>/difficulty/``.
"""
from __future__ import annotations

from .services.intake import team_of


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


# -- a team's own submissions and its team (participants' pages) ---------------------------
# A submission exists only for its team and the task's organizers: anyone else gets a 404.


def is_member(team, user) -> bool:
    return user.is_authenticated and team is not None and team.memberships.filter(user=user).exists()


def sees_submission(submission, user) -> bool:
    """Its listing, status, file and detail page: its team and the task's organizers."""
    return is_member(submission.team, user) or submission.phase.task.is_organizer(user)


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
    """Which submission counts: hidden while the results are, when the rule is "best"
    (it would tell which submission scored higher)."""
    return phase.counting != phase.Counting.BEST or sees_results(phase, user)


def manages_teams(task, user) -> bool:
    """Approve teams and see every team's members: the task's organizers."""
    return task.is_organizer(user)
