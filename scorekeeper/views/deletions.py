"""Deleting a player, a rule profile, a season, a table or the club: owners only. Each deletion
is a page that says first what goes and what stays, and a POST from that page that deletes.
The five views are one routine (`_deletion_view`) given what to fetch, preview and delete."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from scorekeeper import services
from scorekeeper.models import Club, Role
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


def _club_of(target) -> Club:
    return target if isinstance(target, Club) else target.club


def _deletion_view(
    fetch: Callable,
    preview: Callable[[object], previews.DeletionPreview],
    delete: Callable[[object, HttpRequest], str],
    *,
    back: Callable[[object], str] = lambda target: target.club.get_absolute_url(),
    then: Callable[[object], object] = _club_of,
    confirm_name: bool = False,
):
    """A deletion's view. GET: the `preview` of what deleting the `fetch`ed object removes, with
    a way `back`. POST: `delete` it (which says what happened, in the owner's words), then go
    to `then`; a refusal shows the page again with its reason, and nothing is changed."""

    @require_http_methods(["GET", "POST"])
    @login_required
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        target = fetch(request, pk, role=Role.OWNER)
        message = ""
        if request.method == "POST":
            try:
                done = delete(target, request)
            except services.ActionRefused as refusal:
                message = str(refusal)
            else:
                messages.success(request, done)
                return redirect(then(target))
        context = {
            "club": _club_of(target),
            "preview": preview(target),
            "back": back(target),
            "confirm_name": confirm_name,
            "confirm_name_length": CONFIRM_NAME_LENGTH,
            "message": message,
        }
        return render(
            request, "deletion.html#deletion" if request.htmx else "deletion.html", context
        )

    return view


def _player_deleted(player, request) -> str:
    if services.player_delete(player=player, user=request.user) is None:
        return f"Deleted {player}."
    return f"{player} is no longer among the players; their finished tables keep them."


def _profile_deleted(profile, request) -> str:
    services.profile_delete(profile=profile, user=request.user)
    return f"Deleted the rule profile {profile}; its tables keep their rules."


def _season_deleted(season, request) -> str:
    services.season_delete(season=season, user=request.user)
    return f"Deleted the season {season}."


def _game_deleted(game, request) -> str:
    services.game_delete(game=game, user=request.user)
    return f"Deleted {game}."


def _club_deleted(club, request) -> str:
    # Whatever is typed is compared with the name; a longer text cannot be it.
    typed = request.POST.get("confirm_name", "")[: CONFIRM_NAME_LENGTH + 20]
    services.club_delete(club=club, user=request.user, confirm_name=typed)
    return f"Deleted {club} and everything in it."


player_delete = _deletion_view(
    player_or_404,
    previews.player_preview,
    _player_deleted,
    back=lambda player: player.get_absolute_url(),
)
profile_delete = _deletion_view(profile_or_404, previews.profile_preview, _profile_deleted)
season_delete = _deletion_view(season_or_404, previews.season_preview, _season_deleted)
game_delete = _deletion_view(
    game_or_404, previews.game_preview, _game_deleted, back=lambda game: game.get_absolute_url()
)
club_delete = _deletion_view(
    club_or_404,
    previews.club_preview,
    _club_deleted,
    back=lambda club: club.get_absolute_url(),
    then=lambda club: "home",
    confirm_name=True,
)
