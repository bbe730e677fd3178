"""The app's own middleware: the health check, answered before anything that needs a host name
or the database, the polls of unchanged tables, answered before the session, a shared tablet's
session (its idle time, and the cookie its service worker keys its pages to), the headers every
page needs, the language a signed-in member chose, and the time zone each request starts in."""

import time

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.signals import user_logged_out
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.crypto import salted_hmac
from django.utils.functional import SimpleLazyObject
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper import polling
from scorekeeper.selectors.sessions import tablet_idle_minutes
from scorekeeper.views.accounts import LANGUAGE
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


# A shared tablet's session (docs/using.md, Shared tablets). The session remembers when its
# member last opened a page or tapped (a screen's polls do not count: a tablet left on a round
# screen is idle) and the idle time of their clubs, both read again at most once a minute, so
# a session is written once a minute at most. The browser gets an opaque tag of its session in
# a cookie its scripts can read (SESSION_TAG_COOKIE), which lasts as long as the session may
# (its idle time included), and every answer that read the session names it (or "none") in
# SESSION_TAG_HEADER: the service worker keeps each page under the tag it was shown for, and
# shows none once the cookie names another session, or none.
SEEN, IDLE = "tablet_seen", "tablet_idle"
SEEN_EVERY_SECONDS = 60
SESSION_TAG_COOKIE = "sk_session"
SESSION_TAG_HEADER = "Sk-Session"


def session_tag(session_key: str) -> str:
    """Opaque: names the session to the tablet without giving away its key."""
    digest = salted_hmac("scorekeeper.tablet-session", session_key, algorithm="sha256")
    return digest.hexdigest()[:24]


def tablet_session_start(request, user) -> None:
    """As a member logs in: their clubs' idle time, counted from now."""
    request.session[SEEN] = time.time()
    request.session[IDLE] = tablet_idle_minutes(user_id=user.pk)


def _idle_over(session) -> bool:
    idle, seen = session.get(IDLE), session.get(SEEN)
    return bool(idle and seen) and time.time() - seen > idle * 60


def _user_unless_idle(request, user):
    """The signed-in member, unless their clubs' idle time ran out since their last action:
    then the session ends here, as a logout would end it."""
    if SESSION_KEY in request.session and _idle_over(request.session):
        user_logged_out.send(sender=user.__class__, request=request, user=user)
        request.session.flush()
        return AnonymousUser()
    return user


def _an_action(request) -> bool:
    # A page opened or a form sent; an htmx GET (a screen's poll, a partial) is not one.
    return request.method not in ("GET", "HEAD") or "HX-Request" not in request.headers


def _tag_seconds(session) -> int:
    seconds = session.get_expiry_age()
    if idle := session.get(IDLE):
        seconds = min(seconds, idle * 60 - (time.time() - session.get(SEEN, time.time())))
    return max(int(seconds), 0)


def _tag_the_session(request, response) -> None:
    had = request.COOKIES.get(SESSION_TAG_COOKIE)
    session = request.session
    if not (session.accessed or had):
        return  # nothing read it (a static file, a poll): nothing to say, at no cost
    if SESSION_KEY not in session:
        response[SESSION_TAG_HEADER] = "none"
        if had:
            response.delete_cookie(SESSION_TAG_COOKIE, samesite="Lax")
        return
    seen = session.get(SEEN, 0)
    acted = _an_action(request) and time.time() - seen >= SEEN_EVERY_SECONDS
    if acted:
        session[SEEN] = time.time()
        session[IDLE] = tablet_idle_minutes(user_id=session[SESSION_KEY])
    tag = session_tag(session.session_key)
    response[SESSION_TAG_HEADER] = tag
    # Sent again whenever the session's own cookie is (a modified session's: SessionMiddleware
    # sends it after this), so the two expire together.
    if acted or had != tag or session.modified:
        response.set_cookie(
            SESSION_TAG_COOKIE,
            tag,
            max_age=_tag_seconds(session),
            secure=settings.SESSION_COOKIE_SECURE,
            samesite="Lax",
        )


def tablet_sessions(get_response):
    """A member idle for longer than their clubs allow is signed out at their next request
    (decided as the request first asks who is signed in, so the polls that never ask cost
    nothing), and every answer that read the session tags it for the tablet's service worker."""

    def middleware(request):
        signed_in = request.user
        request.user = SimpleLazyObject(lambda: _user_unless_idle(request, signed_in))
        # For base.html: a page says which session it was shown for.
        request.session_tag = SimpleLazyObject(lambda: session_tag(request.session.session_key))
        response = get_response(request)
        _tag_the_session(request, response)
        return response

    return middleware


def member_language(get_response):
    """The language a signed-in member chose, kept in their session from the login on (so a page
    costs no query for it: views.accounts.member_language_start), over the browser's that
    LocaleMiddleware read. Only a request with a session cookie reads the session."""

    def middleware(request):
        signed = settings.SESSION_COOKIE_NAME in request.COOKIES
        if signed and (language := request.session.get(LANGUAGE)):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return get_response(request)

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
