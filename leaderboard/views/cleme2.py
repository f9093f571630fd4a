"""CLEME2.0 pages: Hit/Error/Under/Over per system, and one system's coloured sentences."""
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, render

from .. import access
from ..insights.cleme2 import ASSUMPTIONS, CLASS_NAMES, CLASSES, bars, sentence_views
from ..insights.loading import chunk_statistics
from ..models import Submission
from ..ranking import board_rows, default_metric
from ..services.datasets import load_dataset
from ..services.intake import team_of
from .pages import results_phase

PER_PAGE = 25


def overview(request, slug):
    task, phase = results_phase(request, slug)
    assumption = request.GET.get("assumption") if request.GET.get("assumption") in ASSUMPTIONS else "dependent"
    rows = board_rows(phase.pk, default_metric(task.metric_names()))
    organizer = task.is_organizer(request.user)
    team = team_of(request.user, task, create=False)
    viewable = {r["submission_id"] for r in rows if organizer or (team and r["team"] == team.name)}
    return render(request, "leaderboard/cleme2.html", {
        "task": task, "phase": phase, "assumption": assumption, "assumptions": ASSUMPTIONS,
        "bars": bars(rows, assumption), "viewable": viewable,
    })


def sentences(request, slug, pk):
    submission = get_object_or_404(Submission.objects.select_related("phase__task", "team"), pk=pk, phase__task__slug=slug)
    if not access.sees_output(submission, request.user):
        raise PermissionDenied("participants see their own outputs once results are visible; organizers see all")
    statistics = chunk_statistics(submission)
    outcome = request.GET.get("outcome", "")
    views = []
    if statistics is not None:
        sources = load_dataset(submission.phase.dataset_id).sources
        views = sentence_views(sources, statistics, show_references=submission.phase.task.is_organizer(request.user), outcome=outcome)
    page = Paginator(views, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "leaderboard/cleme2_sentences.html", {
        "task": submission.phase.task, "phase": submission.phase, "submission": submission, "page": page,
        "outcome": outcome, "classes": [(c, CLASS_NAMES[c]) for c in CLASSES], "has_statistics": statistics is not None,
    })
