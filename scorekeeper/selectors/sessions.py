"""What a signed-in browser is held to (the idle time of the clubs its member belongs to, the
language its member chose), and the other browsers signed in to the same account."""

from django.contrib.sessions.models import Session
from django.db.models import Min
from django.utils import timezone

from scorekeeper.models import AccountLanguage, Club


def tablet_idle_minutes(*, user_id: int) -> int | None:
    """The shortest idle time any of the member's clubs sets for its tablets, in minutes; None
    where none sets one."""
    clubs = Club.objects.filter(memberships__user_id=user_id)
    return clubs.aggregate(shortest=Min("tablet_idle_minutes"))["shortest"]


def other_browsers(*, user, session_key: str) -> int:
    """How many other browsers are signed in to `user`'s account now (a session logged out or
    expired has no row any more)."""
    live = Session.objects.filter(expire_date__gt=timezone.now()).values("session_key")
    return user.signed_in.filter(session_key__in=live).exclude(session_key=session_key).count()


def account_language(*, user_id: int) -> str:
    """The language the member chose (a code of settings.LANGUAGES), or "" for their browser's."""
    chosen = AccountLanguage.objects.filter(user_id=user_id).values_list("language", flat=True)
    return chosen.first() or ""
