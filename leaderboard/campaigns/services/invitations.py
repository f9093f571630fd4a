"""Invite annotators, accept or decline, move a dropped annotator's screens, remind.

What an organizer is told never depends on who has an account: every invitee, known or
not, is an invitation that says "pending" until its invitee accepts, and the same answer
comes back whatever the addresses are. The invitation's mail goes to the address typed,
or to the account of the username typed when there is one (nowhere otherwise): only the
invitee learns anything, and an invitee without an account gets a link to make one.
Accepting hands the invitation's queue to the account (:mod:`leaderboard.campaigns.models.invitations`).
"""

from __future__ import annotations

import csv
import io
import logging
import re
import secrets
import smtplib
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.mail import send_mass_mail
from django.db import transaction
from django.db.models import Max, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode

from ...models import Assignment, Campaign, Invitation
from ...refusals import Refusal
from .judging import judgments_changed

MAX_INVITEES = 200
_NAME_CHAR = r"[^\s@\x00-\x1f\x7f]"  # no space, no @, no control character (a NUL is a 500 on PostgreSQL)
INVITEE = re.compile(rf"{_NAME_CHAR}{{1,150}}|{_NAME_CHAR}{{1,64}}@{_NAME_CHAR}{{1,189}}")
HEADERS = ("email", "e-mail", "mail", "address", "username", "user", "annotator", "invitee")
log = logging.getLogger(__name__)
REMIND_EVERY = timedelta(hours=12)  # one reminder per invitee in this time, however often the button is pressed


class InvitationError(Refusal):
    """An invitation that cannot be acted on; ``problems`` names each."""


def parse_invitees(text: str) -> list[str]:
    """Usernames and addresses from a pasted list or a CSV file: one per line, or separated
    by commas, semicolons or tabs; a CSV whose first row names an ``email``/``username``
    column gives that column alone. Each once, in order."""
    rows = list(csv.reader(io.StringIO(text.replace(";", ",").replace("\t", ","))))
    header = [cell.strip().lower() for cell in rows[0]] if rows else []
    column = next((header.index(name) for name in HEADERS if name in header), None)
    if column is not None:
        cells = [row[column] for row in rows[1:] if len(row) > column]
    else:
        cells = [cell for row in rows for cell in row]
    names = [cell.strip() for cell in cells if cell.strip()]
    return list(dict.fromkeys(names))


def check_invitees(names: list, problems: list[str]) -> list[str]:
    """The invitees, each once (addresses compared without case); a problem per malformed one."""
    found: dict[str, str] = {}
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_INVITEES:
        problems.append(f"annotators: from 1 to {MAX_INVITEES} usernames or e-mail addresses")
        return []
    for name in names:
        name = str(name).strip()
        if not INVITEE.fullmatch(name):
            problems.append(f"annotators: {name[:60]!r} is neither a username nor an e-mail address")
            continue
        found.setdefault(name.lower() if "@" in name else name, name)
    return list(found.values())


def new_invitations(campaign: Campaign, names: list[str]) -> list[Invitation]:
    """Invitations for the names the campaign has not invited yet (inside a transaction)."""
    known = {i.lower() for i in campaign.invitations.values_list("invitee", flat=True)}
    fresh = [n for n in names if n.lower() not in known]
    return Invitation.objects.bulk_create(
        [Invitation(campaign=campaign, invitee=n, token=secrets.token_urlsafe(32)) for n in fresh]
    )


def address_of(invitee: str) -> str:
    """Where an invitation's mail goes: the address typed, or the named account's address ("" for none)."""
    if "@" in invitee:
        return invitee
    user = get_user_model().objects.filter(username=invitee, is_active=True).first()
    return user.email if user is not None else ""


def invitation_link(invitation: Invitation, site: str) -> str:
    return f"{site}{reverse('campaign-invitation', args=[invitation.token])}"


def invitation_mail(invitation: Invitation, site: str) -> tuple[str, str, None, list[str]] | None:
    address = address_of(invitation.invitee)
    if not address:
        return None
    campaign = invitation.campaign
    link = invitation_link(invitation, site)
    signup = f"{site}{reverse('signup')}?{urlencode({'next': reverse('campaign-invitation', args=[invitation.token])})}"
    body = (
        f"You are invited to judge corrections in the human evaluation {campaign.name} of {campaign.task.title} "
        f"at {site}.\n\nAccept or decline here (log in first):\n{link}\n\n"
        f"No account yet? Sign up, then open the link above:\n{signup}\n\n"
        "If you do not know why you received this mail, ignore it: nothing happens until you accept.\n"
    )
    return (f"Invitation: human evaluation {campaign.name}", body, None, [address])


def send_mails(mails: list) -> None:
    """Over one connection. A mail server that fails is logged, not raised: the invitations
    exist either way, and *Remind those behind* sends their mails again."""
    if not mails:
        return
    try:
        send_mass_mail(mails, fail_silently=False)
    except (OSError, smtplib.SMTPException) as error:
        log.warning("campaign mails not sent (%d): %s", len(mails), error)


def send_invitations(invitations: list[Invitation], site: str) -> None:
    """One mail per invitation with an address to go to (after the transaction commits)."""
    send_mails([m for m in (invitation_mail(i, site) for i in invitations) if m is not None])


