"""Signing up, logging in, and an account's e-mail address and deletion."""

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils import translation
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):
    """A username and password; an e-mail address only for resetting a forgotten password."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
        help_texts = {"email": _("Optional: only to reset a forgotten password.")}


class LoginForm(AuthenticationForm):
    """Django's log-in form, with the username's length checked before a login is tried: Django
    only sets the attribute, and a failed attempt stores the username (django-axes, 255
    characters, which PostgreSQL refuses to exceed)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))


def password_field(label: str = "") -> forms.CharField:
    label = label or _("Your password, to confirm")
    return forms.CharField(widget=forms.PasswordInput, label=label, max_length=200)


class EmailForm(forms.Form):
    """A new address is confirmed from its own mailbox before resets go to it."""

    email = forms.EmailField(
        required=False,
        label=_("E-mail address"),
        help_text=_(
            "Only to reset a forgotten password; leave empty for none. A new address "
            "gets a link to confirm it."
        ),
    )
    password = password_field()

    def __init__(self, *args, **kwargs):
        # Several forms of the account page ask for the password: each its own ids.
        super().__init__(*args, auto_id="email_%s", **kwargs)


class PasswordConfirmForm(forms.Form):
    """Only the password again, before a change to how the account signs in."""

    password = password_field()


class CodeForm(forms.Form):
    code = forms.CharField(
        label=_("Code"),
        max_length=40,
        help_text=_("The six digits your authenticator app shows, or one of your recovery codes."),
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autofocus": True}),
    )


class TwoFactorEnableForm(forms.Form):
    code = forms.CharField(
        label=_("The six digits your app shows"),
        max_length=10,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )
    password = password_field()


class AccountDeleteForm(forms.Form):
    password = password_field()


class LanguageForm(forms.Form):
    """The language of the member's pages and e-mails; none: their browser's."""

    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("The browser's language")), *settings.LANGUAGES],
        help_text=_(
            "The pages and the e-mails the app sends you. Cards keep their notation: 7H, QS, JK."
        ),
    )


class LanguagePasswordResetForm(PasswordResetForm):
    """Django's password reset, its e-mail in the language the account chose (a reset is asked
    for signed out, so the page's language is only the browser's)."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        chosen = getattr(context["user"], "language", None)
        with translation.override(chosen.language if chosen else translation.get_language()):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)
