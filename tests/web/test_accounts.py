"""Accounts: sign up, log in (with links to sign-up and reset), reset a password by email, the profile."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from leaderboard.models import Profile

pytestmark = pytest.mark.django_db


def mailed_link(index: int = -1) -> str:
    return re.search(r"https?://[^/\s]+(/accounts/\S+)", mail.outbox[index].body).group(1)


def test_sign_up_by_the_mailed_link_logs_in_and_returns_to_where_one_was(client):
    page = client.get("/accounts/signup/?next=/tasks/x/team/").content.decode()
    assert 'name="email"' in page and 'name="password2"' in page
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "email": "n@example.org",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
            "next": "/tasks/x/team/",
        },
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/signup/sent/"
    assert not User.objects.get(username="newbie").is_active
    response = client.get(mailed_link())
    assert response.status_code == 302 and response["Location"] == "/tasks/x/team/"
    user = User.objects.get(username="newbie")
    assert user.is_active and user.email == "n@example.org" and Profile.objects.get(user=user).notify_by_email
    assert "newbie" in client.get("/").content.decode()
    assert client.get(mailed_link()).status_code == 400  # used once


def test_sign_up_never_redirects_off_the_site(client):
    client.post(
        "/accounts/signup/",
        {
            "username": "n2",
            "email": "n2@example.org",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
            "next": "https://evil.example/",
        },
    )
    assert client.get(mailed_link())["Location"] == "/"


def test_sign_up_needs_an_email_and_matching_passwords(client):
    response = client.post(
        "/accounts/signup/", {"username": "n3", "password1": "a long pass phrase", "password2": "other"}
    )
    assert response.status_code == 200 and not User.objects.filter(username="n3").exists()


def test_the_login_page_links_to_sign_up_and_reset(client):
    page = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/signup/' in page and 'href="/accounts/password_reset/"' in page
    assert '<a href="/accounts/login/">log in</a>' in page  # the header links to itself without a next
    assert 'href="/accounts/signup/?next=/"' in client.get("/").content.decode()  # elsewhere it comes back here


def test_password_reset_by_email(client):
    User.objects.create_user("forgetful", email="f@example.org", password="old password")
    response = client.post("/accounts/password_reset/", {"email": "f@example.org"}, follow=True)
    assert "Check your email" in response.content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["f@example.org"]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a new pass phrase", "new_password2": "a new pass phrase"},
        follow=True,
    )
    assert "Password set" in done.content.decode()
    assert Client().login(username="forgetful", password="a new pass phrase")


def test_password_change_in_the_sites_layout(client):
    user = User.objects.create_user("changer", password="old password")
    client.force_login(user)
    assert "GEC leaderboard" in client.get("/accounts/password_change/").content.decode()
    client.post(
        "/accounts/password_change/",
        {"old_password": "old password", "new_password1": "a new pass phrase", "new_password2": "a new pass phrase"},
    )
    assert User.objects.get(pk=user.pk).check_password("a new pass phrase")


def test_profile_sets_email_and_notifications(client):
    user = User.objects.create_user("pro", email="old@example.org", password="pw")
    client.force_login(user)
    assert "Email me when a submission is scored" in client.get("/accounts/profile/").content.decode()
    client.post("/accounts/profile/", {"email": "new@example.org"})  # the checkbox unticked
    assert not Profile.objects.get(user=user).notify_by_email
    assert User.objects.get(pk=user.pk).email == "old@example.org"  # until the new address confirms
    client.get(mailed_link())
    assert User.objects.get(pk=user.pk).email == "new@example.org"
    assert Client().get("/accounts/profile/").status_code == 302  # log in first


def test_one_account_per_email(client):
    User.objects.create_user("first", email="same@example.org", password="pw")
    response = client.post(
        "/accounts/signup/",
        {
            "username": "second",
            "email": "SAME@example.org",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
        },
    )
    assert response["Location"] == "/accounts/signup/sent/"  # the page says nothing; the mail does
    assert "already has an account: your username is first" in mail.outbox[-1].body
    assert not User.objects.filter(username="second").exists()
