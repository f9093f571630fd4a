from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, BaseUserCreationForm
from django.contrib.auth.models import User

from ..models import Profile
from ..models.text import NAME_MAX, visible_name
from ..throttling import password_attempt, wait_message


class SignupForm(BaseUserCreationForm):
    """Username, address and password, checked (Django's password validators included)
    but not against existing accounts: what exists is told by mail to the address's
    owner only (:func:`leaderboard.services.accounts.signup.sign_up`)."""

    email = forms.EmailField(
        help_text="we send a link there to finish signing up; later, password resets and (if you want them) results"
    )

    class Meta(BaseUserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def validate_unique(self):
        """Taken names and addresses are the mail's business, not the page's."""


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(help_text="a new address is used once you open the link we mail to it")

    class Meta:
        model = Profile
        fields = ("notify_by_email",)
        labels = {"notify_by_email": "Email me when a submission is scored or fails"}


class TeamNameForm(forms.Form):
    name = forms.CharField(max_length=NAME_MAX, label="Team name", validators=[visible_name])


class ThrottledLoginForm(AuthenticationForm):
    """Every attempt takes a token from the username's and the address's buckets, so a
    locked-out guesser cannot probe with a right password either."""

    def clean(self):
        if not password_attempt(self.request, self.cleaned_data.get("username") or ""):
            raise forms.ValidationError(
                wait_message("login attempts", settings.GEC_LOGIN_LIMITS["username"]), code="throttled"
            )
        return super().clean()
