"""Accounts: signing up, and a member's own settings (e-mail, password, leaving for good)."""

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.decorators import ratelimit

from scorekeeper import services
from scorekeeper.forms import AccountDeleteForm, EmailForm, LoginForm, SignupForm

log_in = auth_views.LoginView.as_view(authentication_form=LoginForm)


@require_http_methods(["GET", "POST"])
@ratelimit(key="ip", rate="10/h", method="POST")
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


def _account_page(request, *, email_form=None, delete_form=None, status=200):
    context = {
        "email_form": email_form or EmailForm(initial={"email": request.user.email}),
        "delete_form": delete_form or AccountDeleteForm(),
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
    form = AccountDeleteForm(request.POST)
    if form.is_valid():
        try:
            services.account_delete(user=request.user, password=form.cleaned_data["password"])
        except services.ActionRefused as refusal:
            form.add_error("password", str(refusal))
        else:
            logout(request)
            messages.success(request, "Your account is deleted. The games you played are kept.")
            return redirect("login")
    return _account_page(request, delete_form=form)


# Password resets: a few a day from one address or for one e-mail, so nobody's mailbox is flooded.
password_reset = ratelimit(key="ip", rate="5/h", method="POST")(
    ratelimit(key="post:email", rate="3/h", method="POST")(auth_views.PasswordResetView.as_view())
)
