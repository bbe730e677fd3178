"""The TV view: a table's scoreboard on a big screen, for people without an account, through an
unguessable address any member can make and turn off."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import polling, selectors, services
from scorekeeper.models import Game, Role

from .access import game_or_404


@require_GET
def tv(request: HttpRequest, token: str) -> HttpResponse:
    """The page the TV shows, and what it polls every second: 304 while the table is unchanged
    (most of those the unchanged_polls middleware answers before this view, after one query)."""
    game = selectors.game_for_tv(token)
    if game is None:
        # Said in words on the TV itself: a screen across the room shows no error console.
        return polling.tv_headers(render(request, "tv.html", {}, status=404))
    etag = polling.table_etag(screen="tv", pk=game.pk, version=game.version)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        context = {"game": game, "board": selectors.game_board(game), "etag": etag}
        response = render(request, "tv.html#board" if request.htmx else "tv.html", context)
    return polling.tv_headers(polling.not_modified(response, etag))


def _tv_link(request: HttpRequest, game: Game) -> HttpResponse:
    if not request.htmx:
        return redirect(f"{game.get_absolute_url()}#tv-link")
    context = {"game": game, "tv_link": selectors.tv_link_for(game)}
    return render(request, "tv_link.html", context)


@require_POST
@login_required
def tv_link_create(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.SCORER)
    services.tv_link_create(game=game, user=request.user)
    return _tv_link(request, game)


@require_POST
@login_required
def tv_link_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.SCORER)
    services.tv_link_revoke(game=game, user=request.user)
    return _tv_link(request, game)
