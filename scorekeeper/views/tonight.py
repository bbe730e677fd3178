"""The club night page: tonight's tables and how the standings moved, for the club's members and,
through the club's TV link, on a TV without an account. Both refresh themselves every 10 s."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import services
from scorekeeper.models import Role
from scorekeeper.selectors import sheets, tonight

from .access import club_or_404
from .tv import tv_link_answer

# What a TV shows at once, whatever its size (tv.css sizes the type to the screen): the tables
# and the players who moved, a page of each at a time, in turn (tv.js).
TV_TABLES_A_PAGE = 4
TV_MOVES_A_PAGE = 6


def _pages(rows: list, per_page: int | None) -> Paginator:
    """The rows in pages of `per_page`, or all on one page."""
    return Paginator(rows, per_page or max(len(rows), 1))


def _night_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    """The page, or for htmx (its poll) only its `night` partial."""
    if "tonight" in context:
        tv = context.get("tv", False)
        night = context["tonight"]
        context["table_pages"] = _pages(night.tables, TV_TABLES_A_PAGE if tv else None)
        context["move_pages"] = _pages(night.moves, TV_MOVES_A_PAGE if tv else None)
    template = "tonight.html#night" if request.htmx else "tonight.html"
    return render(request, template, context, status=status)


@require_GET
@login_required
def club_tonight(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk)
    night = tonight.tonight_for(club=club)
    context = {"club": club, "tonight": night}
    if any(table.finished for table in night.tables):
        # The night's sheet to send, as text on the page; its picture is the same sheet drawn.
        sheet = sheets.night_sheet(night)
        context |= {"sheet": sheet, "sheet_text": sheets.sheet_text(sheet)}
    return _night_page(request, context)


@require_GET
def tonight_tv(request: HttpRequest, token: str) -> HttpResponse:
    """The club night on a TV, for anyone holding the club's TV link, until it is turned off:
    read-only, in big type, kept by no cache and found by no search engine."""
    club = tonight.club_for_tv(token)
    if club is None:
        # Said in words on the TV itself: a screen across the room shows no error console.
        response = _night_page(request, {"tv": True}, status=404)
    else:
        timezone.activate(club.time_zone)  # the club_time_zone middleware puts it back
        context = {"club": club, "tonight": tonight.tonight_for(club=club), "tv": True}
        response = _night_page(request, context)
    patch_cache_control(response, private=True, no_store=True)
    response["X-Robots-Tag"] = "noindex"
    return response


def _tv_link_write(request: HttpRequest, pk: int, write) -> HttpResponse:
    """The club night's TV link made or turned off by `write`, answered as `tv.tv_link_answer`
    says."""
    club = club_or_404(request, pk, role=Role.SCORER)
    write(club=club, user=request.user)
    page = reverse("club_tonight", args=[club.pk])
    return tv_link_answer(request, page, "tonight.html#tv_link", {"club": club})


@require_POST
@login_required
def tonight_tv_link_create(request: HttpRequest, pk: int) -> HttpResponse:
    return _tv_link_write(request, pk, services.club_tv_link_create)


@require_POST
@login_required
def tonight_tv_link_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    return _tv_link_write(request, pk, services.club_tv_link_revoke)
