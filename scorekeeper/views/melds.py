"""The table's melds, recorded from a legal answer of the checker: a going-down, a lay-off, or a
Shanghai claim laid onto a meld."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from scorekeeper import services
from scorekeeper.forms import GoingDownForm, LayOffForm
from scorekeeper.models import Role
from scorekeeper.views.access import game_in_play_or_404, game_or_404
from scorekeeper.views.checker import checker_page_refused
from scorekeeper.views.writes import write_or_refusal


def _record(request, game, form, write) -> HttpResponse:
    """Back to the table's checker, with the melds as they now are or the reason they are not."""
    return write_or_refusal(
        form,
        write,
        refused=lambda refusal: checker_page_refused(request, game, refusal),
        done=lambda: redirect("table_check", pk=game.pk),
    )


@require_POST
@login_required
def melds_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Lay the checked melds on the table as the seat's going down."""
    game = game_or_404(request, pk, role=Role.SCORER)
    return _record(
        request,
        game,
        GoingDownForm(request.POST, game=game),
        lambda data: services.melds_record(game=game, user=request.user, **data),
    )


@require_POST
@login_required
def lay_off(request: HttpRequest, pk: int) -> HttpResponse:
    """Cards laid off on a table meld; with a discarder, a Shanghai claim onto that meld."""
    game, board = game_in_play_or_404(request, pk, role=Role.SCORER)

    def write(data):
        played = {
            "game": game,
            "version": data["version"],
            "seat": data["seat"],
            "meld": data["meld"],
            "user": request.user,
        }
        if data["discarder"] is None:
            services.meld_lay_off(cards=data["melds"], **played)
        else:
            services.shanghai_claim_onto(
                discarder=data["discarder"], card=data["melds"][0], **played
            )

    return _record(request, game, LayOffForm(request.POST, game=game, round_=board.current), write)
