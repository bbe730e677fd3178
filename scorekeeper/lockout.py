"""The login lockout: django-axes's database handler, with failures counted two ways apart.

Per account at an address (AXES_LOCKOUT_PARAMETERS): after DJANGO_LOGIN_ATTEMPTS wrong passwords
that account is locked at that address only, so a stranger cannot lock the owner out of their
own tablet, and a login wipes only its own account's failures at its own address
(AXES_RESET_ON_SUCCESS), never another's. Per address: after DJANGO_LOGIN_ATTEMPTS_PER_ADDRESS
wrong passwords, whichever accounts they were for, every login from that address waits too, so
one address cannot try a few passwords at each of many accounts.
"""

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum


class LoginLockout(AxesDatabaseHandler):
    def get_failures(self, request, credentials: dict | None = None) -> int:
        """The failures that count against this login: its account's at its address, or the
        account's limit once the address has reached its own."""
        failures = super().get_failures(request, credentials)
        if address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT:
            return max(failures, get_failure_limit(request, credentials))
        return failures


def address_failures(request) -> int:
    """Wrong passwords from the request's address within the lockout's time, for any account."""
    recent = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address, attempt_time__gte=get_cool_off_threshold(request)
    )
    return recent.aggregate(failures=Sum("failures_since_start"))["failures"] or 0
