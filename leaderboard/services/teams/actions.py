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

from ...board_version import board_changed
from ...models import Membership, SharedTask, Team
from ...models.teams import new_invite_code
from ...models.text import field_problems
from ...refusals import Refusal
from ..accounts.notify import team_approved


class TeamError(Refusal):
    """A team action refused, with a message the user can act on."""

    status = 403


def register_team(user: User, task: SharedTask, name: str, *, enforce_signup: bool = True) -> Team:
    """A new team of ``task`` with ``user`` as its first member."""
    name = clean_name(name)
    if enforce_signup:
        check_signup_open(task)
    if Membership.objects.filter(user=user, task=task).exists():
        raise TeamError("you are already in a team for this task; leave it first")
    try:
        return create_team(user, task, name)
    except IntegrityError:
        raise TeamError(f"a team called {name!r} is already registered for this task; pick another name") from None


def personal_team(user: User, task: SharedTask, *, enforce_signup: bool = True) -> Team:
    """A team of one named after the user (``ann``, else ``ann-2``, ...): what an upload
    by someone without a team registers, so that trying the task takes no extra step.

    Idempotent: several first uploads at once queue on the user's row, and each after
    the first finds the team the first made. A name another user's team took meanwhile
    is skipped for the next one. The lock is FOR NO KEY UPDATE: an upload calls this inside
    its own transaction (:func:`.intake.accept_submission`), and a plain FOR UPDATE, held
    until that commits, would block another upload's foreign-key check on the user's row
    while that upload holds the team's lock this one waits for (a deadlock)."""
    if enforce_signup:
        check_signup_open(task)
    with transaction.atomic():
        User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        while True:
            membership = Membership.objects.select_related("team").filter(user=user, task=task).first()
            if membership:
                return membership.team
            taken = set(Team.objects.filter(task=task, name__startswith=user.username).values_list("name", flat=True))
            name = next(
                n
                for n in (user.username if k == 1 else f"{user.username}-{k}" for k in range(1, len(taken) + 2))
                if n not in taken
            )
            try:
                return create_team(user, task, name)
            except IntegrityError:
                continue


def create_team(user: User, task: SharedTask, name: str) -> Team:
    """The team and its first membership, or IntegrityError (name taken, user in a team)."""
    with transaction.atomic():
        approved_now = task.signup == SharedTask.Signup.APPROVAL and from_approved_domain(user, task)
        team = Team.objects.create(
            task=task,
            name=name,
            approved=task.signup != SharedTask.Signup.APPROVAL or approved_now,
            approved_at=timezone.now() if approved_now else None,
        )
        Membership.objects.create(user=user, team=team, task=task)
    return team


def check_signup_open(task: SharedTask) -> None:
    if task.signup == SharedTask.Signup.CLOSED:
        raise TeamError(f"registration for {task.title} is closed; ask a team that is registered for its invite link")


def rename_team(team: Team, name: str) -> Team:
    """Boards show team names: each phase the team submitted to gets a new version, so
    its cached board (:func:`leaderboard.standings.leaderboard_body`) is built again."""
    team.name = clean_name(name)
    try:
        with transaction.atomic():
            team.save(update_fields=["name"])
            for phase_id in team.submissions.order_by().values_list("phase_id", flat=True).distinct():
                board_changed(phase_id)
    except IntegrityError:
        raise TeamError(f"a team called {team.name!r} is already registered for this task; pick another name") from None
    return team


def team_by_code(task: SharedTask, code: str) -> Team | None:
    return Team.objects.filter(task=task, invite_code=code.strip()).first() if code.strip() else None


def join_team(user: User, task: SharedTask, code: str) -> Team:
    """Join the team whose invite code (or link) this is, while it has room
    (``SharedTask.max_team_size``; the team's row is locked, so two joins cannot both
    take its last place)."""
    team = team_by_code(task, code)
    if team is None:
        raise TeamError("no team of this task has that invite code; ask your team for its current link")
    current = Membership.objects.filter(user=user, task=task).select_related("team").first()
    if current and current.team == team:
        return team
    if current:
        raise TeamError(f"you are in team {current.team.name} for this task; leave it first")
    try:
        with transaction.atomic():
            Team.objects.select_for_update().filter(pk=team.pk).first()
            if team.memberships.count() >= task.max_team_size:
                raise TeamError(
                    f"team {team.name} is full: {task.title} allows at most {task.max_team_size} members per team"
                )
            Membership.objects.create(user=user, team=team, task=task)
    except IntegrityError:
        raise TeamError("you joined a team for this task meanwhile; leave it first") from None
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
                raise TeamError(
                    f"you are the last member of {team.name}, which has submissions: invite someone else "
                    "first, or ask the organizers to remove the team"
                )
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
    with transaction.atomic():
        team.approved, team.approved_at = True, timezone.now()
        team.save(update_fields=["approved", "approved_at"])
        transaction.on_commit(lambda: team_approved(team.pk), robust=True)
    return team


def set_team_size(task: SharedTask, size: int) -> SharedTask:
    """The most members a team of ``task`` may have. Teams already larger keep their
    members; nobody more may join them."""
    problems = field_problems(SharedTask, "max_team_size", size)
    if problems:
        raise TeamError("; ".join(problems))
    task.max_team_size = size
    task.save(update_fields=["max_team_size"])
    return task


def approve_teams(task: SharedTask, team_ids: list[int]) -> list[Team]:
    """Approve the listed pending teams of ``task`` at once (ids of other tasks' teams, or
    of teams approved already, are left alone)."""
    return [
        approve_team(team) for team in Team.objects.filter(task=task, approved=False, pk__in=team_ids).order_by("name")
    ]


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
    pending = list(Team.objects.filter(task=task, approved=False).prefetch_related("memberships__user"))
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
    problems = field_problems(Team, "name", name)
    if problems:
        raise TeamError("; ".join(problems))
    return name
