"""What the screens' polls are answered from, with a shared cache (DJANGO_CACHE_URL): told of every
change that matters to them, inside the transaction that makes it, before it commits. Without
one, nothing: the polls read the database. Why, and why before the commit:
scorekeeper/py, which answers the polls."""

from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

# How long the cache keeps a version, a pass or a refusal: see scorekeeper/py.
KEPT_SECONDS = 60
# What a refusal says in place of a version (no table is at it) and of a pass (no user or club
# has this id).
NO_VERSION = -1
NO_PASS = 0


def table_cache_key(pk: int) -> str:
    return f"poll:table:{pk}"


def session_cache_key(session_key: str) -> str:
    return f"poll:session:{session_key}"


def member_cache_key(club_id: int, user_id: int) -> str:
    return f"poll:member:{club_id}:{user_id}"


def tv_cache_key(token: str) -> str:
    return f"poll:tv:{token}"


def poll_version_publish(*, game_id: int, version: int) -> None:
    """The table's new version, from the write that claimed it (it holds the table's row)."""
    if settings.POLLS_FROM_CACHE:
        cache.set(table_cache_key(game_id), version, KEPT_SECONDS)


def poll_passes_revoke(
    *,
    tables: Iterable[int] = (),
    tv_tokens: Iterable[str] = (),
    sessions: Iterable[str] = (),
    members: Iterable[tuple[int, int]] = (),
) -> None:
    """No poll of these is answered from the cache any more: tables (ids) deleted, TV links
    (tokens) turned off, sessions (keys) ended, memberships ((club id, user id)) ended. The
    arguments may be lazy querysets: they are read only with a shared cache."""
    if not settings.POLLS_FROM_CACHE:
        return
    refusals = {table_cache_key(pk): NO_VERSION for pk in tables}
    refusals |= {tv_cache_key(token): NO_PASS for token in tv_tokens}
    refusals |= {session_cache_key(key): NO_PASS for key in sessions}
    refusals |= {member_cache_key(club_id, user_id): NO_PASS for club_id, user_id in members}
    if refusals:
        cache.set_many(refusals, KEPT_SECONDS)


def poll_passes_keep(
    *,
    table: tuple[int, int],
    session: tuple[str, int, datetime] | None = None,
    member: tuple[int, int] | None = None,
    tv_token: str | None = None,
) -> None:
    """What a poll's one query checked, kept for the next polls, only where the cache has
    nothing (`cache.add`: never over a newer version, nor a refusal): the table's (id, version),
    the session's (key, user id, when it expires), the membership's (club id, user id), the TV
    link's token (of that table)."""
    if not settings.POLLS_FROM_CACHE:
        return
    pk, version = table
    if session is not None:
        session_key, user_id, expires = session
        session_left = int((expires - timezone.now()).total_seconds())
        if session_left > 0:
            cache.add(session_cache_key(session_key), user_id, min(KEPT_SECONDS, session_left))
    if member is not None:
        club_id, user_id = member
        cache.add(member_cache_key(club_id, user_id), club_id, KEPT_SECONDS)
    if tv_token is not None:
        cache.add(tv_cache_key(tv_token), pk, KEPT_SECONDS)
    cache.add(table_cache_key(pk), version, KEPT_SECONDS)
