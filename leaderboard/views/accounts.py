"""Sign-up by e-mail confirmation and the profile; log-in with a limit on password
guessing (:func:`leaderboard.throttling.password_attempt`); password reset with a limit
on mail (:func:`leaderboard.throttling.mail_attempt`); log-out and password change are
Django's own views. Sign-up and reset answer the same whatever accounts exist."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from ..selectors.teams import memberships_of
from ..services.accounts import tokens
from ..services.accounts.signup import (
    activate,
    confirm_email_change,
    mails_printed,
    profile_of,
    request_email_change,
    sign_up,
    update_profile,
)
from ..throttling import mail_attempt, wait_message
from .account_forms import ProfileForm, SignupForm, ThrottledLoginForm


def next_url(request, default: str = "/") -> str:
    """Where to go after signing up: the ``next`` asked for, if it is on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    return (
        target
        if url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure())
        else default
    )


def mail_allowed(request, form) -> bool:
    """Take a mail from the limits, or put the wait on the form (the view answers 429)."""
    if mail_attempt(request, form.cleaned_data["email"]):
        return True
    form.add_error(
        None, ValidationError(wait_message("mails asked for", settings.GEC_MAIL_LIMITS["email"]), code="throttled")
    )
    return False


def signup(request):
    if request.user.is_authenticated:
        return redirect(next_url(request))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and mail_allowed(request, form):
        data = form.cleaned_data
        sign_up(
            data["username"],
            data["email"],
            data["password1"],
            site=request.build_absolute_uri("/").rstrip("/"),
            next_url=next_url(request, ""),
        )
        return redirect("signup-sent")
    status = 429 if form.has_error(NON_FIELD_ERRORS, "throttled") else 200
    return render(request, "registration/signup.html", {"form": form, "next": next_url(request, "")}, status=status)


def signup_sent(request):
    return render(request, "registration/signup_sent.html")


def signup_activate(request, uidb64, token):
    """The link of the sign-up mail: the account is active, and logged in."""
    user = activate(uidb64, token)
    if user is None:
        return render(request, "registration/signup_invalid.html", status=400)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(
        request,
        f"Welcome, {user.username}. Register a team on a task's Team page, or just upload: you get a team of your own.",
    )
    return redirect(next_url(request))


def email_confirm(request, token):
    """The link of the address-change mail."""
    user = confirm_email_change(token)
    if user is None:
        return render(request, "registration/email_invalid.html", status=400)
    messages.success(request, f"Your address is now {user.email}.")
    return redirect("profile" if request.user == user else "home")


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page (the same answer whether or not an account has the address),
    with a limit on the mails one address or one client can ask for: 429 beyond it."""

    def form_valid(self, form):
        if not mail_allowed(self.request, form):
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)


@login_required
def profile(request):
    current = profile_of(request.user)
    form = ProfileForm(request.POST or None, instance=current, initial={"email": request.user.email})
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        new_address = email.lower() != request.user.email.lower()
        if not new_address or mail_allowed(request, form):
            update_profile(request.user, notify_by_email=form.cleaned_data["notify_by_email"])
            if new_address:
                request_email_change(request.user, email, site=request.build_absolute_uri("/").rstrip("/"))
                where = " (this server prints its mails in its terminal: the link is there)" if mails_printed() else ""
                messages.info(request, f"We sent a link to {email}{where}: your address changes once you open it.")
            messages.success(request, "Profile saved.")
            return redirect("profile")
    teams = memberships_of(request.user)
    token = tokens.current(request.user)
    return render(
        request,
        "registration/profile.html",
        {
            "form": form,
            "memberships": teams,
            "token": token,
            "token_expires": token and tokens.expires_at(token),
        },
        status=429 if form.has_error(NON_FIELD_ERRORS, "throttled") else 200,
    )


@login_required
@require_POST
def revoke_token(request):
    """The profile page's button: the API token stops working at once."""
    if tokens.revoke(request.user):
        messages.success(
            request, "Your API token is revoked: scripts using it get 401 now. gec-submit login gets a new one."
        )
    else:
        messages.info(request, "You had no API token.")
    return redirect("profile")


class LoginView(auth_views.LoginView):
    """Django's log-in page; 429 while the username or the address is locked out."""

    authentication_form = ThrottledLoginForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response
