"""Password-reset mail is limited per e-mail address and per client address, and the
page answers the same whether an account has the address (30
reset mails in a row went out)."""

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db


def reset(client, email):
    return client.post("/accounts/password_reset/", {"email": email})


def test_the_answer_is_the_same_with_or_without_an_account():
    User.objects.create_user("ann", email="ann@example.org", password="pw")
    known, unknown = reset(Client(), "ann@example.org"), reset(Client(), "nobody@example.org")
    assert (
        (known.status_code, known["Location"])
        == (unknown.status_code, unknown["Location"])
        == (302, "/accounts/password_reset/done/")
    )
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]


def test_one_address_gets_a_few_mails_then_429(settings):
    settings.GEC_MAIL_LIMITS = {"email": (3, 3600), "address": (100, 3600)}
    User.objects.create_user("ann", email="ann@example.org", password="pw")
    statuses = [reset(Client(), "ann@example.org").status_code for _ in range(5)]
    assert statuses == [302, 302, 302, 429, 429] and len(mail.outbox) == 3
    assert "Too many mails asked for" in reset(Client(), "ann@example.org").content.decode()


def test_one_client_cannot_spread_resets_over_many_addresses(settings):
    settings.GEC_MAIL_LIMITS = {"email": (3, 3600), "address": (4, 3600)}
    client = Client()
    statuses = [reset(client, f"user{k}@example.org").status_code for k in range(5)]
    assert statuses == [302, 302, 302, 302, 429]
