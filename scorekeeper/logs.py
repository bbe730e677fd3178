"""What the app's log lines say: the id of the request each was written for (one id a request,
from the router's X-Request-ID behind DJANGO_TRUSTED_PROXIES, else made here, and sent back in
the response), a client's mistake (403, 404, 409, 429) in one line, never a traceback, and at
most one e-mail to the admins for each kind of error every few minutes."""

import hashlib
import logging
import re
import threading
import time
import uuid
from contextvars import ContextVar

from django.conf import settings
from django.core.cache import cache

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


# One e-mail for each kind of error in this many seconds: an outage answers every request with
# a 500, and the admins need to hear of it once, not sixty times in ten seconds.
ERROR_MAIL_SECONDS = 5 * 60


def error_kind(record: logging.LogRecord) -> str:
    """What makes two errors one kind: the exception and the line it was raised at, whatever
    the page; without one, the logger and the message before its arguments."""
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        traceback = error.__traceback__
        while traceback and traceback.tb_next:
            traceback = traceback.tb_next
        where = (
            f"{traceback.tb_frame.f_code.co_filename}:{traceback.tb_lineno}" if traceback else ""
        )
        kind = f"{type(error).__module__}.{type(error).__qualname__}@{where}"
    else:
        kind = f"{record.name}:{record.msg}"
    return hashlib.sha256(kind.encode()).hexdigest()[:32]


class ErrorMailLimit(logging.Filter):
    """Lets through the first record of each kind in ERROR_MAIL_SECONDS. Counted in the shared
    cache, so every instance agrees; when the cache cannot be reached (a database cache in a
    database outage) each process counts for itself instead, which still sends a handful, not
    one a request."""

    # After the cache failed, it is not asked again for this long: in an outage every error
    # would otherwise wait for its connection to time out.
    CACHE_RESTS_SECONDS = 30

    def __init__(self):
        super().__init__()
        self._lock = threading.Lock()
        self._sent: dict[str, float] = {}  # kind -> when, only while the cache is unreachable
        self._cache_down_until = 0.0

    def filter(self, record: logging.LogRecord) -> bool:
        kind = error_kind(record)
        if time.monotonic() >= self._cache_down_until:
            try:
                return cache.add(f"error-mail:{kind}", 1, ERROR_MAIL_SECONDS)
            except Exception:  # whatever the cache failed with: count here instead
                self._cache_down_until = time.monotonic() + self.CACHE_RESTS_SECONDS
        return self._first_here(kind)

    def _first_here(self, kind: str) -> bool:
        now = time.monotonic()
        with self._lock:
            if now - self._sent.get(kind, -ERROR_MAIL_SECONDS) < ERROR_MAIL_SECONDS:
                return False
            self._sent = {k: t for k, t in self._sent.items() if now - t < ERROR_MAIL_SECONDS}
            self._sent[kind] = now
            return True
