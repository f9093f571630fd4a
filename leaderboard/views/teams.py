"""A task's Team page (register, rename, invite, join, leave) and the organizers' team list."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from .. import access, params
from ..models import Team
from ..selectors.shared_tasks import task_or_404
from ..selectors.teams import members_of, teams_of_task
from ..services.submissions.intake import team_of
from ..services.teams import actions as teams
from .account_forms import TeamNameForm
from .hosting_forms import ApprovalForm


@login_required
def team_page(request, slug):
    task = task_or_404(slug)
    team = team_of(request.user, task, create=False)
    invite = (
        request.build_absolute_uri(f"{reverse('team-join', args=[task.slug])}?code={team.invite_code}") if team else ""
    )
    return render(
        request,
        "leaderboard/team.html",
        {
            "task": task,
            "phase": task.current_phase(),
            "team": team,
            "invite_link": invite,
            "members": members_of(team),
            "form": TeamNameForm(initial={"name": team.name} if team else None),
        },
    )


@login_required
def join_page(request, slug):
    """Where an invite link leads: the team's name and a button to join it."""
    task = task_or_404(slug)
    code = params.text(request.GET, "code", max_length=64, pattern=params.SLUG)
    return render(
        request,
        "leaderboard/team_join.html",
        {
            "task": task,
            "phase": task.current_phase(),
            "code": code,
            "team": teams.team_by_code(task, code),
            "current": team_of(request.user, task, create=False),
        },
    )


@login_required
@require_POST
def team_action(request, slug, action):
    task = task_or_404(slug)
    user, name = request.user, request.POST.get("name", "")
    done = {
        "create": (lambda: teams.register_team(user, task, name), "Team {team} registered."),
        "rename": (lambda: teams.rename_team(_own_team(user, task), name), "Your team is now called {team}."),
        "join": (lambda: teams.join_team(user, task, request.POST.get("code", "")), "You joined team {team}."),
        "leave": (lambda: teams.leave_team(user, task), "You left your team."),
        "new-invite": (
            lambda: teams.new_invite(_own_team(user, task)),
            "A new invite link: the old one no longer works.",
        ),
    }
    if action not in done:
        raise Http404("no such team action")
    act, message = done[action]
    try:
        team = act()
    except teams.TeamError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, message.format(team=team))
        if team is not None and not team.approved:
            messages.info(request, "The organizers approve each team of this task; you can submit once they have.")
    return redirect("team", slug=task.slug)


def _own_team(user, task) -> Team:
    team = team_of(user, task, create=False)
    if team is None:
        raise teams.TeamError("you are not in a team for this task")
    return team


@login_required
def task_teams(request, slug):
    """Organizers: every team with its members; pending teams first, ticked and approved at once."""
    task = task_or_404(slug)
    if not access.may_organize(task, request.user):
        raise Http404("no such page")
    if request.method == "POST":
        approved = teams.approve_teams(task, params.ids(request.POST.getlist("team"), "team", limit=10_000))
        if approved:
            messages.success(request, f"May submit now: {', '.join(t.name for t in approved)}.")
        else:
            messages.error(request, "Tick the pending teams to approve.")
        return redirect("task-teams", slug=task.slug)
    listed = teams_of_task(task)
    approval = ApprovalForm(initial={"signup": task.signup, "domains": " ".join(task.auto_approve_domains)})
    return render(
        request,
        "leaderboard/task_teams.html",
        {"task": task, "phase": task.current_phase(), "teams": listed, "approval": approval},
    )
