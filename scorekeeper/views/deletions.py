"""Deleting a player, a rule profile, a season, a table or the club: owners only. Each deletion
is a page that says first what goes and what stays, and a POST from that page that deletes.
A refusal shows the page again with its reason, and nothing is changed."""

from collections.abc import Callable
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.models import Club, Player, Role
from scorekeeper.selectors import previews
from scorekeeper.views.access import (
    club_or_404,
    game_or_404,
    player_or_404,
    profile_or_404,
    season_or_404,
)

# The club's name typed to confirm its deletion: no club's name is longer than this.
CONFIRM_NAME_LENGTH = Club._meta.get_field("name").max_length


def _deletion(request, club, preview, delete, said, *, back=None, to=None, confirm_name=False):
    """GET: what deleting removes and keeps (`preview()`), with a way `back` (the club page by
    default). POST: `delete()`, then `said` (a text, or one made of what `delete` returned) and
    a redirect `to` (the club page by default); a refusal shows the page again with its reason.
    For htmx, the page's `deletion` partial."""
    message = ""
    if request.method == "POST":
        try:
            deleted = delete()
        except services.ActionRefused as refusal:
            message = str(refusal)
        else:
            messages.success(request, said(deleted) if callable(said) else said)
            return redirect(to or club)
    context = {
        "club": club,
        "preview": preview(),
        "back": back or club.get_absolute_url(),
        "confirm_name": confirm_name,
        "confirm_name_length": CONFIRM_NAME_LENGTH,
        "message": message,
    }
    return render(request, "deletion.html#deletion" if request.htmx else "deletion.html", context)


def _player_deleted(player) -> Callable[[Player | None], str]:
    def said(retired: Player | None) -> str:
        if retired is None:
            return _("Deleted %(player)s.") % {"player": player}
        return _("%(player)s is no longer among the players; their finished tables keep them.") % {
            "player": player
        }

    return said


@require_http_methods(["GET", "POST"])
@login_required
def player_delete(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_or_404(request, pk, role=Role.OWNER)
    delete = partial(services.player_delete, player=player, user=request.user)
    preview = partial(previews.player_preview, player)
    back = player.get_absolute_url()
    return _deletion(request, player.club, preview, delete, _player_deleted(player), back=back)


@require_http_methods(["GET", "POST"])
@login_required
def profile_delete(request: HttpRequest, pk: int) -> HttpResponse:
    profile = profile_or_404(request, pk, role=Role.OWNER)
    delete = partial(services.profile_delete, profile=profile, user=request.user)
    said = _("Deleted the rule profile %(profile)s; its tables keep their rules.") % {
        "profile": profile
    }
    preview = partial(previews.profile_preview, profile)
    return _deletion(request, profile.club, preview, delete, said)


@require_http_methods(["GET", "POST"])
@login_required
def season_delete(request: HttpRequest, pk: int) -> HttpResponse:
    season = season_or_404(request, pk, role=Role.OWNER)
    delete = partial(services.season_delete, season=season, user=request.user)
    said = _("Deleted the season %(season)s.") % {"season": season}
    return _deletion(request, season.club, partial(previews.season_preview, season), delete, said)


@require_http_methods(["GET", "POST"])
@login_required
def game_delete(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.OWNER)
    delete = partial(services.game_delete, game=game, user=request.user)
    said = _("Deleted %(table)s.") % {"table": game}
    preview = partial(previews.game_preview, game)
    return _deletion(request, game.club, preview, delete, said, back=game.get_absolute_url())


@require_http_methods(["GET", "POST"])
@login_required
def club_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner types the club's name to confirm: a club goes with everything in it."""
    club = club_or_404(request, pk, role=Role.OWNER)
    # Whatever is typed is compared with the name; a longer text cannot be it.
    typed = request.POST.get("confirm_name", "")[: CONFIRM_NAME_LENGTH + 20]
    delete = partial(services.club_delete, club=club, user=request.user, confirm_name=typed)
    said = _("Deleted %(club)s and everything in it.") % {"club": club}
    preview = partial(previews.club_preview, club)
    return _deletion(request, club, preview, delete, said, to="home", confirm_name=True)
