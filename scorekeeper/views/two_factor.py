"""Two-factor sign-in: the code asked for after the password, turning it on with a QR code,
new recovery codes, and turning it off. Each change asks for the password again."""

import time
from base64 import b32encode
from binascii import unhexlify

import segno
from axes.handlers.proxy import AxesProxyHandler
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice, default_key

from scorekeeper import selectors, services
from scorekeeper.forms import CodeForm, PasswordConfirmForm, TwoFactorEnableForm
from scorekeeper.views.accounts import (
    LOGIN_PENDING,
    _too_many_guesses,
    account_page,
    password_confirmed,
    password_guesses_limited,
    password_write,
)
from scorekeeper.views.errors import too_many_attempts

# The code must follow the password within this: a log-in left half done at a tablet expires.
LOGIN_PENDING_SECONDS = 5 * 60
# The secret shown while the member scans it, kept in the session until the app's code confirms
# it: nothing is stored for the account before that.
ENROLMENT_KEY = "two_factor_key"


def _pending_user(request: HttpRequest):
    pending = request.session.get(LOGIN_PENDING)
    if not pending or time.time() - pending["at"] > LOGIN_PENDING_SECONDS:
        return None, None
    user = get_user_model().objects.filter(pk=pending["user"], is_active=True).first()
    return user, pending


@sensitive_post_parameters("code")
@never_cache
@require_http_methods(["GET", "POST"])
def login_code(request: HttpRequest) -> HttpResponse:
    """After the right password, the app's code or a recovery code; then the account is logged
    in. A wrong code counts as a failed log-in for the account and the address (django-axes):
    DJANGO_LOGIN_ATTEMPTS of them, passwords and codes together, lock both out."""
    user, pending = _pending_user(request)
    if user is None:
        request.session.pop(LOGIN_PENDING, None)
        messages.info(request, _("Log in again: the code must follow the password within minutes."))
        return redirect("login")
    credentials = {"username": user.get_username()}
    if request.method == "POST" and AxesProxyHandler.is_locked(request, credentials):
        return too_many_attempts(request)
    form = CodeForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            device = services.two_factor_verify(user=user, code=form.cleaned_data["code"])
        except services.WrongCode as refusal:
            # django-axes counts it, and answers with its lockout page at the limit.
            user_login_failed.send(sender=__name__, credentials=credentials, request=request)
            form.add_error("code", str(refusal))
        except services.ActionRefused as refusal:
            form.add_error("code", str(refusal))
        else:
            del request.session[LOGIN_PENDING]
            login(request, user, backend=pending["backend"])
            otp_login(request, device)
            return redirect(pending["next"])
    return render(request, "registration/login_code.html", {"form": form})


def _qr_code(key: str, user) -> tuple[str, str]:
    """The enrolment picture (inline SVG, dark on light whatever the theme) and the secret as
    text to type instead, in groups of four."""
    address = TOTPDevice(user=user, key=key).config_url
    picture = segno.make(address, error="m").svg_inline(scale=5, dark="#000", light="#fff")
    secret = b32encode(unhexlify(key)).decode()
    return mark_safe(picture), " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


@sensitive_post_parameters("password", "code")
@never_cache
@require_http_methods(["GET", "POST"])
@login_required
def two_factor_enable(request: HttpRequest) -> HttpResponse:
    """Turn two-factor sign-in on: scan the picture, type the app's code and the password; the
    recovery codes are shown once, on the answer."""
    if selectors.two_factor_device(request.user) is not None:
        messages.info(request, _("Two-factor sign-in is on already."))
        return redirect("account")
    key = request.session.setdefault(ENROLMENT_KEY, default_key())
    form = TwoFactorEnableForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and _too_many_guesses(request):
        return too_many_attempts(request)
    if form.is_valid():
        codes = password_write(
            request,
            form,
            lambda: services.two_factor_enable(user=request.user, key=key, **form.cleaned_data),
            refusal_field="code",
        )
        if not form.errors:
            del request.session[ENROLMENT_KEY]
            otp_login(request, selectors.two_factor_device(request.user))
            return render(
                request, "registration/recovery_codes.html", {"codes": codes, "new": True}
            )
    picture, secret = _qr_code(key, request.user)
    context = {"form": form, "picture": picture, "secret": secret}
    return render(request, "registration/two_factor_enable.html", context)


@sensitive_post_parameters("password")
@never_cache
@require_POST
@login_required
@password_guesses_limited
def two_factor_codes(request: HttpRequest) -> HttpResponse:
    """Ten new recovery codes (the old ones stop working), shown once."""
    form = PasswordConfirmForm(request.POST, auto_id="codes_%s")
    codes = password_confirmed(request, form, services.two_factor_recovery_codes_new)
    if form.errors:
        return account_page(request, codes_form=form)
    return render(request, "registration/recovery_codes.html", {"codes": codes})


@sensitive_post_parameters("password")
@require_POST
@login_required
@password_guesses_limited
def two_factor_disable(request: HttpRequest) -> HttpResponse:
    form = PasswordConfirmForm(request.POST, auto_id="off_%s")
    password_confirmed(request, form, services.two_factor_disable)
    if form.errors:
        return account_page(request, off_form=form)
    messages.success(request, _("Two-factor sign-in is off: the password alone logs in."))
    return redirect("account")
