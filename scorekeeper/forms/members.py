"""A club's members: what its invite code gives newcomers, and each member's role."""

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy

from scorekeeper.models import Role

# How long a shared invite code keeps working, as an owner would say it.
EXPIRIES = {
    "": (gettext_lazy("Until I change the code"), None),
    "1": (gettext_lazy("For a day"), timedelta(days=1)),
    "7": (gettext_lazy("For a week"), timedelta(days=7)),
    "30": (gettext_lazy("For a month"), timedelta(days=30)),
}


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        choices=Role.invitable(),
        label=gettext_lazy("Newcomers join as"),
        help_text=gettext_lazy("Scorers play the tables; viewers only read."),
        error_messages={"invalid_choice": gettext_lazy("Newcomers join as scorers or as viewers.")},
    )
    expires = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in EXPIRIES.items()],
        required=False,
        label=gettext_lazy("The code works"),
        error_messages={
            "invalid_choice": gettext_lazy("Pick how long the code works from the list.")
        },
    )

    def clean(self):
        cleaned = super().clean()
        if "expires" in cleaned:
            lasts = EXPIRIES[cleaned["expires"]][1]
            cleaned["expires_at"] = timezone.now() + lasts if lasts else None
        return cleaned


class RoleForm(forms.Form):
    role = forms.ChoiceField(
        choices=Role.choices,
        label=gettext_lazy("Role"),
        error_messages={
            "invalid_choice": gettext_lazy("A member is an owner, a scorer or a viewer.")
        },
    )
