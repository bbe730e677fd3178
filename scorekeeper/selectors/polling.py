"""Following a table from another screen, cheaply: the screen polls every second, and while the
table is unchanged the answer is 304 Not Modified after one query.

A table's ETag is its id and version (`Game.version` moves on with every write). The round
screen's poll address carries a signature of (table, user) made for the session that loaded the
page, so the unchanged answer needs neither the session row nor the user row: its one query reads
the version and checks that the user still belongs to the table's club and that the session is
still signed in. A poll without a valid
signature (another session, a logged-out browser, an expired one) goes through the ordinary login
and ownership checks instead; it costs more queries, never more access.
"""

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

from .tables import table_version_for_member, tv_link_version

# A signature is about 90 characters; anything much longer is not one of ours.
_MAX_KEY_LENGTH = 200


def table_etag(*, screen: str, pk: int, version: int) -> str:
    # Weak: two renders of one version differ byte for byte (each masks the CSRF token anew)
    # but mean the same.
    return f'W/"{screen}-{pk}-{version}"'


def _salt(session_key: str) -> str:
    return f"scorekeeper.selectors.polling:{session_key}"


def poll_url(request: HttpRequest, pk: int) -> str:
    """The address the round screen polls, signed for this user, table and session."""
    payload = {"table": pk, "user": request.user.pk}
    key = signing.dumps(payload, salt=_salt(request.session.session_key))
    return f"{reverse('game_live', args=[pk])}?key={key}"


def poll_user_id(request: HttpRequest, pk: int) -> int | None:
    """Whom the poll address was signed for, if it was signed for this table in this session,
    no longer ago than a session lasts; None otherwise. Reads no database row, nor the session:
    its key is the cookie's (the unchanged_polls middleware answers before the session's)."""
    key = request.GET.get("key", "")
    session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not key or len(key) > _MAX_KEY_LENGTH or not session_key:
        return None
    try:
        signed = signing.loads(key, salt=_salt(session_key), max_age=settings.SESSION_COOKIE_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(signed, dict) or signed.get("table") != pk:
        return None
    user_id = signed.get("user")
    return user_id if isinstance(user_id, int) else None


def not_modified(response: HttpResponse, etag: str) -> HttpResponse:
    """What every answer to a poll says, changed or not: its ETag, that only this browser may
    keep it and must ask again each time, and that it differs for htmx."""
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])
    return response


def unchanged(request: HttpRequest) -> HttpResponse | None:
    """304 Not Modified for a screen's poll (the round screen's, with its signed address, or the
    TV's) of a table unchanged since the ETag the screen has; None for anything else, and for a
    poll that needs the session to be answered. One query, no session or user row: the
    unchanged_polls middleware asks this before the rest of the stack."""
    if request.method != "GET" or "HTTP_IF_NONE_MATCH" not in request.META:
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    if match.url_name == "game_live":
        screen, pk = "table", match.kwargs["pk"]
        user_id = poll_user_id(request, pk)
        session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
        version = (
            table_version_for_member(pk=pk, user_id=user_id, session_key=session_key)
            if user_id
            else None
        )
    elif match.url_name == "tv":
        screen, (pk, version) = "tv", tv_link_version(match.kwargs["token"]) or (0, None)
    else:
        return None
    if version is None:
        return None
    etag = table_etag(screen=screen, pk=pk, version=version)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        return None  # changed: the view answers with the table
    request.get_host()  # a host not ours is refused here as on every page
    if screen == "tv":
        response["X-Robots-Tag"] = "noindex"
    return not_modified(response, etag)
