"""The difficulty heat map: the page, and its fragment that the page polls for live updates."""
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render

from .. import access
from ..insights.heatmap import heatmap
from ..models import Pool, SharedTask
from .pages import _phase

PER_PAGE = 40


def _context(request, slug) -> dict:
    task = get_object_or_404(SharedTask, slug=slug)
    phase = _phase(request, task)
    if not access.sees_references(phase, request.user):
        raise PermissionDenied(access.references_denied(phase))
    pool = Pool.objects.get(phase=phase)
    level = int(request.GET["cat"]) if request.GET.get("cat") in ("1", "2", "3") else 3
    error_type = request.GET.get("type", "")
    data = heatmap(phase, pool.size, error_type=error_type, level=level)
    shown = int(request.GET["shown"]) if request.GET.get("shown", "").isdigit() else PER_PAGE
    return {
        "task": task, "phase": phase, "version": pool.version, "level": level, "error_type": error_type,
        "shown": shown, "more": shown + PER_PAGE, "has_more": len(data["sentences"]) > shown,
        **data, "sentences": data["sentences"][:shown], "n_sentences": len(data["sentences"]),
    }


def difficulty(request, slug):
    return render(request, "leaderboard/heatmap.html", _context(request, slug))


def difficulty_map(request, slug):
    """The polled fragment: 204 while the pool has not changed since ``since``."""
    context = _context(request, slug)
    if request.GET.get("since") == str(context["version"]):
        return HttpResponse(status=204)
    return render(request, "leaderboard/_heatmap.html", context)
