"""An invitation to an address is taken through its link or by the account whose
confirmed address it is, never by an account that merely calls itself by that address:
a username ``ghost@example.org`` was shown, and could accept, the invitation mailed to
ghost@example.org (the campaigns page listed invitations by invitee == username)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leaderboard.campaigns.selectors.invitations import pending_for
from leaderboard.campaigns.services.invitations import invite
from tests.campaigns.support import make_campaign

pytestmark = pytest.mark.django_db


def page_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.get("/tasks/insight/campaigns/").content.decode()


def test_a_username_that_looks_like_the_address_sees_no_invitation(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        invite(campaign, ["ghost@example.org"], site="http://testserver")
    impostor = User.objects.create_user("ghost@example.org", "elsewhere@example.org", "pw")
    owner = User.objects.create_user("ghost", "Ghost@Example.org", "pw")
    assert pending_for(impostor) == []
    assert "accept or decline" not in page_of(impostor)
    assert [i.invitee for i in pending_for(owner)] == ["ghost@example.org"]
    assert "accept or decline" in page_of(owner)


def test_an_invitation_to_a_username_is_still_that_accounts(insight_task, django_capture_on_commit_callbacks):
    campaign = make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        invite(campaign, ["quill"], site="http://testserver")
    assert [i.invitee for i in pending_for(User.objects.create_user("quill", "quill@example.org", "pw"))] == ["quill"]


@pytest.mark.parametrize("lookalike", ["ann@ıcloud.com", "ann@ICLOUD.COM".replace("I", "ı"), "ſann@icloud.com"])
def test_an_address_that_only_uppercases_alike_sees_no_invitation(
    lookalike, insight_task, django_capture_on_commit_callbacks
):
    """PostgreSQL's UPPER (and so ``__iexact``) folds the dotless ``ı`` to ``I`` and ``ſ``
    to ``S``: whoever confirmed ``ann@ıcloud.com`` (an IDN domain anyone may register)
    was shown, and could accept, the invitation mailed to ann@icloud.com."""
    campaign = make_campaign(insight_task["task"], insight_task["organizer"], django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        invite(campaign, ["sann@icloud.com" if lookalike.startswith("ſ") else "ann@icloud.com"], site="http://x")
    impostor = User.objects.create_user("lookalike", lookalike, "pw")
    assert pending_for(impostor) == []
    assert "accept or decline" not in page_of(impostor)
    owner = User.objects.create_user("ann", "Ann@iCloud.com" if "ſ" not in lookalike else "SAnn@iCloud.com", "pw")
    assert len(pending_for(owner)) == 1
