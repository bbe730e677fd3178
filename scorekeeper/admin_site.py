"""The admin site: staff need two-factor sign-in, and log in through the app's own log-in page
(the password, then the code), never a second log-in form of the admin's."""

from django.contrib import admin, messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django_otp import user_has_device


class StaffAdminSite(admin.AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        """Staff, signed in with their code in this browser (django-otp's OTPMiddleware)."""
        return super().has_permission(request) and request.user.is_verified()

    def login(self, request: HttpRequest, extra_context=None) -> HttpResponse:
        """Where the admin sends whoever it does not let in: a staff member without two-factor
        sign-in to turn it on, one who has it but did not give a code here to log in again,
        anyone else to the log-in page."""
        back = request.GET.get("next") or reverse("admin:index")
        user = request.user
        if user.is_active and user.is_staff and not user.is_verified():
            if not user_has_device(user):
                messages.info(
                    request,
                    "The admin asks for two-factor sign-in: turn it on here, then open the "
                    "admin again.",
                )
                return redirect("two_factor_enable")
            messages.info(request, "The admin asks for your code: log in again with it.")
        return redirect_to_login(back, reverse("login"))
