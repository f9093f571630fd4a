"""Sign-up answers the same whether the username or the address exists; what exists is
told by mail to the address's owner (sign-up told whether a
username or an e-mail was registered)."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db
PHRASE = "a long pass phrase"


def sign_up(username, email, **extra):
    return Client().post(
        "/accounts/signup/", {"username": username, "email": email, "password1": PHRASE, "password2": PHRASE, **extra}
    )


def answer(response) -> tuple:
    return response.status_code, response.get("Location"), response.content


def test_the_answer_is_the_same_whatever_exists():
    User.objects.create_user("taken", email="taken@example.org", password="pw")
    answers = {
        "new": answer(sign_up("fresh", "fresh@example.org")),
        "username taken": answer(sign_up("taken", "other@example.org")),
        "username taken, other case": answer(sign_up("TAKEN", "third@example.org")),
        "address taken": answer(sign_up("someone", "Taken@example.org")),
    }
    assert len(set(answers.values())) == 1, answers
    assert answers["new"][:2] == (302, "/accounts/signup/sent/")
    sent = {m.to[0]: m.body for m in mail.outbox}
    assert "finish signing up as fresh" in sent["fresh@example.org"]
    assert (
        "That username is taken" in sent["other@example.org"] and "That username is taken" in sent["third@example.org"]
    )
    assert "already has an account: your username is taken" in sent["Taken@example.org"]
    assert set(User.objects.values_list("username", flat=True)) == {"taken", "fresh"}


def test_an_unconfirmed_account_cannot_log_in():
    sign_up("pending", "pending@example.org")
    assert not Client().login(username="pending", password=PHRASE)
    assert Client().post("/api/auth/token/", {"username": "pending", "password": PHRASE}).status_code == 401


def test_an_unconfirmed_sign_up_gives_its_name_back_once_its_link_expired(settings):
    sign_up("squatter", "squatter@example.org")
    User.objects.filter(username="squatter").update(
        date_joined=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 1)
    )
    sign_up("squatter", "real@example.org")
    assert User.objects.get(username="squatter").email == "real@example.org"


def test_a_username_with_a_direction_override_is_refused():
    response = sign_up("evil\u202eliam", "evil@example.org")
    assert response.status_code == 200 and "valid username" in response.content.decode()
    assert not User.objects.exists() and not mail.outbox


def test_sign_up_mail_is_throttled_per_address(settings):
    settings.GEC_MAIL_LIMITS = {"email": (2, 3600), "address": (100, 3600)}
    statuses = [sign_up(f"user{k}", "victim@example.org").status_code for k in range(3)]
    assert statuses == [302, 302, 429] and len(mail.outbox) == 2


def test_signing_up_again_before_confirming_mails_the_link_again():
    sign_up("pending", "pending@example.org")
    sign_up("other-name", "pending@example.org")
    assert (
        "finish signing up as pending" in mail.outbox[-1].body and "/accounts/signup/activate/" in mail.outbox[-1].body
    )
    assert not User.objects.filter(username="other-name").exists()
