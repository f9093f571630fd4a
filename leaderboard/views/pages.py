"""The pages: task list, live leaderboard, upload form, one submission.

The leaderboard updates without a reload by polling: every few seconds the page asks for
its rows fragment with the version it shows (``?since=``); the server answers 204 when
the pool version is unchanged (one indexed query) and the new rows otherwise. Polling
over server-sent events because it needs nothing from the deployment: sync gunicorn
workers, runserver and any proxy serve it, and an open page holds no worker.
"""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

import scoring

from .. import access
from ..insights.team_submissions import team_submissions
from ..models import Phase, SharedTask
from ..ranking import board_rows, default_metric, metric_value, pool_version
from ..services.intake import OverLimit, PhaseClosed, UploadTooLarge, accept_submission, team_of
from ..services.teams import TeamError
from .forms import UploadForm

OWN_SHOWN = 10  # the team's latest submissions under the board; the rest on "My submissions"


def home(request):
    tasks = SharedTask.objects.listed().prefetch_related("phases").order_by("slug")
    return render(request, "leaderboard/home.html", {"tasks": tasks})


def _phase(request, task: SharedTask) -> Phase:
    kind = request.GET.get("phase")
    phase = task.phases.filter(kind=kind).first() if kind else task.current_phase()
    if phase is None:
        raise Http404(f"{task.title} has no phase {kind}" if kind else f"{task.title} has no phase yet")
    return phase


def results_phase(request, slug: str) -> tuple[SharedTask, Phase]:
    """The task and the phase asked for, when this user may see that phase's results."""
    task = get_object_or_404(SharedTask, slug=slug)
    phase = _phase(request, task)
    if not access.sees_results(phase, request.user):
        raise PermissionDenied(access.results_denied(phase))
    return task, phase


def _board_context(request, task: SharedTask, phase: Phase) -> dict:
    metric_names = task.metric_names()
    metric = request.GET.get("metric") or default_metric(metric_names)
    visible = phase.results_visible_to(request.user)
    team = team_of(request.user, task, create=False)
    own = team_submissions(phase, team, request.user)[:OWN_SHOWN]
    rows = board_rows(phase.pk, metric) if visible else []
    shown = [score.path for score in scoring.headline_scores(metric_names)]
    return {
        "task": task,
        "phase": phase,
        "metric": metric,
        # headline columns that some row has (no empty similarity column when --sim is off)
        "metric_choices": [p for p in shown if not rows or any(metric_value(r["scores"], p) is not None for r in rows)],
        "rows": rows,
        "visible": visible,
        "version": pool_version(phase.pk),
        "own": own,
        "pending": any(not row["finished"] for row in own),
    }


def task_board(request, slug):
    task = get_object_or_404(SharedTask, slug=slug)
    return render(request, "leaderboard/task.html", _board_context(request, task, _phase(request, task)))


def task_rows(request, slug):
    """The polled fragment: 204 while nothing changed since the version the page shows."""
    task = get_object_or_404(SharedTask, slug=slug)
    phase = _phase(request, task)
    since = request.GET.get("since")
    if since is not None and since == str(pool_version(phase.pk)):
        return HttpResponse(status=204)
    return render(request, "leaderboard/_board.html", _board_context(request, task, phase))


@login_required
def submit(request, slug):
    task = get_object_or_404(SharedTask, slug=slug)
    phase = _phase(request, task)
    form = UploadForm(request.POST or None, request.FILES or None)
    closed = access.upload_closed_reason(phase, request.user)
    if closed:  # the form is shown disabled, with the reason
        return render(request, "leaderboard/submit.html", {"task": task, "phase": phase, "form": form, "closed": closed}, status=403 if request.method == "POST" else 200)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            accept_submission(
                phase, request.user, system_name=form.cleaned_data["system_name"], filename=upload.name,
                content=upload.read(), description=form.cleaned_data["description"], track=form.cleaned_data["track"],
            )
        except scoring.InputError as error:
            form.add_error("file", "The file was not accepted:")
            return render(request, "leaderboard/submit.html", {"task": task, "phase": phase, "form": form, "problems": error.problems}, status=400)
        except (UploadTooLarge, OverLimit, PhaseClosed, TeamError) as error:
            form.add_error(None, str(error))
            status = 413 if isinstance(error, UploadTooLarge) else 429 if isinstance(error, OverLimit) else 403
            return render(request, "leaderboard/submit.html", {"task": task, "phase": phase, "form": form}, status=status)
        messages.success(request, "Your submission is queued; the leaderboard updates when it is scored.")
        return redirect(f"/tasks/{task.slug}/?phase={phase.kind}")
    return render(request, "leaderboard/submit.html", {"task": task, "phase": phase, "form": form})
