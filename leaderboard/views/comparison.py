"""The per-error-type comparison page: chosen systems side by side, ERRANT per type."""
from django.shortcuts import render

from .. import access, params
from ..insights.loading import comparison_inputs, scored_submissions
from ..insights.per_type import LEVELS, comparison
from ..ranking import board_rows, default_metric
from .pages import results_phase

DEFAULT_SYSTEMS = 3


def per_type(request, slug):
    task, phase = results_phase(request, slug)
    rows = board_rows(phase.pk, default_metric(task.metric_names()))
    chosen = params.ids(request.GET.getlist("systems"), "systems") or [r["submission_id"] for r in rows[:DEFAULT_SYSTEMS]]
    level = params.choice(request.GET, "cat", LEVELS, "2")
    systems = comparison_inputs(scored_submissions(access.visible_submissions(phase, request.user), chosen))
    return render(request, "leaderboard/per_type.html", {
        "task": task, "phase": phase, "rows": rows, "chosen": chosen, "level": level, "levels": LEVELS,
        "table": comparison(systems, level, task.beta), "organizer": access.may_organize(task, request.user),
        "systems_query": "&".join(f"systems={pk}" for pk in chosen),
    })
