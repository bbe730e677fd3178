"""A club's members: what its invite code gives newcomers, and each member's role."""

from datetime import timedelta

from django import forms
from django.utils import timezone

from scorekeeper.models import Role

# How long a shared invite code keeps working, as an owner would say it.
EXPIRIES = {
    "": ("Until I change the code", None),
    "1": ("For a day", timedelta(days=1)),
    "7": ("For a week", timedelta(days=7)),
    "30": ("For a month", timedelta(days=30)),
}


class InviteForm(forms.Form):
    role = forms.ChoiceField(
        choices=Role.invitable(),
        label="Newcomers join as",
        help_text="Scorers play the tables; viewers only read.",
        error_messages={"invalid_choice": "Newcomers join as scorers or as viewers."},
    )
    expires = forms.ChoiceField(
        choices=[(key, label) for key, (label, _) in EXPIRIES.items()],
        required=False,
        label="The code works",
        error_messages={"invalid_choice": "Pick how long the code works from the list."},
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
        label="Role",
        error_messages={"invalid_choice": "A member is an owner, a scorer or a viewer."},
    )
