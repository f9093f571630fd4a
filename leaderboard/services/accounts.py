"""Accounts: a new participant's user and profile, and profile changes."""
from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from ..models import Profile


def profile_of(user: User) -> Profile:
    """The user's profile, made on first use (users made before profiles existed have none)."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


@transaction.atomic
def update_profile(user: User, *, email: str, notify_by_email: bool) -> Profile:
    user.email = email
    user.save(update_fields=["email"])
    profile = profile_of(user)
    profile.notify_by_email = notify_by_email
    profile.save(update_fields=["notify_by_email"])
    return profile
