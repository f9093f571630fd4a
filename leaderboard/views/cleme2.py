"""CLEME2.0 pages: Hit/Error/Under/Over per system, and one system's coloured sentences."""

from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from .. import access, params
from ..insights.cleme2 import ASSUMPTIONS, CLASS_NAMES, CLASSES, bars, sentence_views
from ..insights.loading import chunk_statistics
from ..selectors.submissions import visible_output_ids
from ..services.data.datasets import load_dataset
from ..standings import board_rows, headline_metric
from .pages import results_phase

PER_PAGE = 25


def overview(request, slug):
    task, phase = results_phase(request, slug)
    if "cleme2" not in task.metric_names():
        raise Http404(f"task {task.slug} does not score CLEME2.0 (its metrics: {', '.join(task.metric_names())})")
    assumption = params.choice(request.GET, "assumption", ASSUMPTIONS, "dependent")
    rows = board_rows(phase.pk, headline_metric(task))
    viewable = visible_output_ids(phase, request.user)
    return render(
        request,
        "leaderboard/cleme2.html",
        {
            "task": task,
            "phase": phase,
            "assumption": assumption,
            "assumptions": ASSUMPTIONS,
            "bars": bars(rows, assumption),
            "viewable": viewable,
        },
    )


def sentences(request, slug, pk):
    submission = access.submission_for(request.user, pk, phase__task__slug=slug)
    if not access.may_see_output(submission, request.user):
        raise PermissionDenied("participants see their own outputs once results are visible; organizers see all")
    outcome = params.choice(request.GET, "outcome", CLASSES)
    page_number = params.number(request.GET, "page", default=1, minimum=1)
    statistics = chunk_statistics(submission)
    views = []
    if statistics is not None:
        sources = load_dataset(submission.phase.dataset_id).sources
        views = sentence_views(
            sources,
            statistics,
            show_references=access.may_see_references(submission.phase, request.user),
            outcome=outcome,
        )
    page = Paginator(views, PER_PAGE).get_page(page_number)
    return render(
        request,
        "leaderboard/cleme2_sentences.html",
        {
            "task": submission.phase.task,
            "phase": submission.phase,
            "submission": submission,
            "page": page,
            "outcome": outcome,
            "classes": [(c, CLASS_NAMES[c]) for c in CLASSES],
            "has_statistics": statistics is not None,
        },
    )
