"""Organizer actions: freeze a phase, reveal its results, rescore everything (POST, CSRF-checked).

Freezing, revealing and rescoring ask first: a GET (or a POST without ``confirmed``)
shows what will happen, with counts, and a button that posts again with ``confirmed``.
Undoing (unfreeze, hide) acts at once. Rescoring is queued as an organizer job; its page
shows the progress and then the ranks."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from .. import access
from ..insights import consequences
from ..models import OrganizerJob
from ..services.hosting import phases
from ..services.hosting.organizer_jobs import queue_job
from .confirm import confirmation, confirmed
from .hosting import organized_task

PHASE_ACTIONS = {
    "freeze": (phases.freeze, "is frozen: no more submissions until it is unfrozen"),
    "unfreeze": (phases.unfreeze, "accepts submissions again"),
    "reveal": (phases.reveal, "shows its results to everyone"),
    "hide": (phases.hide, "hides its results again (as its visibility setting says)"),
}
CONFIRMED = {"freeze": ("Freeze the phase", consequences.freeze), "reveal": ("Reveal the results", consequences.reveal)}


@login_required
@require_http_methods(["GET", "POST"])
def phase_action(request, slug, action):
    task = organized_task(request, slug)
    phase = access.phase_for(request, task)
    if action not in PHASE_ACTIONS:
        raise Http404(f"no action {action!r}; one of {', '.join(PHASE_ACTIONS)}")
    back = request.POST.get("next", "") or request.GET.get("next", "")
    back = back if back.startswith(f"/tasks/{task.slug}/") else f"/tasks/{task.slug}/?phase={phase.kind}"
    if action in CONFIRMED and not confirmed(request) or request.method == "GET":
        title, consequence = CONFIRMED.get(action, (f"{action.capitalize()} the phase", lambda p: ""))
        return confirmation(
            request, task, title=f"{title} ({phase.title})", consequence=consequence(phase), cancel=back
        )
    act, message = PHASE_ACTIONS[action]
    act(phase)
    messages.success(request, f"The {phase.title} phase {message}.")
    return redirect(back)


@login_required
def rescore(request, slug):
    """GET: what the action does; POST: queue the rescore and follow it on its job page."""
    task = organized_task(request, slug)
    if confirmed(request):
        job = queue_job(OrganizerJob.Kind.RESCORE, task, user=request.user)
        return redirect("task-job", slug=task.slug, pk=job.pk)
    return render(request, "leaderboard/rescore.html", {"task": task, "consequence": consequences.rescore(task)})
