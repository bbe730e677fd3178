"""Every object a view shows or changes is fetched here, only if the signed-in user may see it:
a member of its club. Anything else is a 404, never a 403 that would confirm it exists. A member
whose role does not allow what the view does (`role`, reading by default) gets the 403 page with
the reason; the services check the role again for every write.

Each object comes with `access`, what the user may do in its club (`can_score`, `is_owner`), for
the templates to offer only that: a template asks it, never compares a role. The same query
fetches it. Fetching it activates the club's time
zone, so the page, or the page a write answers with, shows the club's dates and times."""

from dataclasses import dataclass
from operator import attrgetter

from django.db.models import F, QuerySet
from django.http import Http404, HttpRequest
from django.utils import timezone

from scorekeeper import selectors
from scorekeeper.forms import row_id
from scorekeeper.models import (
    Club,
    ClubImport,
    Game,
    Membership,
    Photo,
    Player,
    Role,
    Round,
    RulesProfile,
    Season,
)
from scorekeeper.services import roles


@dataclass(frozen=True)
class Access:
    """What a member may do in a club, in the players' words, for the templates to ask."""

    role: Role

    @property
    def can_score(self) -> bool:
        # Scorers and owners play the table: taps, scores, edits, TV links.
        return self.role.allows(Role.SCORER)

    @property
    def is_owner(self) -> bool:
        return self.role == Role.OWNER


def _one_or_404(
    request: HttpRequest, queryset: QuerySet, pk: int, what: str, *, club: str, role: Role
):
    """The object `pk` of `queryset` if the user is a member of its club (at the path `club`),
    and their role allows `role`; the club's time zone is then the active one."""
    if not request.user.is_authenticated:
        raise Http404(f"No such {what}")
    # The user's membership joined in (one a club at most): half the CPU of a subquery for it.
    membership = "memberships" if club == "pk" else f"{club}__memberships"
    queryset = queryset.filter(**{f"{membership}__user": request.user}).annotate(
        member_role=F(f"{membership}__role")
    )
    if club != "pk":
        queryset = queryset.select_related(club)
    try:
        found = queryset.get(pk=pk)
    except queryset.model.DoesNotExist:
        raise Http404(f"No such {what}") from None
    roles.role_check(found.member_role, role)
    found.access = Access(Role(found.member_role))
    _in_time_zone_of(found if club == "pk" else attrgetter(club.replace("__", "."))(found))
    return found


def _in_time_zone_of(club: Club) -> None:
    # A club's pages show dates and times in its time zone; the club_time_zone middleware puts
    # the site's back after the response.
    timezone.activate(club.time_zone)


def club_or_404(request: HttpRequest, pk: int, *, role: Role = Role.VIEWER) -> Club:
    return _one_or_404(request, Club.objects.all(), pk, "club", club="pk", role=role)


def club_import_or_404(request: HttpRequest, pk: int, *, role: Role = Role.OWNER) -> ClubImport:
    # Polled every second: the file it may still hold is never read here.
    imports = ClubImport.objects.defer("document")
    return _one_or_404(request, imports, pk, "import", club="club", role=role)


def membership_or_404(request: HttpRequest, pk: int, *, role: Role = Role.VIEWER) -> Membership:
    memberships = Membership.objects.select_related("user")
    return _one_or_404(request, memberships, pk, "member", club="club", role=role)


def game_or_404(request: HttpRequest, pk: int, *, role: Role = Role.VIEWER) -> Game:
    return _one_or_404(request, Game.objects.all(), pk, "table", club="club", role=role)


def game_in_play_or_404(
    request: HttpRequest, pk: int, *, role: Role = Role.VIEWER
) -> tuple[Game, selectors.Board]:
    """The table and its board while a round is being played: a finished game has no checker.
    The board in three queries: the table's hands, its last action and the round's melds."""
    game = game_or_404(request, pk, role=role)
    table = selectors.table_read(game)
    board = selectors.table_board(game, table, last_action=selectors.last_action(game))
    if board.current is None:
        raise Http404("This game is over")
    return game, board


def round_in_play_or_404(
    request: HttpRequest, pk: int, *, role: Role = Role.VIEWER
) -> tuple[Game, Round]:
    """The table and its round being played, for a write that needs no more of the board."""
    game = game_or_404(request, pk, role=role)
    round_ = game.rounds.filter(finished_at__isnull=True).first()
    if round_ is None:
        raise Http404("This game is over")
    return game, round_


def profile_or_404(request: HttpRequest, pk: int, *, role: Role = Role.VIEWER) -> RulesProfile:
    profiles = RulesProfile.objects.all()
    return _one_or_404(request, profiles, pk, "rule profile", club="club", role=role)


def season_or_404(request: HttpRequest, pk: int, *, role: Role = Role.VIEWER) -> Season:
    return _one_or_404(request, Season.objects.all(), pk, "season", club="club", role=role)


def player_or_404(request: HttpRequest, pk: int, *, role: Role = Role.VIEWER) -> Player:
    return _one_or_404(request, Player.objects.all(), pk, "player", club="club", role=role)


def photo_or_404(request: HttpRequest, pk: int, *, role: Role = Role.VIEWER) -> Photo:
    return _one_or_404(request, Photo.objects.all(), pk, "photo", club="game__club", role=role)


def table_photo_or_none(game: Game, pk) -> Photo | None:
    """The table's photo that a form names, if it names one of this table's."""
    pk = row_id(pk)
    return game.photos.filter(pk=pk).first() if pk else None
