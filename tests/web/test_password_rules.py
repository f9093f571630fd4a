"""Django's four password validators are on (the password
``password`` was accepted): in the sign-up, change and reset forms, not in create_user."""

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db


def sign_up(username, password):
    return Client().post(
        "/accounts/signup/",
        {"username": username, "email": f"{username}@example.org", "password1": password, "password2": password},
    )


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("password", "too common"),
        ("short1", "too short"),
        ("8675309123", "entirely numeric"),
        ("margaretha-k", "too similar to the username"),
    ],
)
def test_sign_up_refuses_a_weak_password(password, reason):
    response = sign_up("margaretha-k", password)
    assert response.status_code == 200 and reason in response.content.decode()
    assert not User.objects.exists() and not mail.outbox


def test_a_password_change_refuses_a_common_password():
    user = User.objects.create_user("ann", password="an old pass phrase")
    client = Client()
    client.force_login(user)
    response = client.post(
        "/accounts/password_change/",
        {"old_password": "an old pass phrase", "new_password1": "password", "new_password2": "password"},
    )
    assert response.status_code == 200 and "too common" in response.content.decode()


def test_scripts_and_tests_may_still_make_users_with_any_password():
    User.objects.create_user("bot", password="pw")
    assert Client().login(username="bot", password="pw")
