"""Deleting a player, a rule profile, a season, a table or the club: owners only. Each deletion
is a page that says first what goes and what stays, and a POST from that page that deletes."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from scorekeeper import previews, services
from scorekeeper.models import Club, Role
from scorekeeper.views.access import (
    club_or_404,
    game_or_404,
    player_or_404,
    profile_or_404,
    season_or_404,
)

# The club's name typed to confirm its deletion: no club's name is longer than this.
CONFIRM_NAME_LENGTH = Club._meta.get_field("name").max_length


def _deletion(
    request: HttpRequest,
    *,
    club: Club,
    preview: previews.DeletionPreview,
    back: str,
    delete: Callable[[], str],
    then,
    confirm_name: bool = False,
) -> HttpResponse:
    """GET: the `preview` of what deleting removes, with a way `back`. POST: `delete()`, which
    returns what happened in the owner's words, then go to `then`; a refusal re-renders the
    page with its reason and changes nothing."""
    message = ""
    if request.method == "POST":
        try:
            done = delete()
        except services.ActionRefused as refusal:
            message = str(refusal)
        else:
            messages.success(request, done)
            return redirect(then)
    context = {
        "club": club,
        "preview": preview,
        "back": back,
        "confirm_name": confirm_name,
        "confirm_name_length": CONFIRM_NAME_LENGTH,
        "message": message,
    }
    template = "deletion.html#deletion" if request.htmx else "deletion.html"
    return render(request, template, context)


@require_http_methods(["GET", "POST"])
@login_required
def player_delete(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_or_404(request, pk, role=Role.OWNER)

    def delete():
        if services.player_delete(player=player, user=request.user) is None:
            return f"Deleted {player}."
        return f"{player} is no longer among the players; their finished tables keep them."

    return _deletion(
        request,
        club=player.club,
        preview=previews.player_preview(player),
        back=player.get_absolute_url(),
        delete=delete,
        then=player.club,
    )


@require_http_methods(["GET", "POST"])
@login_required
def profile_delete(request: HttpRequest, pk: int) -> HttpResponse:
    profile = profile_or_404(request, pk, role=Role.OWNER)

    def delete():
        services.profile_delete(profile=profile, user=request.user)
        return f"Deleted the rule profile {profile}; its tables keep their rules."

    return _deletion(
        request,
        club=profile.club,
        preview=previews.profile_preview(profile),
        back=profile.club.get_absolute_url(),
        delete=delete,
        then=profile.club,
    )


@require_http_methods(["GET", "POST"])
@login_required
def season_delete(request: HttpRequest, pk: int) -> HttpResponse:
    season = season_or_404(request, pk, role=Role.OWNER)

    def delete():
        services.season_delete(season=season, user=request.user)
        return f"Deleted the season {season}."

    return _deletion(
        request,
        club=season.club,
        preview=previews.season_preview(season),
        back=season.club.get_absolute_url(),
        delete=delete,
        then=season.club,
    )


@require_http_methods(["GET", "POST"])
@login_required
def game_delete(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.OWNER)

    def delete():
        services.game_delete(game=game, user=request.user)
        return f"Deleted {game}."

    return _deletion(
        request,
        club=game.club,
        preview=previews.game_preview(game),
        back=game.get_absolute_url(),
        delete=delete,
        then=game.club,
    )


@require_http_methods(["GET", "POST"])
@login_required
def club_delete(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk, role=Role.OWNER)

    def delete():
        typed = request.POST.get("confirm_name", "")[: CONFIRM_NAME_LENGTH + 20]
        services.club_delete(club=club, user=request.user, confirm_name=typed)
        return f"Deleted {club} and everything in it."

    return _deletion(
        request,
        club=club,
        preview=previews.club_preview(club),
        back=club.get_absolute_url(),
        delete=delete,
        then="home",
        confirm_name=True,
    )
