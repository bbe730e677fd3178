"""Failures in the player's words: our own error pages, and 503 while the database (or the
shared cache, DJANGO_CACHE_URL) is away."""

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template.loader import render_to_string
from redis.exceptions import ConnectionError as CacheConnectionError
from redis.exceptions import TimeoutError as CacheTimeoutError

# Errors that mean the database or the shared cache cannot be reached now; anything else is a
# bug (500).
UNREACHABLE = (OperationalError, InterfaceError, CacheConnectionError, CacheTimeoutError)


# PostgreSQL's words for two transactions that crossed: nothing is wrong with the database, and
# the same request made again goes through.
CROSSED = {"40001", "40P01"}  # serialization failure, deadlock detected


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page; 409 "crossed, try again" when the database undid this request's
    transaction because another crossed it; while the database cannot be reached, 503 "back
    in a moment". Rendered without the request's context: a failing database must not be
    asked who is signed in."""
    error = sys.exception()
    if getattr(getattr(error, "__cause__", None), "sqlstate", None) in CROSSED:
        return HttpResponse(render_to_string("409_crossed.html"), status=409)
    if isinstance(error, UNREACHABLE):
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = "10"
        return response
    return HttpResponseServerError(render_to_string("500.html"))


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page open too long, or with cookies off."""
    return HttpResponse(render_to_string("403_csrf.html", request=request), status=403)


def too_many_attempts(request: HttpRequest, exception=None) -> HttpResponse:
    """Too many sign-ups, password resets or invite codes from one address or account."""
    return HttpResponse(render_to_string("429.html", request=request), status=429)
