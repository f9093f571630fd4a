"""Accounts: sign-up by e-mail confirmation, a new participant's profile, profile changes
(a new address confirmed by mail too).

Sign-up answers the same whatever exists: the page always says "check your
email", and what the mail says depends on what the address owner may know. A new
username and address get an inactive account and a link that activates it; an address
that has an account gets a mail saying so (with the username and a reset link); a taken
username gets a mail asking for another. Only the owner of the address learns which, one
mail at a time (:func:`leaderboard.throttling.mail_attempt`). A change of address in the
profile works the same way, so the profile page is no oracle either.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlencode, urlsafe_base64_decode, urlsafe_base64_encode

from ...models import Profile


class ActivationTokens(PasswordResetTokenGenerator):
    """Links that activate a new account; dead once it is active, or after
    ``PASSWORD_RESET_TIMEOUT`` (three days)."""

    key_salt = "leaderboard.services.accounts.signup.ActivationTokens"

    def _make_hash_value(self, user, timestamp):
        return f"{super()._make_hash_value(user, timestamp)}{user.is_active}"


activation_tokens = ActivationTokens()


def profile_of(user: User) -> Profile:
    """The user's profile, made on first use (users made before profiles existed have none)."""
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def update_profile(user: User, *, notify_by_email: bool) -> Profile:
    profile = profile_of(user)
    profile.notify_by_email = notify_by_email
    profile.save(update_fields=["notify_by_email"])
    return profile


EMAIL_CHANGE_SALT = "leaderboard.services.accounts.signup.change_email"


def request_email_change(user: User, email: str, *, site: str) -> None:
    """Mail the new address a link that makes it the account's, or, when another account
    has it, a mail saying so; the caller answers the same either way."""
    if User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
        body = (
            f"Someone (perhaps you) asked at {site} to use this address for another account, but it already has one. "
            f"Log in: {site}{reverse('login')}, or reset its password: {site}{reverse('password_reset')}\n\n"
            "If this was not you, ignore this mail.\n"
        )
    else:
        token = signing.dumps({"user": user.pk, "email": email, "was": user.email}, salt=EMAIL_CHANGE_SALT)
        body = (
            f"Open this link to use this address for your account {user.username} at {site} "
            f"(it works for {settings.PASSWORD_RESET_TIMEOUT // 86400} "
            f"days):\n\n{site}{reverse('email-confirm', args=[token])}\n\n"
            "If this was not you, ignore this mail: nothing changes.\n"
        )
    send_mail("Your address at the GEC leaderboard", body, None, [email])


@transaction.atomic
def confirm_email_change(token: str) -> User | None:
    """The account whose address the link changes, changed; None when the link is not
    valid, expired, already used, or the address was taken meanwhile."""
    try:
        change = signing.loads(token, salt=EMAIL_CHANGE_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:
        return None
    user = User.objects.select_for_update().filter(pk=change["user"], email=change["was"]).first()
    if user is None or User.objects.filter(email__iexact=change["email"]).exclude(pk=user.pk).exists():
        return None
    user.email = change["email"]
    user.save(update_fields=["email"])
    return user


def sign_up(username: str, email: str, password: str, *, site: str, next_url: str = "") -> None:
    """Send the one mail the address owner should get (module docstring); the caller
    answers the same whatever happened. An address whose account still waits for its
    link gets the link again."""
    hashed = make_password(password)  # in every case, so no answer comes back faster
    release_stale_signups(username, email)
    holder = User.objects.filter(email__iexact=email).first()
    if holder is None and not User.objects.filter(username__iexact=username).exists():
        holder = new_inactive_user(username, email, hashed)
    if holder is None:
        body = (
            f"Someone (perhaps you) tried to sign up at {site} as {username!r} with this address. That "
            "username is taken: "
            f"sign up again with another one: {site}{reverse('signup')}\n\nIf this was not you, ignore this mail.\n"
        )
    elif is_pending(holder):
        link = f"{site}{activation_path(holder)}" + (f"?{urlencode({'next': next_url})}" if next_url else "")
        body = (
            f"Welcome to {site}. Open this link to finish signing up as {holder.username}, with the password chosen at "
            f"sign-up (it works for {settings.PASSWORD_RESET_TIMEOUT // 86400} days):\n\n{link}\n\n"
            "If this was not you, ignore this mail: the account is never activated.\n"
        )
    else:
        body = (
            f"Someone (perhaps you) tried to sign up at {site} with this address, which already has an account: "
            f"your username is {holder.username}.\n\nLog in: {site}{reverse('login')}\n"
            f"Forgot the password? Reset it: {site}{reverse('password_reset')}\n\nIf this was not you, ignore "
            "this mail.\n"
        )
    send_mail("Your sign-up at the GEC leaderboard", body, None, [email])


def is_pending(user: User) -> bool:
    """Signed up for, never activated (an account an administrator deactivated has logged in)."""
    return not user.is_active and user.last_login is None


def new_inactive_user(username: str, email: str, hashed_password: str) -> User | None:
    """The account waiting for its link, with its profile; None when a sign-up at the
    same moment took the username first."""
    try:
        with transaction.atomic():
            user = User.objects.create(username=username, email=email, password=hashed_password, is_active=False)
            profile_of(user)
    except IntegrityError:
        return None
    return user


def activation_path(user: User) -> str:
    return reverse(
        "signup-activate", args=[urlsafe_base64_encode(force_bytes(user.pk)), activation_tokens.make_token(user)]
    )


def activate(uidb64: str, token: str) -> User | None:
    """The account the link activates, now active; None when the link is not valid."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    user = User.objects.filter(pk=pk, is_active=False).first()
    if user is None or not activation_tokens.check_token(user, token):
        return None
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user


def release_stale_signups(username: str, email: str) -> int:
    """Accounts signed up for but never activated give their username and address back
    once their link has expired, so nobody can hold a name by signing up without
    confirming."""
    expired = timezone.now() - dt.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    stale = User.objects.filter(
        is_active=False, last_login__isnull=True, date_joined__lt=expired
    )  # pending, link expired
    return (stale.filter(username__iexact=username) | stale.filter(email__iexact=email)).delete()[0]


CONSOLE_MAIL = "django.core.mail.backends.console.EmailBackend"


def mails_printed() -> bool:
    """Whether mails are printed in the server's terminal instead of sent: no mail server
    is set (the embedded mode of ``scripts/start``), so the pages that say "check your
    email" say where the link really is."""
    from django.conf import settings

    return settings.EMAIL_BACKEND == CONSOLE_MAIL
