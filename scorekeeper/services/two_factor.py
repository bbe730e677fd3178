"""Two-factor sign-in (django-otp): after the password, a code from an authenticator app (a TOTP
device), or one of ten recovery codes (a static device, each code used once) when the phone is
lost. Turning it on or off, and new recovery codes, need the password again."""

from binascii import unhexlify

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_otp.models import Device
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from scorekeeper.selectors.two_factor import two_factor_device

from .accounts import account_notice_send
from .refusals import ActionRefused, WrongPassword

RECOVERY_CODES = 10
APP_DEVICE_NAME = "authenticator app"
RECOVERY_DEVICE_NAME = "recovery codes"


class WrongCode(ActionRefused):
    """A code that is not the app's nor an unused recovery code: counted like a wrong password."""


def _recovery_codes_new(user) -> list[str]:
    device, _ = StaticDevice.objects.get_or_create(user=user, name=RECOVERY_DEVICE_NAME)
    device.token_set.all().delete()
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def two_factor_enable(*, user, password: str, key: str, code: str) -> list[str]:
    """Turn two-factor sign-in on with the app that was given `key` (hex, from the enrolment
    page) once the password and the app's current `code` confirm it; returns the recovery
    codes, shown once."""
    if not user.check_password(password):
        raise WrongPassword(
            _("That is not your password, so two-factor sign-in was not turned on.")
        )
    app = TOTP(unhexlify(key))
    code = "".join(code.split())
    if not (code.isdigit() and app.verify(int(code), tolerance=1)):
        raise ActionRefused(
            _(
                "That is not the code your app shows now: scan the picture again, or check the "
                "phone's clock, and type the six digits it shows."
            )
        )
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        # The code just typed cannot log in again (django-otp's last_t).
        TOTPDevice.objects.create(
            user=user, name=APP_DEVICE_NAME, key=key, confirmed=True, last_t=app.t()
        )
        codes = _recovery_codes_new(user)
    account_notice_send(user=user, change="two_factor_on")
    return codes


def _password_check(user, password: str, refused: str) -> None:
    """`refused`: the whole refusal, "That is not your password, so ..."."""
    if not user.check_password(password):
        raise WrongPassword(refused)


def two_factor_disable(*, user, password: str) -> None:
    """Turn two-factor sign-in off once the password confirms it: the app's secret and the
    recovery codes are forgotten."""
    _password_check(
        user, password, _("That is not your password, so two-factor sign-in is still on.")
    )
    with transaction.atomic():
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()
    account_notice_send(user=user, change="two_factor_off")


@transaction.atomic
def two_factor_recovery_codes_new(*, user, password: str) -> list[str]:
    """Ten new recovery codes in place of the old ones, once the password confirms it."""
    _password_check(
        user, password, _("That is not your password, so your recovery codes are the same.")
    )
    if two_factor_device(user) is None:
        raise ActionRefused(_("Two-factor sign-in is off: there are no recovery codes to renew."))
    return _recovery_codes_new(user)


def two_factor_verify(*, user, code: str) -> Device:
    """The device that accepts `code` for `user`: six digits are the app's, letters and digits
    a recovery code (used up by this). A wrong code raises WrongCode; django-otp makes each
    device wait 1, 2, 4, 8... seconds after each wrong code in a row, and a code typed
    during that wait is refused unread (ActionRefused, saying how long)."""
    code = "".join(code.split()).lower()
    kind = TOTPDevice if code.isdigit() else StaticDevice
    # The wrong code's count must be kept: the refusal is raised after the transaction.
    with transaction.atomic():
        device = kind.objects.devices_for_user(user, confirmed=True).select_for_update().first()
        allowed, why = device.verify_is_allowed() if device else (True, None)
        verified = allowed and device is not None and device.verify_token(code)
    if verified:
        return device
    if not allowed:
        seconds = max(1, round((why["locked_until"] - timezone.now()).total_seconds()))
        raise ActionRefused(
            ngettext(
                "Too many wrong codes in a row: wait %(seconds)s second and type the code again.",
                "Too many wrong codes in a row: wait %(seconds)s seconds and type the code again.",
                seconds,
            )
            % {"seconds": seconds}
        )
    if kind is StaticDevice:
        raise WrongCode(_("That is not one of your recovery codes, or it was used already."))
    raise WrongCode(_("That is not the code your app shows: type the six digits it shows now."))
