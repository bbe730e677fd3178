"""Seasons and standings: a season's or all-time standings, closing and sharing a season, the
read-only shared standings, and playing a finished table again."""

from functools import partial
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import selectors, services
from scorekeeper.forms import StandingsForm
from scorekeeper.models import Role, Season
from scorekeeper.selectors import standings
from scorekeeper.views.access import club_or_404, game_or_404, season_or_404
from scorekeeper.views.outcomes import write_and_redirect

# The columns a 1024 px tablet shows at once; the others are one tap away ("More columns").
MAIN_COLUMNS = {"place", "player", "games", "wins", "win_rate", "average", "rating"}


def _headers(table: standings.Standings, url: str) -> list[dict]:
    """Each column's heading, linking to the standings sorted by it (again: the other way), and
    whether it is one of the columns shown only on asking."""
    headers = []
    for key, column in standings.COLUMNS.items():
        active = table.sort.removeprefix("-") == key
        sort = key if not active or table.sort.startswith("-") else f"-{key}"
        query = urlencode({"sort": sort, "min_games": table.min_games})
        arrow = order = ""
        if active:
            downwards = column.descending != table.sort.startswith("-")
            arrow, order = ("▼", "descending") if downwards else ("▲", "ascending")
        headers.append(
            {
                "label": column.label,
                "href": f"{url}?{query}",
                "arrow": arrow,
                "order": order,
                "extra": key not in MAIN_COLUMNS,
            }
        )
    return headers


def _standings_page(request, *, club, season, url, shared=False):
    """The standings page, or for htmx only its `standings` partial. While a worker recounts
    them, the page says so and polls, answered 204 until the standings are there to show."""
    recounting = selectors.standings_recounting(club)
    if recounting and request.htmx:
        return HttpResponse(status=204)
    form = StandingsForm(request.GET)
    table = None
    if not recounting:
        table = standings.standings_for(club=club, season=season, **form.options())
    context = {
        "club": club,
        "season": season,
        "seasons": [] if shared else club.seasons.all(),
        "recounting": recounting,
        "standings": table,
        "headers": _headers(table, url) if table else [],
        # Sorted by a column shown only on asking: it is shown.
        "more_columns": table is not None and table.sort.removeprefix("-") not in MAIN_COLUMNS,
        "form": form,
        "url": url,
        "shared": shared,
    }
    template = "standings.html#standings" if request.htmx else "standings.html"
    return render(request, template, context)


@require_GET
@login_required
def club_standings(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk)
    return _standings_page(
        request, club=club, season=None, url=reverse("club_standings", args=[club.pk])
    )


@require_GET
@login_required
def season_standings(request: HttpRequest, pk: int) -> HttpResponse:
    season = season_or_404(request, pk)
    return _standings_page(request, club=season.club, season=season, url=season.get_absolute_url())


@require_GET
def shared_standings(request: HttpRequest, token: str) -> HttpResponse:
    """A season's standings for anyone holding its link, until the link is revoked."""
    # A token made now is 43 characters (32 random bytes); the column holds up to 64, and
    # anything longer than that is no token, and is not looked up.
    season = None
    if 0 < len(token) <= 64:
        season = Season.objects.select_related("club").filter(share_token=token).first()
    if season is None:
        raise Http404("This link does not work (any more).")
    url = reverse("shared_standings", args=[token])
    response = _standings_page(request, club=season.club, season=season, url=url, shared=True)
    # Whoever holds the link, and only while it works: kept by no cache, found by no search.
    patch_cache_control(response, private=True, no_store=True)
    response["X-Robots-Tag"] = "noindex"
    return response


def _season_write(request: HttpRequest, pk: int, write, said: str) -> HttpResponse:
    """An owner's `write` of the season `pk`, then back to the club page saying `said` (of the
    season) or the refusal."""
    season = season_or_404(request, pk, role=Role.OWNER)
    write = partial(write, season=season, user=request.user)
    return write_and_redirect(request, write, said=said.format(season=season), to=season.club)


@require_POST
@login_required
def season_close(request: HttpRequest, pk: int) -> HttpResponse:
    return _season_write(
        request, pk, services.season_close, gettext("{season} is closed: it ended today.")
    )


@require_POST
@login_required
def season_share(request: HttpRequest, pk: int) -> HttpResponse:
    said = gettext("Anyone with the link can now see {season}'s standings.")
    return _season_write(request, pk, services.season_share, said)


@require_POST
@login_required
def season_unshare(request: HttpRequest, pk: int) -> HttpResponse:
    said = gettext("The link to {season}'s standings no longer works.")
    return _season_write(request, pk, services.season_unshare, said)


@require_POST
@login_required
def play_again(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.SCORER)
    try:
        new_game = services.game_play_again(game=game, user=request.user)
    except services.ActionRefused as refusal:
        messages.error(request, str(refusal))
        return redirect(game)
    return redirect(new_game)
