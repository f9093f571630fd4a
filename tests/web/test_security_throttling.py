"""Password guessing is throttled (100 wrong passwords, no slowdown), on the
token endpoint and the login form alike, and the anonymous API has a ceiling: 429s,
counted in RateBucket rows."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client

from leaderboard.models import RateBucket

pytestmark = pytest.mark.django_db

LIMIT = 10  # GEC_LOGIN_LIMITS["username"] attempts per 15 minutes


@pytest.fixture
def ann():
    return User.objects.create_user("ann", password="right-password")


def token(client, password, username="ann"):
    return client.post("/api/auth/token/", {"username": username, "password": password})


def login(client, password, username="ann"):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_the_token_endpoint_answers_429_after_repeated_wrong_passwords(ann):
    client = Client()
    assert token(client, "right-password").status_code == 200
    statuses = [token(client, f"guess-{k}").status_code for k in range(LIMIT)]
    assert statuses[: LIMIT - 1] == [401] * (LIMIT - 1) and statuses[-1] == 429
    response = token(client, "right-password")
    assert response.status_code == 429 and "Retry-After" in response.headers


def test_the_login_form_locks_the_username_out_even_for_the_right_password(ann):
    client = Client()
    for k in range(LIMIT):
        assert login(client, f"guess-{k}").status_code == 200  # the form again, with its error
    response = login(client, "right-password")
    assert response.status_code == 429 and "Too many login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_one_address_cannot_spread_its_guesses_over_many_usernames(settings):
    settings.GEC_LOGIN_LIMITS = {"username": (10, 900), "address": (3, 900)}
    client = Client()
    assert [login(client, "x", username=f"user{k}").status_code for k in range(4)] == [200, 200, 200, 429]


def test_a_bucket_refills_with_time(ann):
    key = RateBucket.key_for("test", "ann")
    assert [RateBucket.take(key, 2, 60) for _ in range(3)] == [True, True, False]
    RateBucket.objects.filter(key=key).update(
        updated_at=RateBucket.objects.get(key=key).updated_at - dt.timedelta(seconds=30)
    )
    assert [RateBucket.take(key, 2, 60) for _ in range(2)] == [True, False]


def test_the_bucket_keeps_no_username_or_address(ann):
    login(Client(), "wrong")
    assert RateBucket.objects.count() == 2
    assert (
        not RateBucket.objects.filter(key__contains="ann").exists()
        and not RateBucket.objects.filter(key__contains="127.0.0.1").exists()
    )


def test_the_anonymous_api_answers_429_over_its_rate(settings, ann):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min"}}
    client = Client()
    assert [client.get("/api/tasks/").status_code for _ in range(4)] == [200, 200, 200, 429]
    client.force_login(ann)
    assert client.get("/api/tasks/").status_code == 200  # signed-in users are not counted as anonymous
