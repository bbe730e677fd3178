from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_ratelimit.decorators import ratelimit

import rules
from scorekeeper import selectors, services
from scorekeeper.forms import (
    ClubForm,
    GameStartForm,
    JoinForm,
    PlayerForm,
    SeasonForm,
    TabletIdleForm,
    TimeZoneForm,
)
from scorekeeper.models import Club, Game, Role, Season
from scorekeeper.selectors import home as home_selectors
from scorekeeper.selectors import standings
from scorekeeper.views.access import club_or_404


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.for_user(request.user)
    tables = (
        Game.objects.for_user(request.user)
        .in_progress()
        .select_related("club")
        .prefetch_related("seats__player")[:10]
    )
    own = home_selectors.own_for(request.user)
    return render(request, "home.html", {"clubs": clubs, "tables": tables, "own": own})


@require_http_methods(["GET", "POST"])
@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.club_create(user=request.user, **form.cleaned_data)
        messages.success(request, _("%(club)s is ready. Add the players next.") % {"club": club})
        return redirect(club)
    return render(request, "club_new.html", {"form": form, "join_form": JoinForm()})


@require_POST
@login_required
@ratelimit(key="user", rate="10/h", method="POST")
@ratelimit(key="ip", rate="30/h", method="POST")
def club_join(request: HttpRequest) -> HttpResponse:
    form = JoinForm(request.POST)
    if form.is_valid():
        try:
            club = services.club_join(
                user=request.user, invite_code=form.cleaned_data["invite_code"]
            )
        except services.ActionRefused as refusal:
            form.add_error("invite_code", str(refusal))
        else:
            messages.success(request, _("Welcome to %(club)s.") % {"club": club})
            return redirect(club)
    return render(request, "club_new.html", {"form": ClubForm(), "join_form": form})


def _club_page(
    request,
    club,
    *,
    player_form=None,
    season_form=None,
    time_zone_form=None,
    tablet_idle_form=None,
    status=200,
):
    context = {
        "club": club,
        "players": club.players.playing(),
        "seasons": club.seasons.all(),
        "current_season": Season.objects.current(club),
        "profiles": club.profiles.all(),
        "games": standings.club_tables(club=club, page=request.GET.get("page")),
        "player_form": player_form or PlayerForm(),
        "season_form": season_form or SeasonForm(initial={"starts_on": club.today()}),
        "time_zone_form": time_zone_form or TimeZoneForm(initial={"time_zone": club.time_zone}),
        "tablet_idle_form": tablet_idle_form
        or TabletIdleForm(initial={"minutes": club.tablet_idle_minutes}),
        "recounting": selectors.standings_recounting(club),
    }
    return render(request, "club.html", context, status=status)


@require_GET
@login_required
def club_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _club_page(request, club_or_404(request, pk))


@require_POST
@login_required
def club_recount(request: HttpRequest, pk: int) -> HttpResponse:
    """Queue the club's standings to be recounted from the rounds by a worker; the club page
    shows the recount under way."""
    club = club_or_404(request, pk, role=Role.OWNER)
    services.recount_queue(club=club, user=request.user)
    if request.htmx:
        return render(request, "club.html#recount", {"club": club, "recounting": True})
    return redirect(club)


@require_GET
@login_required
def club_recounting(request: HttpRequest, pk: int) -> HttpResponse:
    """The club page's poll while its standings are recounted: 204 (nothing to change) until a
    worker has done it, then says so. Without htmx, the club page itself."""
    club = club_or_404(request, pk)
    if not request.htmx:
        return redirect(club)
    if selectors.standings_recounting(club):
        return HttpResponse(status=204)
    return render(request, "club.html#recount", {"club": club, "recounted": True})


@require_POST
@login_required
def player_add(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk, role=Role.SCORER)
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            services.player_create(club=club, user=request.user, **form.cleaned_data)
        except services.ActionRefused as refusal:
            form.add_error("name", str(refusal))
        else:
            if not request.htmx:
                return redirect(club)
            form = PlayerForm()  # empty, for the next player
    if request.htmx:
        context = {"club": club, "players": club.players.playing(), "player_form": form}
        return render(request, "club.html#players", context)
    return _club_page(request, club, player_form=form)


def _club_setting(request, pk, form_class, write, *, form_name: str, field: str, said=None):
    """An owner's `write` of the club `pk` with `form_class` cleaned from the POST, then back to
    the club page, saying `said` (of the club as written) if given; where the form did not clean
    or the write was refused (the refusal on `field`), the club page again with the form (as
    `form_name`) and its errors."""
    club = club_or_404(request, pk, role=Role.OWNER)
    form = form_class(request.POST)
    if form.is_valid():
        try:
            write(club=club, user=request.user, **form.cleaned_data)
        except services.ActionRefused as refusal:
            form.add_error(field, str(refusal))
        else:
            if said:
                messages.success(request, said(club))
            return redirect(club)
    return _club_page(request, club, **{form_name: form})


@require_POST
@login_required
def season_add(request: HttpRequest, pk: int) -> HttpResponse:
    return _club_setting(
        request, pk, SeasonForm, services.season_create, form_name="season_form", field="name"
    )


def _time_zone_said(club) -> str:
    return _("%(club)s's dates and times are now in %(zone)s.") % {
        "club": club,
        "zone": club.time_zone,
    }


@require_POST
@login_required
def club_time_zone(request: HttpRequest, pk: int) -> HttpResponse:
    return _club_setting(
        request,
        pk,
        TimeZoneForm,
        services.club_set_time_zone,
        form_name="time_zone_form",
        field="time_zone",
        said=_time_zone_said,
    )


def _tablet_idle_said(club) -> str:
    if club.tablet_idle_minutes:
        return _("Members are signed out after %(minutes)s minutes idle.") % {
            "minutes": club.tablet_idle_minutes
        }
    return _("Members stay signed in until their session expires.")


@require_POST
@login_required
def club_tablet_idle(request: HttpRequest, pk: int) -> HttpResponse:
    return _club_setting(
        request,
        pk,
        TabletIdleForm,
        services.club_set_tablet_idle,
        form_name="tablet_idle_form",
        field="minutes",
        said=_tablet_idle_said,
    )


@require_http_methods(["GET", "POST"])
@login_required
def game_new(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk, role=Role.SCORER)
    form = GameStartForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_start(
                club=club,
                user=request.user,
                players=form.cleaned_data["players"],
                first_dealer=form.cleaned_data["first_dealer"],
                season=form.cleaned_data["season"],
                profile=form.cleaned_data["profile"],
                house_rules=form.cleaned_data["house_rules"],
            )
        except services.ActionRefused as refusal:
            form.add_error(None, str(refusal))
        else:
            return redirect(game)
    context = {"club": club, "form": form, "variants": rules.VARIANTS}
    return render(request, "game_new.html", context)
