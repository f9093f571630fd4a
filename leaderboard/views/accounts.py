"""Sign-up and profile; log-in with a limit on password guessing
(:func:`leaderboard.throttling.password_attempt`); log-out, password change and reset are
Django's own views."""
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from ..models import Membership
from ..services import tokens
from ..services.accounts import profile_of, update_profile
from .account_forms import ProfileForm, SignupForm, ThrottledLoginForm


def next_url(request, default: str = "/") -> str:
    """Where to go after signing up: the ``next`` asked for, if it is on this site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    return target if url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()) else default


def signup(request):
    if request.user.is_authenticated:
        return redirect(next_url(request))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        profile_of(user)
        login(request, user)
        messages.success(request, f"Welcome, {user.username}. Register a team on a task's Team page, or just upload: you get a team of your own.")
        return redirect(next_url(request))
    return render(request, "registration/signup.html", {"form": form, "next": next_url(request, "")})


@login_required
def profile(request):
    current = profile_of(request.user)
    form = ProfileForm(request.POST or None, instance=current, initial={"email": request.user.email})
    if request.method == "POST" and form.is_valid():
        update_profile(request.user, email=form.cleaned_data["email"], notify_by_email=form.cleaned_data["notify_by_email"])
        messages.success(request, "Profile saved.")
        return redirect("profile")
    teams = Membership.objects.filter(user=request.user).select_related("team", "task").order_by("task__slug")
    token = tokens.current(request.user)
    return render(request, "registration/profile.html", {
        "form": form, "memberships": teams, "token": token, "token_expires": token and tokens.expires_at(token),
    })


@login_required
@require_POST
def revoke_token(request):
    """The profile page's button: the API token stops working at once."""
    if tokens.revoke(request.user):
        messages.success(request, "Your API token is revoked: scripts using it get 401 now. gec-submit login gets a new one.")
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
