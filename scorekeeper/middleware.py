"""The app's own middleware: the health check, answered before anything that needs a host name
or the database, the polls of unchanged tables, answered before the session, the headers every
page needs, and the time zone each request starts in."""

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.selectors import polling
from scorekeeper.views.health import healthz


def health_check(get_response):
    """/healthz for the platform's health checks, which call it by IP address: it is answered
    before the host name is checked against DJANGO_ALLOWED_HOSTS."""

    def middleware(request):
        if request.path_info == "/healthz":
            return healthz(request)
        return get_response(request)

    return middleware


def request_size_limit(get_response):
    """413 for a request whose body is larger than any upload the app takes, said by its
    Content-Length: refused before a byte of it is read, so nothing is spooled to disk."""

    def middleware(request):
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.REQUEST_MAX_BYTES:
            limit = settings.REQUEST_MAX_BYTES // (1024 * 1024)
            body = render_to_string("413.html", {"limit": limit})
            response = HttpResponse(body, status=413)
            response["Connection"] = "close"  # the rest of the body is not read
            return response
        return get_response(request)

    return middleware


def unchanged_polls(get_response):
    """A screen's poll of a table that has not changed is answered 304 here, with no query from
    the shared cache (DJANGO_CACHE_URL) or after one without it, before the session, CSRF,
    login and rate-limit middleware, which would only cost time:
    the screens' polls, every second, are most of a club night's requests. Anything else, a
    changed table's poll included, goes on through the whole stack."""

    def middleware(request):
        unchanged = polling.unchanged(request)
        return get_response(request) if unchanged is None else unchanged

    return middleware


def page_headers(get_response):
    """What every page of the app says about itself: that it differs for htmx requests (a page
    or one of its partials), that a signed-in member's page is theirs alone, and, for an htmx
    tap whose session has expired, a redirect of the whole browser to the login page rather than
    a login form swapped into the table."""

    def middleware(request):
        response = get_response(request)
        patch_vary_headers(response, ["HX-Request"])
        # A response its view already made private needs no user lookup: the polls of the
        # round screen and the TV answer an unchanged table with one query at most.
        private = "private" in response.get("Cache-Control", "")
        if not private and request.user.is_authenticated:
            patch_cache_control(response, private=True)
        login = resolve_url(settings.LOGIN_URL)
        if request.htmx and response.status_code == 302 and response["Location"].startswith(login):
            return HttpResponseClientRedirect(response["Location"])
        return response

    return middleware


def club_time_zone(get_response):
    """Views of a club's pages activate its time zone (club_or_404, game_or_404); this puts the
    default back after every response, so the next request on this thread starts clean."""

    def middleware(request):
        try:
            return get_response(request)
        finally:
            timezone.deactivate()

    return middleware
