"""What a signed-in browser is held to: the idle time of the clubs its member belongs to."""

from django.db.models import Min

from scorekeeper.models import Club


def tablet_idle_minutes(*, user_id: int) -> int | None:
    """The shortest idle time any of the member's clubs sets for its tablets, in minutes; None
    where none sets one."""
    clubs = Club.objects.filter(memberships__user_id=user_id)
    return clubs.aggregate(shortest=Min("tablet_idle_minutes"))["shortest"]
