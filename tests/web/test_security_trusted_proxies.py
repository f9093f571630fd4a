"""Limits keyed on the client's address believe X-Forwarded-For only as far as
GEC_NUM_PROXIES trusted proxies vouch for it (with a new header
value per request, 60 more password guesses went through)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from leaderboard.throttling import client_address

pytestmark = pytest.mark.django_db


def spoofed(k: int) -> dict:
    return {"HTTP_X_FORWARDED_FOR": f"10.0.{k // 256}.{k % 256}"}


@pytest.fixture
def few_attempts_per_address(settings):
    settings.GEC_LOGIN_LIMITS = {"username": (100, 900), "address": (3, 900)}


def test_by_default_the_header_is_never_read(settings):
    assert settings.GEC_NUM_PROXIES == 0 and settings.REST_FRAMEWORK["NUM_PROXIES"] == 0
    request = RequestFactory().get("/", REMOTE_ADDR="192.0.2.7", HTTP_X_FORWARDED_FOR="203.0.113.1")
    assert client_address(request) == "192.0.2.7"


def test_a_new_header_per_login_attempt_does_not_reset_the_address_limit(few_attempts_per_address):
    client = Client()
    statuses = [
        client.post("/accounts/login/", {"username": f"user{k}", "password": "x"}, **spoofed(k)).status_code
        for k in range(4)
    ]
    assert statuses == [200, 200, 200, 429]


def test_a_new_header_per_token_request_does_not_reset_the_address_limit(few_attempts_per_address):
    User.objects.create_user("ann", password="right-password")
    client = Client()
    statuses = [
        client.post("/api/auth/token/", {"username": f"user{k}", "password": "x"}, **spoofed(k)).status_code
        for k in range(3)
    ]
    assert statuses == [401, 401, 401]
    assert (
        client.post("/api/auth/token/", {"username": "ann", "password": "right-password"}, **spoofed(99)).status_code
        == 429
    )


def test_a_new_header_per_request_does_not_reset_the_anonymous_rate(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min"}}
    client = Client()
    assert [client.get("/api/tasks/", **spoofed(k)).status_code for k in range(4)] == [200, 200, 200, 429]


def test_behind_one_proxy_the_address_it_saw_is_the_client(settings, few_attempts_per_address):
    settings.GEC_NUM_PROXIES = 1
    request = RequestFactory().get("/", REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.5")
    assert client_address(request) == "203.0.113.5"
    client = Client(REMOTE_ADDR="10.9.9.9")  # the proxy's own address
    guesses = [
        client.post(
            "/accounts/login/", {"username": f"u{k}", "password": "x"}, HTTP_X_FORWARDED_FOR=f"1.1.1.{k}, 203.0.113.5"
        ).status_code
        for k in range(4)
    ]
    assert guesses == [200, 200, 200, 429]  # what the client wrote on the left changes nothing
    other = client.post("/accounts/login/", {"username": "u9", "password": "x"}, HTTP_X_FORWARDED_FOR="203.0.113.6")
    assert other.status_code == 200  # another client behind the same proxy has its own limit


def test_behind_two_proxies_the_second_hop_from_the_right_is_the_client(settings):
    settings.GEC_NUM_PROXIES = 2
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.5, 10.0.0.1")
    assert client_address(request) == "203.0.113.5"
    assert client_address(RequestFactory().get("/", REMOTE_ADDR="10.0.0.2")) == "10.0.0.2"  # no header: the peer
