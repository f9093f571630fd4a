"""The task's own pages as tabs (Overview, Data, Evaluation, Terms), accepting the terms,
the phase files participants download, and the organizers' editors for all of these."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from .. import access
from ..access import terms_accepted_at
from ..downloads import participants_csv, phase_download
from ..models import TaskPage
from ..models.pages import terms_version
from ..sanitise import markdown_html
from ..selectors.shared_tasks import phases_in_order, task_or_404
from ..services.hosting.task_pages import PAGE_NAMES, PageError, save_page, written_pages
from ..services.teams import actions as teams
from ..services.teams.terms import TermsChanged, accept_terms
from .hosting import organized_task
from .hosting_forms import ApprovalForm, PagesForm


def task_page(request, slug, name):
    """One tab: the organizers' text; the Data tab lists each phase's files as well, and
    the Terms tab says whether the user accepted them, with the button to."""
    task = task_or_404(slug)
    if name not in PAGE_NAMES:
        raise Http404("no such page")
    markdown = written_pages(task).get(name, "")
    if not markdown and name != TaskPage.Name.DATA:
        raise Http404(f"{task.title} has no {name} page")
    phase = access.phase_for(request, task)
    context = {
        "task": task,
        "phase": phase,
        "name": name,
        "title": TaskPage.Name(name).label,
        "html": markdown_html(markdown),
    }
    if name == TaskPage.Name.DATA:
        context["files"] = [
            {
                "phase": p,
                "inputs": access.inputs_closed_reason(p, request.user),
                "references": access.references_closed_reason(p, request.user),
            }
            for p in phases_in_order(task)
        ]
    if name == TaskPage.Name.TERMS:
        context["version"] = terms_version(markdown)
        context["accepted_at"] = terms_accepted_at(request.user, task, context["version"])
    return render(request, "leaderboard/task_page.html", context)


@login_required
@require_POST
def accept(request, slug):
    task = task_or_404(slug)
    try:
        accept_terms(request.user, task, request.POST.get("version", ""))
    except TermsChanged as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"You accepted the terms of {task.title}.")
    return redirect("task-page", slug=task.slug, name=TaskPage.Name.TERMS)


def phase_file(request, slug, what):
    """``input/`` or ``references/`` of the phase ``?phase=`` names (default: the default phase)."""
    task = task_or_404(slug)
    phase = access.phase_for(request, task)
    return phase_download(phase, request.user, what)


@login_required
def edit_pages(request, slug):
    """The organizers' editor of the four pages, one Markdown field each."""
    task = organized_task(request, slug)
    written = written_pages(task)
    form = PagesForm(request.POST or None, initial=written)
    if request.method == "POST" and form.is_valid():
        try:
            for name in PAGE_NAMES:
                if form.cleaned_data[name] != written.get(name, ""):
                    save_page(task, name, form.cleaned_data[name])
        except PageError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, "The pages are saved.")
            return redirect("task-pages-edit", slug=task.slug)
    return render(
        request, "leaderboard/pages_form.html", {"task": task, "form": form}, status=400 if form.errors else 200
    )


@login_required
@require_POST
def approval_settings(request, slug):
    task = organized_task(request, slug)
    form = ApprovalForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
    else:
        approved = teams.set_approval(task, form.cleaned_data["signup"], form.cleaned_data["domains"])
        messages.success(
            request,
            "Registration settings saved."
            + (f" Approved now: {', '.join(t.name for t in approved)}." if approved else ""),
        )
    return redirect("task-teams", slug=task.slug)


@login_required
def participants_export(request, slug):
    task = task_or_404(slug)
    if not access.may_export_participants(task, request.user):
        raise PermissionDenied(f"The participants' list of {task.title} is for its organizers only.")
    return participants_csv(task)
