"""Every object a view shows or changes is fetched here, only if the signed-in user may see it:
a member of its club. Anything else is a 404, never a 403 that would confirm it exists."""

from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.utils import timezone

from scorekeeper import selectors
from scorekeeper.forms import row_id
from scorekeeper.models import Club, Game, Photo, Player, RulesProfile, Season


def _one_or_404(queryset: QuerySet, pk: int, what: str):
    try:
        return queryset.get(pk=pk)
    except queryset.model.DoesNotExist:
        raise Http404(f"No such {what}") from None


def _in_time_zone_of(club: Club) -> None:
    # A club's pages show dates and times in its time zone; the club_time_zone middleware puts
    # the site's back after the response.
    timezone.activate(club.time_zone)


def club_or_404(request: HttpRequest, pk: int) -> Club:
    club = _one_or_404(Club.objects.for_user(request.user), pk, "club")
    _in_time_zone_of(club)
    return club


def game_or_404(request: HttpRequest, pk: int) -> Game:
    game = _one_or_404(Game.objects.for_user(request.user).select_related("club"), pk, "table")
    _in_time_zone_of(game.club)
    return game


def game_in_play_or_404(request: HttpRequest, pk: int) -> tuple[Game, selectors.Board]:
    """The table and its board while a round is being played: a finished game has no checker."""
    game = game_or_404(request, pk)
    board = selectors.game_board(game)
    if board.current is None:
        raise Http404("This game is over")
    return game, board


def profile_or_404(request: HttpRequest, pk: int) -> RulesProfile:
    clubs = Club.objects.for_user(request.user)
    profiles = RulesProfile.objects.select_related("club").filter(club__in=clubs)
    profile = _one_or_404(profiles, pk, "rule profile")
    _in_time_zone_of(profile.club)
    return profile


def season_or_404(request: HttpRequest, pk: int) -> Season:
    clubs = Club.objects.for_user(request.user)
    return _one_or_404(Season.objects.select_related("club").filter(club__in=clubs), pk, "season")


def player_or_404(request: HttpRequest, pk: int) -> Player:
    clubs = Club.objects.for_user(request.user)
    return _one_or_404(Player.objects.select_related("club").filter(club__in=clubs), pk, "player")


def photo_or_404(request: HttpRequest, pk: int) -> Photo:
    clubs = Club.objects.for_user(request.user)
    return _one_or_404(
        Photo.objects.select_related("game").filter(game__club__in=clubs), pk, "photo"
    )


def table_photo_or_none(game: Game, pk) -> Photo | None:
    """The table's photo that a form names, if it names one of this table's."""
    pk = row_id(pk)
    return game.photos.filter(pk=pk).first() if pk else None
