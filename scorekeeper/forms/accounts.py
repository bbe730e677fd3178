"""Signing up, logging in, and an account's e-mail address and deletion."""

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.validators import MaxLengthValidator


class SignupForm(UserCreationForm):
    """A username and password; an e-mail address only for resetting a forgotten password."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {"email": "Optional: only to reset a forgotten password."}


class LoginForm(AuthenticationForm):
    """Django's log-in form, with the username's length checked before a login is tried: Django
    only sets the attribute, and a failed attempt stores the username (django-axes, 255
    characters, which PostgreSQL refuses to exceed)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))


class EmailForm(forms.Form):
    email = forms.EmailField(
        required=False,
        label="E-mail address",
        help_text="Only to reset a forgotten password; leave empty for none.",
    )


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        widget=forms.PasswordInput, label="Your password, to confirm", max_length=200
    )
