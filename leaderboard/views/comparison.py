"""The per-error-type comparison page: chosen systems side by side, per type, for any metric
with a per-type table (ERRANT by default).

A phase of several corpora has one table per corpus (each corpus has its own gold and
its own language's types): the systems ticked are the board's uploads, each standing
for its output on every corpus (:func:`~leaderboard.insights.loading.corpus_outputs`).
A corpus asked for alone (``?phase=dev--uk-ua-gec``) shows its table only."""

from django.shortcuts import render

from scoring import per_type_metrics

from .. import access, params
from ..insights.loading import comparison_inputs, corpus_outputs, scored_submissions
from ..insights.per_type import (
    ANNOTATOR_VIEW,
    VIEWS,
    annotator_comparison,
    chosen_table,
    comparison,
    has_annotator_types,
    table_of,
)
from ..standings import board_rows, headline_metric
from .pages import results_phase

DEFAULT_SYSTEMS = 3


def compared_systems(phase, user, chosen: list[int], metric: str) -> list[tuple]:
    """``[(corpus phase or None, systems)]``: the chosen systems' inputs of the comparison,
    per corpus of a phase of several corpora (or of the one corpus asked for)."""
    if not phase.is_multi_corpus and not phase.parent_id:
        return [(None, comparison_inputs(scored_submissions(access.visible_submissions(phase, user), chosen), metric))]
    if phase.parent_id:  # one corpus: its page names it
        return [
            (
                None,
                comparison_inputs(
                    corpus_outputs(
                        access.visible_submissions(phase, user), access.visible_submissions(phase.parent, user), chosen
                    ),
                    metric,
                ),
            )
        ]
    uploads = access.visible_submissions(phase, user)
    return [
        (c, comparison_inputs(corpus_outputs(access.visible_submissions(c, user), uploads, chosen), metric))
        for c in phase.corpora()
    ]


def per_type(request, slug):
    task, phase = results_phase(request, slug)
    rows = board_rows(phase.pk, headline_metric(task))
    chosen = params.ids(request.GET.getlist("systems"), "systems") or [
        r["submission_id"] for r in rows[:DEFAULT_SYSTEMS]
    ]
    metrics = per_type_metrics(task.metric_names())
    metric, level = chosen_table(
        task.metric_names(), params.choice(request.GET, "metric", [cls.name for cls in metrics]), ""
    )
    level = params.choice(request.GET, "cat", table_of(metric).levels, level)
    compared = compared_systems(phase, request.user, chosen, metric)
    annotator_types = all(has_annotator_types(systems) for _, systems in compared if systems) and any(
        systems for _, systems in compared
    )
    view = params.choice(request.GET, "types", list(VIEWS), "errant") if annotator_types else "errant"
    sections = [
        {
            "corpus": corpus,
            "n": k,
            "table": comparison(systems, level, task.beta, metric),
            "annotator_table": annotator_comparison(systems) if view == ANNOTATOR_VIEW else None,
        }
        for k, (corpus, systems) in enumerate(compared, start=1)
    ]
    return render(
        request,
        "leaderboard/per_type.html",
        {
            "views": VIEWS if annotator_types else {},
            "view": view,
            "sections": sections,
            "any_table": any(s["table"]["systems"] for s in sections),
            "task": task,
            "phase": phase,
            "rows": rows,
            "chosen": chosen,
            "level": level,
            "levels": table_of(metric).levels,
            "metric": metric,
            "metrics": [(cls.name, cls.display_name()) for cls in metrics],
            "organizer": access.may_organize(task, request.user),
            "systems_query": "&".join(f"systems={pk}" for pk in chosen),
            # ticked: the ids chosen and, on one corpus's page, the outputs the chosen uploads stand for
            "ticked": set(chosen).union(s["id"] for _, systems in compared for s in systems),
        },
    )
