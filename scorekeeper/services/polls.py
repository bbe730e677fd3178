"""What the screens' polls are answered from, with a shared cache (DJANGO_CACHE_URL): told of every
change that matters to them, inside the transaction that makes it, before it commits. Without
one, nothing: the polls read the database. Why, and why before the commit:
scorekeeper/selectors/polling.py."""

from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache

from scorekeeper.selectors import polling


def poll_version_publish(*, game_id: int, version: int) -> None:
    """The table's new version, from the write that claimed it (it holds the table's row)."""
    if settings.POLLS_FROM_CACHE:
        cache.set(polling.table_cache_key(game_id), version, polling.KEPT_SECONDS)


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
    refusals = {polling.table_cache_key(pk): polling.NO_VERSION for pk in tables}
    refusals |= {polling.tv_cache_key(token): polling.NO_PASS for token in tv_tokens}
    refusals |= {polling.session_cache_key(key): polling.NO_PASS for key in sessions}
    refusals |= {
        polling.member_cache_key(club_id, user_id): polling.NO_PASS for club_id, user_id in members
    }
    if refusals:
        cache.set_many(refusals, polling.KEPT_SECONDS)
