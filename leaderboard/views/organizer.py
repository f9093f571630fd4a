"""Organizer actions: freeze a phase, reveal its results, rescore everything (POST, CSRF-checked).

Rescoring is queued as an organizer job; its page shows the progress and then the ranks."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from .. import access
from ..models import OrganizerJob
from ..services import phases
from ..services.organizer_jobs import queue_job
from .hosting import organized_task


@login_required
@require_POST
def phase_action(request, slug, action):
    task = organized_task(request, slug)
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
    back = request.POST.get("next", "")
    return redirect(back if back.startswith(f"/tasks/{task.slug}/") else f"/tasks/{task.slug}/?phase={phase.kind}")


@login_required
def rescore(request, slug):
    """GET: what the action does; POST: queue the rescore and follow it on its job page."""
    task = organized_task(request, slug)
    if request.method == "POST":
        job = queue_job(OrganizerJob.Kind.RESCORE, task, user=request.user)
        return redirect("task-job", slug=task.slug, pk=job.pk)
    return render(request, "leaderboard/rescore.html", {"task": task})
