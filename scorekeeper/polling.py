"""Following a table from another screen, cheaply: the screen polls every second, and while the
table is unchanged the answer is 304 Not Modified after one query.

A table's ETag is its id and version (`Game.version` moves on with every write). The round
screen's poll address carries a signature of (table, user) made for the session that loaded the
page, so the unchanged answer needs neither the session row nor the user row: its one query reads
the version and checks that the user still belongs to the table's club. A poll without a valid
signature (another session, a logged-out browser, an expired one) goes through the ordinary login
and ownership checks instead; it costs more queries, never more access.
"""

from django.conf import settings
from django.core import signing
from django.http import HttpRequest
from django.urls import reverse

# A signature is about 90 characters; anything much longer is not one of ours.
_MAX_KEY_LENGTH = 200


def table_etag(*, screen: str, pk: int, version: int) -> str:
    # Weak: two renders of one version differ byte for byte (each masks the CSRF token anew)
    # but mean the same.
    return f'W/"{screen}-{pk}-{version}"'


def _salt(request: HttpRequest) -> str:
    return f"scorekeeper.polling:{request.session.session_key}"


def poll_url(request: HttpRequest, pk: int) -> str:
    """The address the round screen polls, signed for this user, table and session."""
    key = signing.dumps({"table": pk, "user": request.user.pk}, salt=_salt(request))
    return f"{reverse('game_live', args=[pk])}?key={key}"


def poll_user_id(request: HttpRequest, pk: int) -> int | None:
    """Whom the poll address was signed for, if it was signed for this table in this session,
    no longer ago than a session lasts; None otherwise. Reads no database row."""
    key = request.GET.get("key", "")
    if not key or len(key) > _MAX_KEY_LENGTH or not request.session.session_key:
        return None
    try:
        signed = signing.loads(key, salt=_salt(request), max_age=settings.SESSION_COOKIE_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(signed, dict) or signed.get("table") != pk:
        return None
    user_id = signed.get("user")
    return user_id if isinstance(user_id, int) else None
