"""A table's past: its history, the photos taken and the meld checker's questions, and what other
screens changed since a screen last looked."""

from django.db.models import Exists, OuterRef

from scorekeeper.actions import ACTIONS
from scorekeeper.models import Event, Game, PhotoStatus, Player, Round


def round_checks(round_: Round, *, most: int = 10):
    """The newest questions asked of the meld checker in the round, with their photos."""
    return round_.checks.prefetch_related("photos")[:most]


def game_checks(game: Game):
    """Every question asked of the meld checker at the table, with its answer and photos."""
    return game.checks.select_related("round", "created_by").prefetch_related("photos")


def game_photos(game: Game):
    """The photos taken at the table, by contract and in the order taken, each with what it was
    taken for: the question asked of the meld checker, or the player whose hand it shows."""
    return (
        game.photos.filter(status=PhotoStatus.READ)
        .select_related("round", "check_asked", "seat__player", "created_by")
        .order_by("round__number", "pk")
    )


def game_history(game: Game):
    """Every event of the table, newest first, with who did it and whether it was taken back
    (an EXISTS, not a count: no GROUP BY over the joins, which PostgreSQL takes milliseconds to
    plan)."""
    return (
        game.events.select_related("round", "seat__player", "other_seat__player", "created_by")
        .annotate(undone=Exists(Event.objects.filter(undoes=OuterRef("pk"))))
        .order_by("-pk")
    )


def scores_taken_back(round_: Round) -> dict[int, tuple[str, int]]:
    """What the round's last save had entered, by seat id, if that save was undone: undoing a
    save brings score entry back as it was, not empty."""
    undone = (
        round_.events.filter(kind=Event.Kind.ROUND_SCORED, undone_by__isnull=False)
        .order_by("-pk")
        .first()
    )
    if undone is None:
        return {}
    return Event.hands_in(undone.after)


def changes_since(game: Game, version: int, *, user=None, most: int = 3) -> list[str]:
    """What other screens did to the table since it was at `version`, newest first: every write
    moves the version on by one and leaves one event in the history. A score save or edit says
    who made it and which contract ("Ben saved contract 3": the player of the club that the
    member said is them, else the account's name), `user` being "you"; a tap says what the
    history says ("Ann went down")."""
    current = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
    behind = min((current or 0) - version, most)
    if behind <= 0:
        return []
    events = list(game.events.select_related("round", "created_by").order_by("-pk")[:behind])
    saved_by = {event.created_by_id for event in events if ACTIONS[event.kind].stale}
    players = {}
    if saved_by - {None}:
        players = dict(
            Player.objects.filter(club_id=game.club_id, account_id__in=saved_by).values_list(
                "account_id", "name"
            )
        )
    return [_change(event, user, players) for event in events]


def _change(event: Event, user, players: dict[int, str]) -> str:
    """One change made on another screen, in a few words; `players` names the accounts that
    are a player of the table's club."""
    stale = ACTIONS[event.kind].stale
    if not stale or event.round is None:
        return event.description
    if user is not None and event.created_by_id == user.pk:
        who = "you"
    elif event.created_by_id in players:
        who = players[event.created_by_id]
    else:
        who = event.created_by.get_username() if event.created_by else "someone"
    return stale.format(who=who, number=event.round.number)
