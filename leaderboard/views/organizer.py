"""Organizer actions: freeze a phase, reveal its results, rescore everything (POST, CSRF-checked)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from .. import access
from ..models import SharedTask
from ..services import phases


def _organized_task(request, slug) -> SharedTask:
    task = get_object_or_404(SharedTask, slug=slug)
    if not access.may_organize(task, request.user):
        raise PermissionDenied("organizers only")
    return task


@login_required
@require_POST
def phase_action(request, slug, action):
    task = _organized_task(request, slug)
    phase = access.phase_for(request, task)
    done = {
        "freeze": (phases.freeze, "is frozen: no more submissions until it is unfrozen"),
        "unfreeze": (phases.unfreeze, "accepts submissions again"),
        "reveal": (phases.reveal, "shows its results to everyone"),
        "hide": (phases.hide, "hides its results again (as its visibility setting says)"),
    }
    if action not in done:
        raise Http404(f"no action {action!r}; one of {', '.join(done)}")
    act, message = done[action]
    act(phase)
    messages.success(request, f"The {phase.title} phase {message}.")
    return redirect(f"/tasks/{task.slug}/?phase={phase.kind}")


@login_required
def rescore(request, slug):
    """GET: what the action does; POST: rescore every submission and show ranks that moved."""
    task = _organized_task(request, slug)
    changes = phases.rescore_with_ranks(task) if request.method == "POST" else None
    return render(request, "leaderboard/rescore.html", {"task": task, "changes": changes})
