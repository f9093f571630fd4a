"""Invitations as the organizer's page, the API and an invitee's pages read them."""

from __future__ import annotations

import string

from django.db.models import Q

from ...models import Campaign, Invitation
from ..models.campaigns import queue_counts


def invitation_by_token(token: str) -> Invitation | None:
    return Invitation.objects.select_related("campaign__task").filter(token=token).first()


def campaign_invitation(campaign: Campaign, pk: int) -> Invitation | None:
    return Invitation.objects.filter(campaign=campaign, pk=pk).first()


def invitation_rows(campaign: Campaign) -> list[dict]:
    """The organizer's list: each invitee as typed, the state, the queue's progress, and
    the username only once the invitee accepted (before that nothing says whether the
    invitee has an account)."""
    rows = (
        Invitation.objects.filter(campaign=campaign)
        .annotate(**queue_counts("assignments__"))
        .select_related("user")
        .order_by("pk")
    )
    return [
        {
            "id": i.pk,
            "invitee": i.invitee,
            "status": i.status,
            "user": i.user.username if i.user and i.status != Invitation.Status.PENDING else None,
            # annotated by queue_counts(): django-stubs cannot see **-spread annotations
            "done": i.done,  # type: ignore[attr-defined]
            "total": i.total,  # type: ignore[attr-defined]
            "reminded_at": i.reminded_at.isoformat() if i.reminded_at else None,
        }
        for i in rows
    ]


def pending_for(user) -> list[Invitation]:
    """The pending invitations addressed to ``user``'s username or to their confirmed address
    (their own page only). An invitee with an ``@`` is an address, never a username: an
    account whose username is ``ghost@example.org`` must not be shown, nor take, the
    invitation sent to that address (docs/security.md); its link still works for whoever
    holds it. The project confirms every address (sign-up and address changes by mail).
    Addresses match with ASCII letters' case folded only (:func:`same_address`)."""
    if not user.is_authenticated:
        return []
    mine = Q(invitee=user.get_username()) & ~Q(invitee__contains="@")
    if user.email:
        mine |= Q(invitee__iexact=user.email)
    found = (
        Invitation.objects.filter(mine, status=Invitation.Status.PENDING)
        .select_related("campaign__task")
        .order_by("pk")
    )
    return [i for i in found if "@" not in i.invitee or same_address(i.invitee, user.email)]


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def same_address(a: str, b: str) -> bool:
    """Whether two addresses are one, ASCII letters' case aside. PostgreSQL's UPPER (so
    ``__iexact``) folds ``ı`` to ``I`` and ``ſ`` to ``S``, and Python's ``lower`` the Kelvin
    sign to ``k``: ``ann@ıcloud.com``, an IDN domain anyone may register, is not
    ann@icloud.com (docs/security.md)."""
    return a.translate(_ASCII_LOWER) == b.translate(_ASCII_LOWER)


def skipped_screens(campaign: Campaign, limit: int = 200) -> list[dict]:
    """Screens annotators skipped as broken, with their comments (the organizers'), latest first."""
    from ...models import Assignment

    rows = (
        Assignment.objects.filter(campaign=campaign, skipped=True)
        .select_related("annotator", "screen")
        .only("pk", "comment", "annotator__username", "screen__line")
        .order_by("-pk")[:limit]
    )
    return [
        {
            "item": a.pk,
            "line": a.screen.line + 1,
            "user": a.annotator.username if a.annotator else None,
            "comment": a.comment,
        }
        for a in rows
    ]
