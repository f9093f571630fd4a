"""Teams of a task: register, rename, invite, join, leave, approve.

A user is in at most one team per task (``Membership``). The task's ``signup`` setting
decides who may register a new team: anyone (open), anyone but the team submits only
once an organizer approves it (approval), or nobody (closed; joining an existing team
with its invite code still works). Every refusal is a :class:`TeamError` whose message
says what to do.
"""
from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from ..models import Membership, SharedTask, Team
from ..models.teams import new_invite_code
from . import pool

NAME_MAX = Team._meta.get_field("name").max_length


class TeamError(Exception):
    """A team action refused, with a message the user can act on."""


def register_team(user: User, task: SharedTask, name: str, *, enforce_signup: bool = True) -> Team:
    """A new team of ``task`` with ``user`` as its first member."""
    name = clean_name(name)
    if enforce_signup and task.signup == SharedTask.Signup.CLOSED:
        raise TeamError(f"registration for {task.title} is closed; ask a team that is registered for its invite link")
    if Membership.objects.filter(user=user, task=task).exists():
        raise TeamError("you are already in a team for this task; leave it first")
    try:
        with transaction.atomic():
            approved_now = task.signup == SharedTask.Signup.APPROVAL and from_approved_domain(user, task)
            team = Team.objects.create(
                task=task, name=name, approved=task.signup != SharedTask.Signup.APPROVAL or approved_now,
                approved_at=timezone.now() if approved_now else None,
            )
            Membership.objects.create(user=user, team=team, task=task)
    except IntegrityError:
        raise TeamError(f"a team called {name!r} is already registered for this task; pick another name") from None
    return team


def personal_team(user: User, task: SharedTask, *, enforce_signup: bool = True) -> Team:
    """A team of one named after the user (``ann``, else ``ann-2``, ...): what an upload
    by someone without a team registers, so that trying the task takes no extra step."""
    taken = set(Team.objects.filter(task=task, name__startswith=user.username).values_list("name", flat=True))
    name = next(n for n in (user.username if k == 1 else f"{user.username}-{k}" for k in range(1, len(taken) + 2)) if n not in taken)
    return register_team(user, task, name, enforce_signup=enforce_signup)


def rename_team(team: Team, name: str) -> Team:
    """Boards show team names: each phase the team submitted to gets a new version, so
    its cached board (:func:`leaderboard.ranking.leaderboard_body`) is built again."""
    team.name = clean_name(name)
    try:
        with transaction.atomic():
            team.save(update_fields=["name"])
            for phase_id in team.submissions.order_by().values_list("phase_id", flat=True).distinct():
                pool.touch(phase_id)
    except IntegrityError:
        raise TeamError(f"a team called {team.name!r} is already registered for this task; pick another name") from None
    return team


def team_by_code(task: SharedTask, code: str) -> Team | None:
    return Team.objects.filter(task=task, invite_code=code.strip()).first() if code.strip() else None


def join_team(user: User, task: SharedTask, code: str) -> Team:
    """Join the team whose invite code (or link) this is."""
    team = team_by_code(task, code)
    if team is None:
        raise TeamError("no team of this task has that invite code; ask your team for its current link")
    current = Membership.objects.filter(user=user, task=task).select_related("team").first()
    if current and current.team == team:
        return team
    if current:
        raise TeamError(f"you are in team {current.team.name} for this task; leave it first")
    Membership.objects.create(user=user, team=team, task=task)
    return team


def leave_team(user: User, task: SharedTask) -> None:
    """Leave one's team. The last member of a team without submissions takes the team
    with them; a team with submissions keeps its last member, since its results on the
    board need someone who can manage them (organizers can remove a team)."""
    with transaction.atomic():
        membership = Membership.objects.select_related("team").filter(user=user, task=task).first()
        if membership is None:
            return
        team = Team.objects.select_for_update().get(pk=membership.team_id)
        if team.memberships.count() == 1:
            if team.submissions.exists():
                raise TeamError(f"you are the last member of {team.name}, which has submissions: invite someone else first, or ask the organizers to remove the team")
            team.delete()
        else:
            membership.delete()


def new_invite(team: Team) -> Team:
    """A fresh invite code: the old link stops working (after it was shared too widely)."""
    team.invite_code = new_invite_code()
    team.save(update_fields=["invite_code"])
    return team


def approve_team(team: Team) -> Team:
    """The team may submit; its members are told by email once that is committed."""
    from .notify import team_approved  # here: notify reads access, which reads intake, which imports this module

    with transaction.atomic():
        team.approved, team.approved_at = True, timezone.now()
        team.save(update_fields=["approved", "approved_at"])
        transaction.on_commit(lambda: team_approved(team.pk), robust=True)
    return team


def approve_teams(task: SharedTask, team_ids: list[int]) -> list[Team]:
    """Approve the listed pending teams of ``task`` at once (ids of other tasks' teams, or
    of teams approved already, are left alone)."""
    return [approve_team(team) for team in Team.objects.filter(task=task, approved=False, pk__in=team_ids).order_by("name")]


def email_domain(user: User) -> str:
    return user.email.rpartition("@")[2].strip().lower() if "@" in (user.email or "") else ""


def from_approved_domain(user: User, task: SharedTask) -> bool:
    """The user's e-mail is in one of the task's auto-approved domains (or a subdomain of one)."""
    domain = email_domain(user)
    return bool(domain) and any(domain == d or domain.endswith("." + d) for d in task.auto_approve_domains)


def clean_domains(text: str) -> list[str]:
    """The domain list as organizers type it (commas, spaces or lines; a leading ``@`` is dropped)."""
    domains = [d.strip().lstrip("@").lower() for d in text.replace(",", " ").split()]
    bad = [d for d in domains if "." not in d or "@" in d or "/" in d]
    if bad:
        raise TeamError(f"not an e-mail domain: {', '.join(bad)} (write e.g. uni-example.edu)")
    return sorted(set(domains))


def set_approval(task: SharedTask, signup: str, domains: list[str]) -> list[Team]:
    """The task's registration setting and auto-approved domains. Pending teams that need
    no approval any more are approved now (returned): all of them when registration is
    open, those with a member from one of the domains otherwise."""
    task.signup, task.auto_approve_domains = signup, domains
    task.save(update_fields=["signup", "auto_approve_domains"])
    pending = Team.objects.filter(task=task, approved=False).prefetch_related("memberships__user")
    if signup != SharedTask.Signup.OPEN:
        pending = [t for t in pending if any(from_approved_domain(m.user, task) for m in t.memberships.all())]
    return approve_teams(task, [t.pk for t in pending])


def check_may_submit(team: Team) -> None:
    if not team.approved:
        raise TeamError(f"team {team.name} waits for the organizers' approval before it may submit")


def clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise TeamError("give the team a name")
    if len(name) > NAME_MAX:
        raise TeamError(f"a team name has at most {NAME_MAX} characters")
    return name
