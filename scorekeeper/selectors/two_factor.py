"""An account's two-factor sign-in: its authenticator app, and how many recovery codes are left."""

from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice


def two_factor_device(user) -> TOTPDevice | None:
    """The account's authenticator app, when two-factor sign-in is on."""
    return TOTPDevice.objects.devices_for_user(user, confirmed=True).first()


def recovery_codes_left(user) -> int:
    return StaticToken.objects.filter(device__user=user, device__confirmed=True).count()
