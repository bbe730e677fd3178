"""A player's page: their record for a season or all time, and "This is me"."""

from functools import partial

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
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


def _account_link_write(request: HttpRequest, pk: int, write, said: str) -> HttpResponse:
    """`write` of the player `pk` and the member's account, then back to the player's page
    saying `said` (of the player) or the refusal."""
    player = player_or_404(request, pk)
    write = partial(write, player=player, user=request.user)
    return write_and_redirect(request, write, said=said.format(player=player), to=player)


@require_POST
@login_required
def player_me(request: HttpRequest, pk: int) -> HttpResponse:
    said = _("Saved: you are {player} at {player.club}'s tables.")
    return _account_link_write(request, pk, services.player_account_link, said)


@require_POST
@login_required
def player_unlink(request: HttpRequest, pk: int) -> HttpResponse:
    # The player's own member or an owner: the service decides which may.
    return _account_link_write(
        request, pk, services.player_account_unlink, _("Saved: {player} is no member's player now.")
    )