def invite(campaign: Campaign, names: list, *, site: str) -> int:
    """Invite more annotators; returns how many invitations are new. Raises
    :class:`InvitationError` for a malformed invitee (never for an unknown one)."""
    problems: list[str] = []
    names = check_invitees(names, problems)
    if problems:
        raise InvitationError(problems)
    with transaction.atomic():
        made = new_invitations(campaign, names)
        transaction.on_commit(lambda: send_invitations(made, site))
    return len(made)


def accept(invitation: Invitation, user) -> Invitation:
    """``user`` becomes an annotator of the campaign and takes the invitation's queue."""
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().select_related("campaign").get(pk=invitation.pk)
        if invitation.status != Invitation.Status.PENDING:
            raise InvitationError([f"this invitation was {invitation.status} already"])
        campaign = invitation.campaign
        if campaign.annotators.filter(pk=user.pk).exists():
            raise InvitationError([f"you annotate campaign {campaign.name} already"])
        invitation.user, invitation.status, invitation.accepted_at = user, Invitation.Status.ACCEPTED, timezone.now()
        invitation.save(update_fields=["user", "status", "accepted_at"])
        campaign.annotators.add(user)
        Assignment.objects.filter(invitation=invitation).update(annotator=user)
        judgments_changed(campaign)  # the figures list the annotators: rank again
    return invitation


def decline(invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.DECLINED
    )


def open_screens(invitation: Invitation):
    """The invitation's screens still to judge (practice screens stay where they are)."""
    return Assignment.objects.filter(invitation=invitation, judged=False, skipped=False, practice=False)


def reassign(campaign: Campaign, source: Invitation, target: Invitation) -> int:
    """Move ``source``'s unjudged screens to the end of ``target``'s queue and drop
    ``source`` (its judgments stay; its annotator judges no more). A screen ``target``
    has already is not given twice: it stays with ``source``, unjudged. Returns how many moved."""
    with transaction.atomic():
        locked_rows = Invitation.objects.select_for_update().filter(pk__in=[source.pk, target.pk])
        fresh = {i.pk: i for i in locked_rows}  # as they are now, not as the caller read them
        source, target = fresh[source.pk], fresh[target.pk]
        problems = []
        if source.pk == target.pk:
            problems.append("reassign: pick another invitation to take the screens")
        if target.status in (Invitation.Status.DECLINED, Invitation.Status.DROPPED):
            problems.append(f"reassign: the invitation of {target.invitee} was {target.status}")
        if problems:
            raise InvitationError(problems)
        held = set(Assignment.objects.filter(invitation=target).values_list("screen_id", flat=True))
        end = Assignment.objects.filter(invitation=target).aggregate(end=Max("position"))["end"]
        if target.user_id is not None:
            mine = Assignment.objects.filter(campaign=campaign, annotator_id=target.user_id)
            end = max(end or 0, mine.aggregate(end=Max("position"))["end"] or 0)
        locked = open_screens(source).select_for_update().order_by("position")  # none judged meanwhile
        moving = [a for a in locked if a.screen_id not in held]
        start = (end if end is not None else -1) + 1
        for offset, assignment in enumerate(moving):
            assignment.invitation, assignment.annotator_id = target, target.user_id
            assignment.position = start + offset
        Assignment.objects.bulk_update(moving, ["invitation", "annotator", "position"], batch_size=1000)
        Invitation.objects.filter(pk=source.pk).update(status=Invitation.Status.DROPPED)
        if source.user_id is not None:
            campaign.annotators.remove(source.user_id)
        judgments_changed(campaign)
    return len(moving)


def behind(campaign: Campaign):
    """Invitations to remind: pending ones, and accepted ones with screens still open."""
    open_queue = Q(status=Invitation.Status.ACCEPTED, assignments__judged=False, assignments__skipped=False)
    return campaign.invitations.filter(Q(status=Invitation.Status.PENDING) | open_queue).distinct()


def reminder_mail(invitation: Invitation, site: str) -> tuple[str, str, None, list[str]] | None:
    address = invitation.user.email if invitation.user else address_of(invitation.invitee)
    if not address:
        return None
    campaign = invitation.campaign
    if invitation.status == Invitation.Status.PENDING:
        what = f"Your invitation to campaign {campaign.name} is waiting:\n{invitation_link(invitation, site)}\n"
    else:
        left = open_screens(invitation).count()
        judge = reverse("campaign-judge", args=[campaign.task.slug, campaign.name])
        what = f"{left} of your screens in campaign {campaign.name} are still to judge:\n{site}{judge}\n"
    return (f"Reminder: human evaluation {campaign.name}", what, None, [address])


def remind(campaign: Campaign, *, site: str) -> int:
    """Mail everyone behind (:func:`behind`) not reminded in :data:`REMIND_EVERY`; returns how many."""
    now = timezone.now()
    due = list(
        behind(campaign)
        .filter(Q(reminded_at__isnull=True) | Q(reminded_at__lt=now - REMIND_EVERY))
        .select_related("user", "campaign__task")
    )
    mails = [m for m in (reminder_mail(i, site) for i in due) if m is not None]
    Invitation.objects.filter(pk__in=[i.pk for i in due]).update(reminded_at=now)
    send_mails(mails)
    return len(due)
