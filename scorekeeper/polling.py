"""Following a table from another screen, cheaply: the screen polls every second, and while the
table is unchanged the answer is 304 Not Modified, before the session is read; with a shared
cache (DJANGO_CACHE_URL, Redis) with no query at all, else after one.

A table's ETag is its id and version (`Game.version` moves on with every write). The round
screen's poll address carries a signature of (table, club, user) made for the session that
loaded the page, so the unchanged answer needs neither the session row nor the user row. A poll
without a valid signature (another session, a logged-out browser, an expired one) goes through
the ordinary login and ownership checks instead; it costs more queries, never more access.

Without a shared cache the one query reads the version and checks that the user still belongs
to the table's club and that the session is still signed in.

With one (settings.POLLS_FROM_CACHE), three keys answer instead, read in one round trip: the
table's version, a pass for the session (signed in as this user) and one for the membership
(this user belongs to this club). Why keep the passes rather than answer from the version alone:
a 304 tells its holder only that nothing has changed since the version they already hold, and
only to someone holding both the session's cookie and a poll address signed for that user,
table and session, who saw that version while allowed to; but what the screen does next is
what a member sees. A screen whose session was ended elsewhere ("log out other browsers") goes
to the login page at its next poll, and one whose member left the club, whose table was deleted
or whose TV link was turned off reloads into the page that says so; answered from the version
alone, they would keep showing the table until its next write. So the checks stay, cheaply: the
passes are written after the one query has checked them, at most a minute before they are used.

What the cache says is never more than the database says:
- A table write puts its new version in the cache while it holds the table's row (the version
  claim's UPDATE), before it commits: two writes to one table reach the cache in the order they
  commit. One rolled back leaves the cache a version ahead, which matches no screen's ETag: the
  screen's poll falls back to the query.
- The one query's answers (the version, the passes) are added only where the cache has nothing
  (`cache.add`), so they never overwrite a newer version, nor a refusal.
- What ends a pass (a logout, the sessions ended from the account page, a member taken out or
  leaving, an account deleted) or a table (deleted, its TV link turned off) writes a refusal in
  its place before it commits (services/polls.py), kept a minute, longer than a request takes:
  a query that read the old state cannot add it back.
- Everything expires after a minute: what only an administrator changes (a session or a
  membership deleted in the admin) and a cache that lost writes (a restart from an old
  snapshot) are right again by then.
"""

import re

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

from scorekeeper.models import TV_TOKEN_LENGTH
from scorekeeper.selectors import table_version_for_member, tv_link_version
from scorekeeper.services.polls import (
    member_cache_key,
    poll_passes_keep,
    session_cache_key,
    table_cache_key,
    tv_cache_key,
)

# A signature is about 100 characters; anything much longer is not one of ours.
_MAX_KEY_LENGTH = 200


def table_etag(*, screen: str, pk: int, version: int) -> str:
    # Weak: two renders of one version differ byte for byte (each masks the CSRF token anew)
    # but mean the same.
    return f'W/"{screen}-{pk}-{version}"'


def _salt(session_key: str) -> str:
    # The module's old name: addresses signed before it moved stay valid.
    return f"scorekeeper.selectors.polling:{session_key}"


def poll_url(request: HttpRequest, game) -> str:
    """The address the round screen polls, signed for this user, table and session."""
    payload = {"table": game.pk, "club": game.club_id, "user": request.user.pk}
    key = signing.dumps(payload, salt=_salt(request.session.session_key))
    return f"{reverse('game_live', args=[game.pk])}?key={key}"


def poll_signed(request: HttpRequest, pk: int) -> tuple[int, int | None] | None:
    """(user id, club id) the poll address was signed for, if it was signed for this table in
    this session, no longer ago than a session lasts; None otherwise. The club is None for an
    address signed before addresses named it. Reads no database row, nor the session: its key
    is the cookie's (the unchanged_polls middleware answers before the session's)."""
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
    user_id, club_id = signed.get("user"), signed.get("club")
    if not isinstance(user_id, int):
        return None
    return user_id, club_id if isinstance(club_id, int) else None


def not_modified(response: HttpResponse, etag: str) -> HttpResponse:
    """What every answer to a poll says, changed or not: its ETag, that only this browser may
    keep it and must ask again each time, and that it differs for htmx."""
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])
    return response


