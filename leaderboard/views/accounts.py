"""Logging in, with a limit on password guessing (:func:`leaderboard.throttling.password_attempt`)."""
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from ..throttling import login_wait, password_attempt


class ThrottledLoginForm(AuthenticationForm):
    def clean(self):
        if not password_attempt(self.request, self.cleaned_data.get("username") or ""):
            minutes = max(1, round(login_wait() / 60))
            raise ValidationError(f"Too many login attempts. Try again in {minutes} minute{'s' if minutes > 1 else ''}.", code="throttled")
        return super().clean()


class LoginView(auth_views.LoginView):
    """Django's login page; 429 while the username or the address is locked out."""

    authentication_form = ThrottledLoginForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "throttled"):
            response.status_code = 429
        return response
