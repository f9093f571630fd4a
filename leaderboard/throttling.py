"""Who may try again how soon: password guessing on the login form and on
``POST /api/auth/token/`` share one limit per username and per client address, mail
sent on request (sign-up, password reset) is limited per e-mail address and per client
address, and the anonymous API has a generous ceiling. Counted in :class:`RateBucket`
rows, so every web process sees the same counts.

Every limit keyed on the client's address takes it from :func:`client_address`, which
believes ``X-Forwarded-For`` only as far as ``GEC_NUM_PROXIES`` trusted proxies vouch for
it: a header the client wrote itself must not give it a fresh bucket per request."""

from __future__ import annotations

from django.conf import settings
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from .models import RateBucket


def client_address(request) -> str:
    """The address ``GEC_NUM_PROXIES`` hops from the right of ``X-Forwarded-For`` (each
    trusted proxy appends the address it was called from; what is further left, the
    client may have written), else ``REMOTE_ADDR``; '' when the server was not told (a
    WSGI call without ``REMOTE_ADDR``). With no trusted proxy the header is never read."""
    hops = settings.GEC_NUM_PROXIES
    forwarded = (
        [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()] if hops > 0 else []
    )
    return forwarded[-min(hops, len(forwarded))] if forwarded else request.META.get("REMOTE_ADDR", "")


def password_attempt(request, username: str) -> bool:
    """Take one attempt from the username's and the address's buckets; False when either
    is empty. Every attempt counts, so a locked-out guesser cannot probe with a right one."""
    limits = settings.GEC_LOGIN_LIMITS
    takes = [
        RateBucket.take(RateBucket.key_for("login-user", username.strip().lower()), *limits["username"]),
        RateBucket.take(RateBucket.key_for("login-address", client_address(request)), *limits["address"]),
    ]
    return all(takes)


def mail_attempt(request, email: str) -> bool:
    """Take one mail from the e-mail address's and the client address's buckets (sign-up,
    password reset and address changes share them): False when either is empty. Counted whether or not
    an account has the address, so a refusal says nothing about accounts."""
    limits = settings.GEC_MAIL_LIMITS
    takes = [
        RateBucket.take(RateBucket.key_for("mail-to", email.strip().lower()), *limits["email"]),
        RateBucket.take(RateBucket.key_for("mail-from", client_address(request)), *limits["address"]),
    ]
    return all(takes)


def wait_message(what: str, limits: tuple[int, float]) -> str:
    """ "Too many ... Try again in N minutes." for a bucket of ``limits`` (capacity, seconds)."""
    capacity, seconds = limits
    minutes = max(1, round(seconds / capacity / 60))
    return f"Too many {what}. Try again in {minutes} minute{'s' if minutes > 1 else ''}."


def login_wait() -> float:
    """Seconds until a locked-out username may try once more."""
    capacity, seconds = settings.GEC_LOGIN_LIMITS["username"]
    return seconds / capacity


class PasswordThrottle(BaseThrottle):
    """DRF's side of :func:`password_attempt`, for the token endpoint."""

    def allow_request(self, request, view):
        if request.method != "POST":
            return True  # nothing to guess with: DRF answers 405
        data = request.data  # any JSON (a list, a number), read within GEC_MAX_JSON_BODY_BYTES (api/parsers.py)
        username = data.get("username", "") if isinstance(data, dict) else ""
        # what the serializer takes for a username (a number too), never a whole structure's repr
        named = isinstance(username, (str, int, float)) and not isinstance(username, bool)
        return password_attempt(request, str(username)[:200] if named else "")

    def wait(self):
        return login_wait()


class AnonymousThrottle(SimpleRateThrottle):
    """``DEFAULT_THROTTLE_RATES["anon"]`` per client address for requests without a user."""

    scope = "anon"

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)  # read per request: settings can change in tests

    def get_cache_key(self, request, view):
        return (
            None
            if request.user and request.user.is_authenticated
            else RateBucket.key_for(self.scope, client_address(request))
        )

    def allow_request(self, request, view):
        key = self.get_cache_key(request, view) if self.rate else None
        return key is None or RateBucket.take(key, self.num_requests, self.duration)

    def wait(self):
        return self.duration / self.num_requests
