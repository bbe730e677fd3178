"""The sheet to send to the family chat as a picture: a table's scores and chart, a club night's
tables and standings, drawn from what their pages show, for the club's members only."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

from scorekeeper import selectors
from scorekeeper.selectors import sheet_image, sheets, tonight

from .access import club_or_404, game_or_404


def _picture(sheet: sheets.Sheet) -> HttpResponse:
    response = HttpResponse(sheet_image.sheet_png(sheet), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="{sheet.filename}.png"'
    # A club's scores: kept by no shared cache, nor by the browser past this page.
    patch_cache_control(response, private=True, no_store=True)
    return response


@require_GET
@login_required
def game_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk)
    return _picture(sheets.table_sheet(game, selectors.game_board(game)))


@require_GET
@login_required
def tonight_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    club = club_or_404(request, pk)
    return _picture(sheets.night_sheet(tonight.tonight_for(club=club)))
