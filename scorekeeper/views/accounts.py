"""Accounts: signing up, and a member's own settings (e-mail, password, leaving for good)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.core import get_usage
from django_ratelimit.decorators import ratelimit

from scorekeeper import selectors, services
from scorekeeper.forms import AccountDeleteForm, EmailForm, LoginForm, SignupForm
from scorekeeper.views.errors import too_many_attempts

log_in = auth_views.LoginView.as_view(authentication_form=LoginForm)


@require_http_methods(["GET", "POST"])
@ratelimit(key="ip", rate="10/h", method="POST")
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Two sign-ups with one name at the same moment: the other one got it.
            form.add_error("username", "That username was taken a moment ago: choose another.")
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


@require_http_methods(["GET", "POST"])
@login_required
def password_change(request: HttpRequest) -> HttpResponse:
    """Django's password change, with wrong old passwords counted like the login's."""
    if request.method == "POST" and _too_many_guesses(request):
        return too_many_attempts(request)
    response = auth_views.PasswordChangeView.as_view()(request)
    form = getattr(response, "context_data", {}).get("form")
    if request.method == "POST" and form is not None and form.has_error("old_password"):
        _password_guesses(request, count=True)
    return response


def _account_page(request, *, email_form=None, delete_form=None, status=200):
    context = {
        "email_form": email_form or EmailForm(initial={"email": request.user.email}),
        "delete_form": delete_form or AccountDeleteForm(),
        "other_browsers": selectors.other_browsers(
            user=request.user, session_key=request.session.session_key
        ),
    }
    return render(request, "registration/account.html", context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The e-mail address password resets go to; links to change the password or leave."""
    if request.method == "GET":
        return _account_page(request)
    form = EmailForm(request.POST)
    if not form.is_valid():
        return _account_page(request, email_form=form)
    services.account_email_change(user=request.user, email=form.cleaned_data["email"])
    messages.success(request, "Saved your e-mail address.")
    return redirect("account")


@require_POST
@login_required
def account_delete(request: HttpRequest) -> HttpResponse:
    if _too_many_guesses(request):
        return too_many_attempts(request)
    form = AccountDeleteForm(request.POST)
    if form.is_valid():
        try:
            services.account_delete(user=request.user, password=form.cleaned_data["password"])
        except services.WrongPassword as refusal:
            _password_guesses(request, count=True)
            form.add_error("password", str(refusal))
        except services.ActionRefused as refusal:
            form.add_error("password", str(refusal))
        else:
            logout(request)
            messages.success(request, "Your account is deleted. The games you played are kept.")
            return redirect("login")
    return _account_page(request, delete_form=form)


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
    ratelimit(key=_email, rate="3/h", method="POST")(auth_views.PasswordResetView.as_view())
)
