"""API tokens end: on any password change, on request (DELETE /api/auth/token/ with the
token itself, the profile page's button) and, when GEC_TOKEN_TTL_DAYS is set, by age
(after a password change the old token still answered 200, and
asking again gave the same token)."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
OLD, NEW = "an old pass phrase", "a new pass phrase"


@pytest.fixture
def ann():
    return User.objects.create_user("ann", email="ann@example.org", password=OLD)


@pytest.fixture
def admin_browser():
    browser = Client()
    browser.force_login(User.objects.create_superuser("root", password="root pass phrase"))
    return browser


def obtain(password=OLD, **headers) -> str:
    response = Client().post("/api/auth/token/", {"username": "ann", "password": password}, **headers)
    assert response.status_code == 200, response.content
    return response.json()["token"]


def status_with(key: str) -> int:
    return Client().get("/api/me/submissions/", HTTP_AUTHORIZATION=f"Token {key}").status_code


def test_asking_twice_gives_the_same_working_token(ann):
    key = obtain()
    assert obtain() == key and status_with(key) == 200


def test_a_password_change_on_the_form_revokes_the_token(ann):
    key = obtain()
    browser = Client()
    browser.force_login(ann)
    browser.post("/accounts/password_change/", {"old_password": OLD, "new_password1": NEW, "new_password2": NEW})
    assert status_with(key) == 401
    assert obtain(NEW) != key


def test_set_password_anywhere_revokes_the_token(ann):
    key = obtain()
    ann.set_password(NEW)
    ann.save()
    assert status_with(key) == 401


def test_the_admin_password_form_revokes_the_token(ann, admin_browser):
    key = obtain()
    response = admin_browser.post(
        f"/admin/auth/user/{ann.pk}/password/", {"password1": NEW, "password2": NEW, "usable_password": "true"}
    )
    assert response.status_code == 302
    assert status_with(key) == 401


def test_disabling_password_log_in_in_the_admin_revokes_the_token(ann, admin_browser):
    key = obtain()
    admin_browser.post(f"/admin/auth/user/{ann.pk}/password/", {"usable_password": "false", "unset-password": "1"})
    assert not User.objects.get(pk=ann.pk).has_usable_password()
    assert status_with(key) == 401


def test_saving_the_user_otherwise_keeps_the_token(ann):
    key = obtain()
    ann.email = "ann@example.net"
    ann.save()
    Client().login(username="ann", password=OLD)  # last_login is saved
    assert status_with(key) == 200


def test_delete_with_the_token_itself_revokes_it(ann):
    key = obtain()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.delete("/api/auth/token/").status_code == 204
    assert status_with(key) == 401
    assert client.delete("/api/auth/token/").status_code == 401
    assert obtain() != key


def test_delete_without_a_token_is_401(ann):
    assert APIClient().delete("/api/auth/token/").status_code == 401


def test_a_stale_token_sent_along_does_not_refuse_a_log_in(ann):
    key = obtain()
    Token.objects.filter(key=key).delete()
    assert obtain(HTTP_AUTHORIZATION=f"Token {key}") != key


def test_the_profile_page_revokes_the_token(ann):
    key = obtain()
    browser = Client()
    browser.force_login(ann)
    assert 'id="revoke-token"' in browser.get("/accounts/profile/").content.decode()
    response = browser.post("/accounts/profile/token/revoke/", follow=True)
    assert "API token is revoked" in response.content.decode()
    assert status_with(key) == 401 and 'id="revoke-token"' not in response.content.decode()


def test_an_expired_token_is_401_with_a_reason_and_a_new_one_is_issued(ann, settings):
    settings.GEC_TOKEN_TTL_DAYS = 30
    key = obtain()
    Token.objects.filter(key=key).update(created=Token.objects.get(key=key).created - dt.timedelta(days=31))
    response = Client().get("/api/me/submissions/", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 401 and "expired 30 days after it was issued" in response.json()["detail"]
    fresh = obtain()
    assert fresh != key and status_with(fresh) == 200


def test_without_a_lifetime_tokens_do_not_expire(ann, settings):
    settings.GEC_TOKEN_TTL_DAYS = None
    key = obtain()
    Token.objects.filter(key=key).update(created=Token.objects.get(key=key).created - dt.timedelta(days=3650))
    assert status_with(key) == 200
