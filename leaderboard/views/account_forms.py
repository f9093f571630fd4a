from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

from ..models import Profile


class SignupForm(UserCreationForm):
    email = forms.EmailField(help_text="for password resets and (if you want them) results")

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class ProfileForm(forms.ModelForm):
    email = forms.EmailField()

    class Meta:
        model = Profile
        fields = ("notify_by_email",)
        labels = {"notify_by_email": "Email me when a submission is scored or fails"}


class TeamNameForm(forms.Form):
    name = forms.CharField(max_length=100, label="Team name")
