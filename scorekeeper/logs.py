"""What the app's log lines say: the id of the request each was written for (one id a request,
from the router's X-Request-ID behind DJANGO_TRUSTED_PROXIES, else made here, and sent back in
the response), and a client's mistake (403, 404, 409, 429) in one line, never a traceback."""

import logging
import re
import uuid
from contextvars import ContextVar

from django.conf import settings

_request_id: ContextVar[str] = ContextVar("request_id", default="-")
_SAFE = re.compile(r"[A-Za-z0-9._-]{1,64}")


def request_id(get_response):
    """Middleware: the request's id, for every log line written while it is answered."""

    def middleware(request):
        given = request.META.get("HTTP_X_REQUEST_ID", "")
        trusted = settings.TRUSTED_PROXY_COUNT and _SAFE.fullmatch(given)
        # Not reset on the way out: Django writes a 404's line after the middleware returned.
        # The next request on this thread sets its own.
        _request_id.set(given if trusted else uuid.uuid4().hex[:16])
        response = get_response(request)
        response["X-Request-ID"] = _request_id.get()
        return response

    return middleware


class RequestIdFilter(logging.Filter):
    """Gives every record the id of the request it was written for ("-" outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _request_id.get()
        return True


class ClientErrorsInOneLine(logging.Filter):
    """A refused request (4xx) is the client's doing, not a bug: its line, without the
    traceback Django attaches to a 403 or a 400."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True
