"""A player's page: their record for a season or all time, and "This is me"."""

from functools import partial

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import services
from scorekeeper.forms import row_id
from scorekeeper.selectors import standings
from scorekeeper.views.access import player_or_404
from scorekeeper.views.outcomes import write_and_redirect


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


@require_POST
@login_required
def player_me(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_or_404(request, pk)
    link = partial(services.player_account_link, player=player, user=request.user)
    said = f"Saved: you are {player} at {player.club}'s tables."
    return write_and_redirect(request, link, said=said, to=player)


@require_POST
@login_required
def player_unlink(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_or_404(request, pk)
    unlink = partial(services.player_account_unlink, player=player, user=request.user)
    said = f"Saved: {player} is no member's player now."
    return write_and_redirect(request, unlink, said=said, to=player)
