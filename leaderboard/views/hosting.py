"""The organizer's pages: create a task, follow its preparation, add and edit phases,
upload baselines, and follow queued jobs. Every write is a service call; anything that
parses gold or scores is queued (``services.hosting.organizer_jobs``), never run in the request."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

import scoring

from .. import access, params
from ..models import SharedTask, Submission
from ..selectors.shared_tasks import (
    organized_tasks,
    organizer_job_or_404,
    phase_or_404,
    phases_in_order,
    recent_jobs,
    task_or_404,
)
from ..selectors.submissions import baselines_of as baseline_uploads
from ..services.hosting.host import add_hosted_phase, edit_phase, host_task
from ..services.hosting.organizer_jobs import requeue_job
from ..services.submissions.intake import PhaseClosed, accept_submission
from ..services.teams.actions import TeamError, set_team_size
from .forms import UploadForm
from .hosting_forms import PhaseForm, TaskForm, TeamSizeForm

HOST_DENIED = (
    "Creating a shared task needs the host permission: an administrator grants it in the admin, or runs bash "
    "scripts/manage grant_host <your username>."
)


def organized_task(request, slug) -> SharedTask:
    task = task_or_404(slug)
    if not access.may_organize(task, request.user):
        raise PermissionDenied(f"The organizer pages of {task.title} are for its organizers only.")
    return task


@login_required
def new_task(request):
    """The creation form, and the tasks this user organizes with their preparation state."""
    if not access.may_host(request.user):
        raise PermissionDenied(HOST_DENIED)
    form = TaskForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        task = host_task(request.user, form.cleaned_data["gold"], language=form.gold_language(), **form.task_fields())
        messages.success(request, f"{task.title} is created; its gold is being prepared.")
        return redirect("task-manage", slug=task.slug)
    organized = organized_tasks(request.user)
    status = 400 if form.errors else 200
    return render(
        request,
        "leaderboard/host_task.html",
        {"form": form, "problems": form.problems, "organized": organized},
        status=status,
    )


def baselines_of(task: SharedTask) -> dict:
    baselines = baseline_uploads(task)
    return {
        "task": task,
        "baselines": baselines,
        "scoring": any(b.status in (Submission.Status.QUEUED, Submission.Status.RUNNING) for b in baselines),
    }


@login_required
def manage(request, slug):
    task = organized_task(request, slug)
    return render(
        request,
        "leaderboard/manage.html",
        {
            "phases": phases_in_order(task),
            "jobs": recent_jobs(task),
            "baseline_form": UploadForm(),
            "team_size_form": TeamSizeForm(initial={"max_team_size": task.max_team_size}),
            **baselines_of(task),
        },
    )


@login_required
@require_POST
def team_size(request, slug):
    task = organized_task(request, slug)
    form = TeamSizeForm(request.POST)
    try:
        if not form.is_valid():
            raise TeamError(" ".join(form.errors["max_team_size"]))
        set_team_size(task, form.cleaned_data["max_team_size"])
        messages.success(request, f"Teams of {task.title} may have at most {task.max_team_size} members.")
    except TeamError as error:
        messages.error(request, f"The team size was not changed: {error}")
    return redirect("task-manage", slug=task.slug)


@login_required
def baselines(request, slug):
    """The polled fragment of the baselines and their scoring progress."""
    return render(request, "leaderboard/_baselines.html", baselines_of(organized_task(request, slug)))


@login_required
def task_status(request, slug):
    """The polled fragment of a task's preparation."""
    return render(request, "leaderboard/_task_status.html", {"task": organized_task(request, slug)})


@login_required
def phase_form(request, slug, kind=None):
    """Add a phase (``kind`` None) or edit one; a duplicate key is a form error."""
    task = organized_task(request, slug)
    phase = phase_or_404(task, kind) if kind else None
    form = PhaseForm(request.POST or None, request.FILES or None, instance=phase, task=task)
    if request.method == "POST" and form.is_valid():
        if phase:
            if edit_phase(phase, form.phase_fields(), user=request.user):
                messages.info(
                    request,
                    f"The {phase.title} phase's GLEU changed: its scored submissions are being rescored (the "
                    "task's jobs show progress).",
                )
        else:
            phase = add_hosted_phase(
                task,
                form.phase_fields(),
                gold=form.cleaned_data.get("gold"),
                dataset=form.cleaned_data.get("reuse"),
                corpora=form.cleaned_data.get("corpora") or (),
                language=form.gold_language(),
                user=request.user,
            )
        messages.success(request, f"The {phase.title} phase is saved.")
        return redirect("task-manage", slug=task.slug)
    return render(
        request,
        "leaderboard/phase_form.html",
        {"task": task, "phase": phase, "form": form, "problems": form.problems},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def upload_baseline(request, slug):
    """A baseline for the phase named in the form: checked now, scored in the queue,
    outside the phase's dates and limits."""
    task = organized_task(request, slug)
    phase = phase_or_404(task, request.POST.get("phase"))
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            accept_submission(
                phase,
                request.user,
                system_name=form.cleaned_data["system_name"],
                filename=upload.name,
                content=upload.read(),
                description=form.cleaned_data["description"],
                is_baseline=True,
                enforce_limits=False,
            )
            messages.success(request, f"Baseline {form.cleaned_data['system_name']} is queued for scoring.")
        except scoring.InputError as error:
            messages.error(request, f"The baseline was not accepted: {error}")
        except PhaseClosed as error:  # the phase's gold is still being prepared
            messages.error(request, str(error))
    else:
        messages.error(request, "Give the baseline a name and a file.")
    return redirect("task-manage", slug=task.slug)


@login_required
def job(request, slug, pk):
    task = organized_task(request, slug)
    job = organizer_job_or_404(task, pk)
    template = "leaderboard/_job.html" if params.choice(request.GET, "fragment", ("1",)) else "leaderboard/job.html"
    return render(request, template, {"task": task, "job": job})


@login_required
@require_POST
def run_job_again(request, slug, pk):
    task = organized_task(request, slug)
    job = organizer_job_or_404(task, pk)
    if job.may_run_again:
        requeue_job(job)
        messages.success(request, f"Job #{job.pk} is queued again.")
    return redirect("task-job", slug=task.slug, pk=job.pk)
