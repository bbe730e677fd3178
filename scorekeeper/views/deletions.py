"""Deleting a player, a rule profile, a season, a table or the club: owners only. Each deletion
is a page that says first what goes and what stays, and a POST from that page that deletes.
A refusal shows the page again with its reason, and nothing is changed."""

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


def _deletion_page(request, club, preview, *, back: str, message="", confirm_name=False):
    """What deleting removes and keeps (`preview`), with a way `back` and why a deletion was
    refused (`message`); for htmx, only its `deletion` partial."""
    context = {
        "club": club,
        "preview": preview,
        "back": back,
        "confirm_name": confirm_name,
        "confirm_name_length": CONFIRM_NAME_LENGTH,
        "message": message,
    }
    return render(request, "deletion.html#deletion" if request.htmx else "deletion.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def player_delete(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_or_404(request, pk, role=Role.OWNER)
    message = ""
    if request.method == "POST":
        try:
            retired = services.player_delete(player=player, user=request.user)
        except services.ActionRefused as refusal:
            message = str(refusal)
        else:
            if retired is None:
                messages.success(request, f"Deleted {player}.")
            else:
                messages.success(
                    request,
                    f"{player} is no longer among the players; their finished tables keep them.",
                )
            return redirect(player.club)
    preview = previews.player_preview(player)
    return _deletion_page(
        request, player.club, preview, back=player.get_absolute_url(), message=message
    )


@require_http_methods(["GET", "POST"])
@login_required
def profile_delete(request: HttpRequest, pk: int) -> HttpResponse:
    profile = profile_or_404(request, pk, role=Role.OWNER)
    message = ""
    if request.method == "POST":
        try:
            services.profile_delete(profile=profile, user=request.user)
        except services.ActionRefused as refusal:
            message = str(refusal)
        else:
            messages.success(
                request, f"Deleted the rule profile {profile}; its tables keep their rules."
            )
            return redirect(profile.club)
    preview = previews.profile_preview(profile)
    return _deletion_page(
        request, profile.club, preview, back=profile.club.get_absolute_url(), message=message
    )


@require_http_methods(["GET", "POST"])
@login_required
def season_delete(request: HttpRequest, pk: int) -> HttpResponse:
    season = season_or_404(request, pk, role=Role.OWNER)
    message = ""
    if request.method == "POST":
        try:
            services.season_delete(season=season, user=request.user)
        except services.ActionRefused as refusal:
            message = str(refusal)
        else:
            messages.success(request, f"Deleted the season {season}.")
            return redirect(season.club)
    preview = previews.season_preview(season)
    return _deletion_page(
        request, season.club, preview, back=season.club.get_absolute_url(), message=message
    )


@require_http_methods(["GET", "POST"])
@login_required
def game_delete(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.OWNER)
    message = ""
    if request.method == "POST":
        try:
            services.game_delete(game=game, user=request.user)
        except services.ActionRefused as refusal:
            message = str(refusal)
        else:
            messages.success(request, f"Deleted {game}.")
            return redirect(game.club)
    preview = previews.game_preview(game)
    return _deletion_page(
        request, game.club, preview, back=game.get_absolute_url(), message=message
    )


@require_http_methods(["GET", "POST"])
@login_required
def club_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner types the club's name to confirm: a club goes with everything in it."""
    club = club_or_404(request, pk, role=Role.OWNER)
    message = ""
    if request.method == "POST":
        # Whatever is typed is compared with the name; a longer text cannot be it.
        typed = request.POST.get("confirm_name", "")[: CONFIRM_NAME_LENGTH + 20]
        try:
            services.club_delete(club=club, user=request.user, confirm_name=typed)
        except services.ActionRefused as refusal:
            message = str(refusal)
        else:
            messages.success(request, f"Deleted {club} and everything in it.")
            return redirect("home")
    preview = previews.club_preview(club)
    return _deletion_page(
        request, club, preview, back=club.get_absolute_url(), message=message, confirm_name=True
    )