def tv_headers(response: HttpResponse) -> HttpResponse:
    """A TV's answers, changed or not: kept by no cache at all, the browser's own included (a
    TV is a screen anyone in the room may use; the club night's TV page says the same), and
    found by no search engine. Its poll still says what it shows: live.js sends the ETag
    itself."""
    patch_cache_control(response, private=True, no_store=True)
    response["X-Robots-Tag"] = "noindex"
    return response


def _member_version_cached(pk: int, signed: tuple[int, int | None], session_key: str):
    """The table's version as the cache has it, if the cache also holds both passes of this
    poll: the session signed in as the user, the user in the club. None otherwise."""
    user_id, club_id = signed
    if not settings.POLLS_FROM_CACHE or club_id is None:
        return None
    keys = [table_cache_key(pk), session_cache_key(session_key), member_cache_key(club_id, user_id)]
    found = cache.get_many(keys)
    if found.get(keys[1]) != user_id or found.get(keys[2]) != club_id:
        return None
    return found.get(keys[0])


def _member_version_queried(pk: int, user_id: int, session_key: str) -> int | None:
    """The table's version from the one query, which checks the membership and the session;
    with a shared cache, what it checked is kept there for the next polls."""
    polled = table_version_for_member(pk=pk, user_id=user_id, session_key=session_key)
    if polled is None:
        return None
    poll_passes_keep(
        table=(pk, polled.version),
        session=(session_key, user_id, polled.session_expires),
        member=(polled.club_id, user_id),
    )
    return polled.version


_TV_ETAG = re.compile(r'W/"tv-(\d+)-\d+"')


def _tv_version_cached(request: HttpRequest, token: str) -> tuple[int, int | None] | None:
    """(table id, version) as the cache has them for a TV link, in one round trip: the table is
    the one the screen's ETag names, if the cache has the link for it. None where it has not;
    the version None where the cache has none for the table."""
    shown = _TV_ETAG.fullmatch(request.META["HTTP_IF_NONE_MATCH"])
    if not settings.POLLS_FROM_CACHE or shown is None:
        return None
    pk = int(shown[1])
    keys = [tv_cache_key(token), table_cache_key(pk)]
    found = cache.get_many(keys)
    return (pk, found.get(keys[1])) if found.get(keys[0]) == pk else None


def _tv_version_queried(token: str) -> tuple[int, int] | None:
    found = tv_link_version(token)
    if found:
        poll_passes_keep(table=found, tv_token=token)
    return found


def _answer(request: HttpRequest, *, screen: str, pk: int, version: int | None):
    """304 if the screen's ETag is the table's at `version`, else None."""
    if version is None:
        return None
    etag = table_etag(screen=screen, pk=pk, version=version)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        return None
    request.get_host()  # a host not ours is refused here as on every page
    response = not_modified(response, etag)
    return tv_headers(response) if screen == "tv" else response


def unchanged(request: HttpRequest) -> HttpResponse | None:
    """304 Not Modified for a screen's poll (the round screen's, with its signed address, or the
    TV's) of a table unchanged since the ETag the screen has; None for anything else, and for a
    poll that needs the session to be answered. No session or user row, and no query while the
    shared cache answers (one when it does not): the unchanged_polls middleware asks this before
    the rest of the stack. A cached version that differs from the screen's is checked with the
    query: the cache may be a version ahead (see above)."""
    if request.method != "GET" or "HTTP_IF_NONE_MATCH" not in request.META:
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    if match.url_name == "game_live":
        pk = match.kwargs["pk"]
        signed = poll_signed(request, pk)
        if signed is None:
            return None
        session_key = request.COOKIES[settings.SESSION_COOKIE_NAME]
        cached = _member_version_cached(pk, signed, session_key)
        answer = _answer(request, screen="table", pk=pk, version=cached)
        if answer is None:
            version = _member_version_queried(pk, signed[0], session_key)
            answer = _answer(request, screen="table", pk=pk, version=version)
        return answer
    if match.url_name == "tv":
        token = match.kwargs["token"]
        if len(token) != TV_TOKEN_LENGTH:
            return None
        pk, cached = _tv_version_cached(request, token) or (0, None)
        answer = _answer(request, screen="tv", pk=pk, version=cached)
        if answer is None:
            pk, version = _tv_version_queried(token) or (0, None)
            answer = _answer(request, screen="tv", pk=pk, version=version)
        return answer
    return None
