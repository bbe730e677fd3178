"""Accounts: signing up, logging in, and a member's own settings (language, e-mail, password,
leaving for good). Two-factor sign-in's pages are in views/two_factor.py."""

import time
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.core import get_usage
from django_ratelimit.decorators import ratelimit

from scorekeeper import forms, selectors, services
from scorekeeper.views.errors import too_many_attempts

# Who typed the right password in this browser, when, and where to go next: with two-factor
# sign-in on, the account is logged in only when its code follows (views/two_factor.py).
LOGIN_PENDING = "login_pending"
# The language the member chose, kept in the session (middleware.member_language); "": none.
LANGUAGE = "language"


def member_language_start(request: HttpRequest, user) -> None:
    """As a member logs in, or changes their language: their choice, for every page after."""
    request.session[LANGUAGE] = selectors.account_language(user_id=user.pk)


def _next_address(request: HttpRequest) -> str:
    """Where a log-in goes on to: `next` when it is an address of this site, else home."""
    address = request.POST.get("next", request.GET.get("next", ""))
    if url_has_allowed_host_and_scheme(
        address, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return address
    return resolve_url(settings.LOGIN_REDIRECT_URL)


@sensitive_post_parameters()
@never_cache
@require_http_methods(["GET", "POST"])
def log_in(request: HttpRequest) -> HttpResponse:
    """Django's log-in form (wrong passwords counted by django-axes). An account with two-factor
    sign-in is not logged in yet: the code is asked for next (login_code)."""
    form = forms.LoginForm(request, data=request.POST if request.method == "POST" else None)
    if form.is_valid():
        user = form.get_user()
        if selectors.two_factor_device(user) is None:
            login(request, user)
            return redirect(_next_address(request))
        request.session[LOGIN_PENDING] = {
            "user": user.pk,
            "backend": user.backend,
            "next": _next_address(request),
            "at": time.time(),
        }
        return redirect("login_code")
    next_address = request.POST.get("next", request.GET.get("next", ""))
    return render(request, "registration/login.html", {"form": form, "next": next_address})


@require_http_methods(["GET", "POST"])
@ratelimit(key="ip", rate="10/h", method="POST")
def signup(request: HttpRequest) -> HttpResponse:
    form = forms.SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Two sign-ups with one name at the same moment: the other one got it.
            form.add_error("username", _("That username was taken a moment ago: choose another."))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


def _password_guesses(request: HttpRequest, *, count: bool = False) -> int:
    """Wrong passwords a signed-in member typed to delete the account or change the password,
    counted like the login's (django-axes): DJANGO_LOGIN_ATTEMPTS of them lock both for
    DJANGO_LOGIN_LOCKOUT_MINUTES. With `count`, one more."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    usage = get_usage(
        request,
        group="password-guesses",
        key="user",
        rate=f"{settings.AXES_FAILURE_LIMIT}/{minutes}m",
        method="POST",
        increment=count,
    )
    return usage["count"] if usage else 0


def _too_many_guesses(request: HttpRequest) -> bool:
    return _password_guesses(request) >= settings.AXES_FAILURE_LIMIT


def password_guesses_limited(view):
    """For a view that checks the member's password: a POST after too many wrong ones (counted
    like the login's) is answered with the lockout page, and the view is not run."""

    @wraps(view)
    def limited(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.method == "POST" and _too_many_guesses(request):
            return too_many_attempts(request)
        return view(request, *args, **kwargs)

    return limited


def password_write(request: HttpRequest, form, write, *, refusal_field: str = "password"):
    """Call `write`, a service that checks the member's password first, for a form that
    cleaned: a wrong password is counted like the login's and said on the form, and so is any
    other refusal (on `refusal_field`). Returns what the service returned; the form has errors
    when it refused."""
    try:
        return write()
    except services.WrongPassword as refusal:
        _password_guesses(request, count=True)
        form.add_error("password", str(refusal))
    except services.ActionRefused as refusal:
        form.add_error(refusal_field, str(refusal))
    return None


def password_confirmed(request: HttpRequest, form, service):
    """For a form that asks only for the member's password: once it cleaned, `service(user=...,
    password=...)` through password_write. Returns what the service returned; the form has
    errors when it did not clean or was refused."""
    if not form.is_valid():
        return None
    password = form.cleaned_data["password"]
    return password_write(request, form, lambda: service(user=request.user, password=password))


@require_http_methods(["GET", "POST"])
@login_required
@password_guesses_limited
def password_change(request: HttpRequest) -> HttpResponse:
    """Django's password change, with wrong old passwords counted like the login's."""
    response = auth_views.PasswordChangeView.as_view()(request)
    form = getattr(response, "context_data", {}).get("form")
    if request.method == "POST" and form is not None and form.has_error("old_password"):
        _password_guesses(request, count=True)
    if request.method == "POST" and response.status_code == 302:
        services.account_notice_send(user=request.user, change="password")
    return response


def account_page(
    request, *, email_form=None, delete_form=None, off_form=None, codes_form=None, status=200
):
    """The account page, with the forms a refused change is shown in."""
    language = selectors.account_language(user_id=request.user.pk)
    context = {
        "language_form": forms.LanguageForm(initial={"language": language}),
        "email_form": email_form or forms.EmailForm(initial={"email": request.user.email}),
        "delete_form": delete_form or forms.AccountDeleteForm(),
        "other_browsers": selectors.other_browsers(
            user=request.user, session_key=request.session.session_key
        ),
        "two_factor": selectors.two_factor_device(request.user),
        "recovery_codes_left": selectors.recovery_codes_left(request.user),
        # Each form of the page that asks for the password has ids of its own.
        "off_form": off_form or forms.PasswordConfirmForm(auto_id="off_%s"),
        "codes_form": codes_form or forms.PasswordConfirmForm(auto_id="codes_%s"),
    }
    return render(request, "registration/account.html", context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
@ratelimit(key="user", rate="10/h", method="POST")
@password_guesses_limited
def account(request: HttpRequest) -> HttpResponse:
    """The e-mail address password resets go to, changed with the password; a new one is
    confirmed from its own mailbox. Links to change the password, two-factor sign-in, leave."""
    if request.method == "GET":
        return account_page(request)
    form = forms.EmailForm(request.POST)
    if not form.is_valid():
        return account_page(request, email_form=form)
    old, new = request.user.email, form.cleaned_data["email"].strip()
    sent = password_write(
        request,
        form,
        lambda: services.account_email_change(
            user=request.user,
            email=new,
            password=form.cleaned_data["password"],
            site=request.build_absolute_uri("/").rstrip("/"),
        ),
        refusal_field="email",
    )
    if form.errors:
        return account_page(request, email_form=form)
    if sent:
        messages.success(
            request,
            _(
                "We sent a link to %(new)s: your address changes when you open it. Until then "
                "password resets go to %(old)s."
            )
            % {"new": new, "old": old}
            if old
            else _(
                "We sent a link to %(new)s: your address changes when you open it. Until then "
                "there is none."
            )
            % {"new": new},
        )
    elif not new and old:
        messages.success(request, _("Removed your e-mail address."))
    else:
        messages.info(request, _("That is your address already."))
    return redirect("account")


@require_POST
@login_required
def account_language(request: HttpRequest) -> HttpResponse:
    """The language of the member's pages and e-mails, from this page on (in every browser
    they log in to after)."""
    form = forms.LanguageForm(request.POST)
    if not form.is_valid():
        return redirect("account")
    services.account_language_set(user=request.user, language=form.cleaned_data["language"])
    member_language_start(request, request.user)
    # Said in the language chosen: the browser's, for none.
    language = form.cleaned_data["language"] or translation.get_language_from_request(request)
    with translation.override(language):
        messages.success(request, _("Saved your language."))
    return redirect("account")


@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to a new address: the address is the account's once the button is
    pressed (a mail scanner opening the link changes nothing). It needs no log-in: the link,
    signed for this account and its address, is the proof."""
    try:
        account, email = services.email_change_read(token=token)
        if request.method == "POST":
            services.account_email_confirm(token=token)
    except services.ActionRefused as refusal:
        return render(request, "registration/email_confirm.html", {"refusal": str(refusal)})
    if request.method == "GET":
        context = {"account": account, "email": email}
        return render(request, "registration/email_confirm.html", context)
    messages.success(request, _("Password resets now go to %(email)s.") % {"email": email})
    return redirect("account" if request.user.is_authenticated else "login")


@require_POST
@login_required
@password_guesses_limited
def account_delete(request: HttpRequest) -> HttpResponse:
    form = forms.AccountDeleteForm(request.POST)
    password_confirmed(request, form, services.account_delete)
    if form.errors:
        return account_page(request, delete_form=form)
    logout(request)
    messages.success(request, _("Your account is deleted. The games you played are kept."))
    return redirect("login")


def _email(group: str, request: HttpRequest) -> str:
    """The address a reset is asked for, as mail servers read it: Ann@X and ann@x are one."""
    return request.POST.get("email", "").strip().lower()


@require_POST
@login_required
def sessions_end(request: HttpRequest) -> HttpResponse:
    """Log out every other browser signed in to this account; this one stays signed in."""
    ended = services.sessions_end_others(user=request.user, session_key=request.session.session_key)
    messages.success(
        request,
        ngettext(
            "Logged out %(count)d other browser.", "Logged out %(count)d other browsers.", ended
        )
        % {"count": ended},
    )
    return redirect("account")


# Password resets: a few a day from one address or for one e-mail, so nobody's mailbox is flooded.
password_reset = ratelimit(key="ip", rate="5/h", method="POST")(
    ratelimit(key=_email, rate="3/h", method="POST")(
        auth_views.PasswordResetView.as_view(form_class=forms.LanguagePasswordResetForm)
    )
)
