"""The TV view: a table's scoreboard on a big screen, for people without an account, through an
unguessable address any member can make and turn off."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import polling, selectors, services
from scorekeeper.models import Role

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


def tv_link_answer(request: HttpRequest, page: str, partial: str, context: dict) -> HttpResponse:
    """A TV link made or turned off (the table's or the club night's): for htmx the `partial`
    that shows it, else back to the `page` at it."""
    if not request.htmx:
        return redirect(f"{page}#tv-link")
    return render(request, partial, context)


@require_POST
@login_required
def tv_link_create(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.SCORER)
    link = services.tv_link_create(game=game, user=request.user)
    context = {"game": game, "tv_link": link}
    return tv_link_answer(request, game.get_absolute_url(), "game.html#tv_link", context)


@require_POST
@login_required
def tv_link_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.SCORER)
    services.tv_link_revoke(game=game, user=request.user)
    context = {"game": game, "tv_link": None}
    return tv_link_answer(request, game.get_absolute_url(), "game.html#tv_link", context)
