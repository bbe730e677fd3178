"""A player's page: their record for a season or all time."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scorekeeper import standings
from scorekeeper.forms import row_id
from scorekeeper.models import Club, Player


def player_or_404(request: HttpRequest, pk: int) -> Player:
    """The player, if they play at one of the signed-in user's clubs; anything else is a 404."""
    try:
        clubs = Club.objects.for_user(request.user)
        return Player.objects.select_related("club").get(pk=pk, club__in=clubs)
    except Player.DoesNotExist:
        raise Http404("No such player") from None


@require_GET
@login_required
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_or_404(request, pk)
    seasons = list(player.club.seasons.all())
    # ?season=<id> of one of the club's seasons; anything else shows all time.
    chosen = row_id(request.GET.get("season"))
    season = next((season for season in seasons if season.pk == chosen), None)
    record = standings.player_record(player=player, season=season)
    context = {"player": player, "club": player.club, "seasons": seasons, "record": record}
    template = "player.html#record" if request.htmx else "player.html"
    return render(request, template, context)
