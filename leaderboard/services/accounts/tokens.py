"""API tokens (DRF's ``Token``, one per user): issued on a password log-in, revoked on
request (the profile page, ``DELETE /api/auth/token/``, ``gec-submit logout``) and by
any password change, and, when ``GEC_TOKEN_TTL_DAYS`` is set, expired that many days
after they were issued.

A token found in a leaked config file or CI log then stops working once its owner
changes the password or revokes it, instead of working forever; asking again after a
revocation or an expiry issues a new key, never the old one.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authtoken.models import Token


def expires_at(token: Token) -> dt.datetime | None:
    days = settings.GEC_TOKEN_TTL_DAYS
    return token.created + dt.timedelta(days=days) if days else None


def is_expired(token: Token, now: dt.datetime | None = None) -> bool:
    end = expires_at(token)
    return end is not None and (now or timezone.now()) >= end


def issue(user: User) -> Token:
    """The user's token, a new one when the last has expired."""
    token = Token.objects.filter(user=user).first()
    if token is not None and is_expired(token):
        token.delete()
        token = None
    return token or Token.objects.create(user=user)


def current(user: User) -> Token | None:
    """The user's token while it works (for the profile page)."""
    token = Token.objects.filter(user=user).first()
    return None if token is None or is_expired(token) else token


def revoke(user: User) -> bool:
    """Revoke the user's token; False when there was none."""
    return Token.objects.filter(user=user).delete()[0] > 0


def revoke_on_password_change(sender, instance: User, update_fields=None, **kwargs) -> None:
    """``pre_save`` of the user model: a password set since the last save (the change and
    reset forms, the admin, ``changepassword``, any ``set_password()``) revokes the token,
    and so does a password made unusable (the admin's "disable password-based
    authentication"). Django's ``_password`` marks a set password; a hash upgraded at
    log-in does not set it."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    if getattr(instance, "_password", None) is not None:
        revoke(instance)
    elif (
        not instance.has_usable_password()
        and User.objects.filter(pk=instance.pk).exclude(password=instance.password).exists()
    ):
        revoke(instance)
