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
