"""The per-error-type comparison page: chosen systems side by side, per type, for any metric
with a per-type table (ERRANT by default)."""
from django.shortcuts import render

from scoring import per_type_metrics

from .. import access, params
from ..insights.loading import comparison_inputs, scored_submissions
from ..insights.per_type import ANNOTATOR_VIEW, VIEWS, annotator_comparison, chosen_table, comparison, has_annotator_types, table_of
from ..ranking import board_rows, headline_metric
from .pages import results_phase

DEFAULT_SYSTEMS = 3


def per_type(request, slug):
    task, phase = results_phase(request, slug)
    rows = board_rows(phase.pk, headline_metric(task))
    chosen = params.ids(request.GET.getlist("systems"), "systems") or [r["submission_id"] for r in rows[:DEFAULT_SYSTEMS]]
    metrics = per_type_metrics(task.metric_names())
    metric, level = chosen_table(task.metric_names(), params.choice(request.GET, "metric", [cls.name for cls in metrics]), "")
    level = params.choice(request.GET, "cat", table_of(metric).levels, level)
    systems = comparison_inputs(scored_submissions(access.visible_submissions(phase, request.user), chosen), metric)
    annotator_types = has_annotator_types(systems)
    view = params.choice(request.GET, "types", list(VIEWS), "errant") if annotator_types else "errant"
    return render(request, "leaderboard/per_type.html", {
        "views": VIEWS if annotator_types else {}, "view": view,
        "annotator_table": annotator_comparison(systems) if view == ANNOTATOR_VIEW else None,
        "task": task, "phase": phase, "rows": rows, "chosen": chosen, "level": level, "levels": table_of(metric).levels,
        "metric": metric, "metrics": [(cls.name, cls.display_name()) for cls in metrics],
        "table": comparison(systems, level, task.beta, metric), "organizer": access.may_organize(task, request.user),
        "systems_query": "&".join(f"systems={pk}" for pk in chosen),
    })
