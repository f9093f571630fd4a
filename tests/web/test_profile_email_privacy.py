"""A new address in the profile is used once the link mailed to it is opened, and the
page answers the same whether another account has that address (else the profile would
tell what sign-up no longer does)."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann_client():
    ann = User.objects.create_user("ann", email="ann@example.org", password="pw")
    User.objects.create_user("ben", email="ben@example.org", password="pw")
    client = Client()
    client.force_login(ann)
    return client


def change(client, email):
    return client.post("/accounts/profile/", {"email": email, "notify_by_email": "on"}, follow=True)


def shown(response) -> str:
    """The page's messages with the address asked for taken out."""
    return re.sub(r"\S+@example\.org", "ADDRESS", " ".join(m.message for m in response.context["messages"]))


def test_the_page_answers_the_same_whether_the_address_is_taken(ann_client):
    free, taken = change(ann_client, "new@example.org"), change(ann_client, "BEN@example.org")
    assert free.status_code == taken.status_code == 200 and shown(free) == shown(taken)
    sent = {m.to[0]: m.body for m in mail.outbox}
    assert "/accounts/profile/email/" in sent["new@example.org"] and "already has one" in sent["BEN@example.org"]
    assert User.objects.get(username="ann").email == "ann@example.org"


def test_the_mailed_link_changes_the_address_once(ann_client):
    change(ann_client, "new@example.org")
    link = re.search(r"https?://[^/\s]+(/accounts/profile/email/\S+)", mail.outbox[-1].body).group(1)
    assert ann_client.get(link).status_code == 302
    assert User.objects.get(username="ann").email == "new@example.org"
    assert ann_client.get(link).status_code == 400  # the address it was made for is gone


def test_a_link_is_void_once_another_account_took_the_address(ann_client):
    change(ann_client, "new@example.org")
    link = re.search(r"https?://[^/\s]+(/accounts/profile/email/\S+)", mail.outbox[-1].body).group(1)
    User.objects.filter(username="ben").update(email="new@example.org")
    assert ann_client.get(link).status_code == 400 and User.objects.get(username="ann").email == "ann@example.org"


def test_address_changes_are_throttled(ann_client, settings):
    settings.GEC_MAIL_LIMITS = {"email": (100, 3600), "address": (2, 3600)}
    statuses = [change(ann_client, f"new{k}@example.org").status_code for k in range(3)]
    assert statuses == [200, 200, 429]
