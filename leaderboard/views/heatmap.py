"""The difficulty heat map: the page, and its fragment that the page polls for live updates."""

import re

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render

from .. import access, params
from ..board_version import board_version
from ..insights.heatmap import heatmap
from ..selectors.difficulty import pool_or_404
from ..selectors.shared_tasks import task_or_404
from ..services.data.datasets import load_dataset
from .fragment_cache import shared_fragment

PER_PAGE = 40
ERROR_TYPE = re.compile(r"[A-Za-z:_-]+")  # ERRANT's types: M:OTHER, R:VERB:SVA, UNK


def _pool(request, slug):
    """The task, phase and pool of the heat map asked for, when this user may see it."""
    task = task_or_404(slug)
    phase = access.phase_for(request, task)
    if phase.is_multi_corpus:
        raise Http404("a heat map is per corpus: ask for the corpus's phase (?phase=<phase>--<corpus>)")
    if not access.may_see_references(phase, request.user):
        raise PermissionDenied(access.references_denied(phase))
    return task, phase, pool_or_404(phase)


def _context(request, slug) -> dict:
    task, phase, pool = _pool(request, slug)
    level = int(params.choice(request.GET, "cat", ("1", "2", "3"), "3"))
    error_type = params.text(request.GET, "type", max_length=40, pattern=ERROR_TYPE)
    shown = params.number(request.GET, "shown", default=PER_PAGE, minimum=1)
    data = heatmap(
        phase, pool.size, load_dataset(phase.dataset_id).sources, error_type=error_type, level=level, shown=shown
    )
    return {
        "task": task,
        "phase": phase,
        "version": board_version(phase.pk),
        "level": level,
        "error_type": error_type,
        "shown": shown,
        "more": shown + PER_PAGE,
        "has_more": data["n_sentences"] > shown,
        **data,
    }


def difficulty(request, slug):
    """The heat map of a phase; of a phase of several corpora, its first corpus's (each
    corpus has its own pool), with links to the others."""
    phase = access.phase_for(request, task_or_404(slug))
    if phase.is_multi_corpus:
        return redirect(f"{request.path}?phase={phase.corpora()[0].kind}")
    return render(request, "leaderboard/heatmap.html", _context(request, slug))


def difficulty_map(request, slug):
    """The polled fragment: 204 while the pool has not changed since ``since``; else the
    same for everyone who may see it, rendered once per version (views/fragment_cache.py)."""
    _task, phase, _pool_row = _pool(request, slug)
    version = board_version(phase.pk)
    if params.number(request.GET, "since", default=-1) == version:
        return HttpResponse(status=204)
    query = tuple(request.GET.get(name, "") for name in ("type", "cat", "shown"))
    return shared_fragment(
        ("heatmap", phase.pk, query),
        version,
        lambda: render(request, "leaderboard/_heatmap.html", _context(request, slug)).content,
    )
