"""Every object a view shows or changes is fetched here, only if the signed-in user may see it:
a member of its club. Anything else is a 404, never a 403 that would confirm it exists."""

from django.http import Http404, HttpRequest

from scorekeeper import selectors
from scorekeeper.forms import row_id
from scorekeeper.models import Club, Game, Photo, RulesProfile


def club_or_404(request: HttpRequest, pk: int) -> Club:
    try:
        return selectors.club_for_user(request.user, pk)
    except Club.DoesNotExist:
        raise Http404("No such club") from None


def game_or_404(request: HttpRequest, pk: int) -> Game:
    try:
        return Game.objects.for_user(request.user).select_related("club").get(pk=pk)
    except Game.DoesNotExist:
        raise Http404("No such table") from None


def profile_or_404(request: HttpRequest, pk: int) -> RulesProfile:
    try:
        return RulesProfile.objects.select_related("club").get(
            pk=pk, club__in=Club.objects.for_user(request.user)
        )
    except RulesProfile.DoesNotExist:
        raise Http404("No such rule profile") from None


def photo_or_404(request: HttpRequest, pk: int) -> Photo:
    try:
        return Photo.objects.select_related("game").get(
            pk=pk, game__club__in=Club.objects.for_user(request.user)
        )
    except Photo.DoesNotExist:
        raise Http404("No such photo") from None


def table_photo_or_none(game: Game, pk) -> Photo | None:
    """The table's photo that a form names, if it names one of this table's."""
    pk = row_id(pk)
    return game.photos.filter(pk=pk).first() if pk else None
