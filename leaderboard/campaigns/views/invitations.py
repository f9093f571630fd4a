"""An invitation's page: the link in the mail. Anyone may open it (it says only which
campaign it is for); accepting or declining needs an account, so an invitee without one
is sent to sign up and comes back here."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from ... import params
from ..registry import mode_of
from ..selectors.invitations import campaign_invitation, invitation_by_token
from ..services.invitations import (
    InvitationError,
    accept,
    decline,
    invite,
    parse_invitees,
    reassign,
    remind,
)
from .campaigns import managed_campaign, site_of


def invitation(request, token):
    """GET: the invitation; POST ``answer=accept|decline`` (logged in)."""
    found = invitation_by_token(token)
    if found is None:
        raise Http404("no such invitation: the link may be mistyped")
    campaign = found.campaign
    here = reverse("campaign-invitation", args=[token])
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?{urlencode({'next': here})}")
        try:
            if request.POST.get("answer") == "decline":
                decline(found)
                messages.success(request, f"You declined the invitation to campaign {campaign.name}.")
                return redirect("campaigns", slug=campaign.task.slug)
            accept(found, request.user)
        except InvitationError as error:
            messages.error(request, "; ".join(error.problems))
            return redirect(here)
        messages.success(request, f"You annotate campaign {campaign.name} now.")
        return redirect("campaign-judge", slug=campaign.task.slug, name=campaign.name)
    return render(
        request,
        "campaigns/invitation.html",
        {
            "invitation": found,
            "campaign": campaign,
            "mode": mode_of(campaign),
            "task": campaign.task,
            "next": urlencode({"next": here}),
        },
    )


@login_required
@require_POST
def invite_more(request, slug, name):
    """More invitees (a pasted list or a CSV file); the answer is the same for every address."""
    campaign = managed_campaign(request, slug, name)
    names = parse_invitees(request.POST.get("invitees", ""))
    upload = request.FILES.get("file")
    if upload is not None and upload.size <= 1_000_000:
        names += parse_invitees(upload.read().decode("utf-8", "replace"))  # a CSV of its own: its header counts
    try:
        made = invite(campaign, list(dict.fromkeys(names)), site=site_of(request))
    except InvitationError as error:
        messages.error(request, "; ".join(error.problems))
    else:
        messages.success(
            request,
            f"{made} new invitations sent. Screens are planned when the campaign is made: "
            "give a new invitee screens by reassigning a dropped annotator's.",
        )
    return redirect("campaign", slug=slug, name=name)


@login_required
@require_POST
def reassign_screens(request, slug, name):
    """A dropped annotator's open screens to another invitee (``from`` and ``to``: invitation ids)."""
    campaign = managed_campaign(request, slug, name)
    source = campaign_invitation(campaign, number(request.POST.get("from"), "from"))
    target = campaign_invitation(campaign, number(request.POST.get("to"), "to"))
    if source is None or target is None:
        messages.error(request, "Pick the invitation whose screens move, and the one that takes them.")
        return redirect("campaign", slug=slug, name=name)
    try:
        moved = reassign(campaign, source, target)
    except InvitationError as error:
        messages.error(request, "; ".join(error.problems))
    else:
        messages.success(request, f"{moved} screens of {source.invitee} moved to {target.invitee}.")
    return redirect("campaign", slug=slug, name=name)


@login_required
@require_POST
def remind_behind(request, slug, name):
    campaign = managed_campaign(request, slug, name)
    count = remind(campaign, site=site_of(request))
    messages.success(request, f"{count} reminders sent (each invitee at most once in 12 hours).")
    return redirect("campaign", slug=slug, name=name)


def number(value, name: str) -> int:
    """An invitation id from the form: 0 when none is picked, a 400 naming the field when it is no id."""
    return params.integer(value, name, minimum=1) if value else 0
