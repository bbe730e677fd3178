"""The table's melds, recorded from a legal answer of the checker: a going-down, a lay-off, or a
Shanghai claim laid onto a meld."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from scorekeeper import services
from scorekeeper.forms import GoingDownForm, LayOffForm
from scorekeeper.models import Event, Role
from scorekeeper.views.access import game_or_404, round_in_play_or_404
from scorekeeper.views.checker import checker_page_refused
from scorekeeper.views.writes import form_refusal, saved_message


@require_POST
@login_required
def melds_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Lay the checked melds on the table as the seat's going down. One that went out (a
    no-discard contract's) ends the round: back to the table, to enter the scores."""
    game = game_or_404(request, pk, role=Role.SCORER)
    form = GoingDownForm(request.POST, game=game)
    if not form.is_valid():
        return checker_page_refused(request, game, form_refusal(form))
    try:
        event = services.melds_record(game=game, **form.cleaned_data, user=request.user)
    except services.ActionRefused as refusal:
        return checker_page_refused(request, game, refusal)
    messages.success(request, saved_message(event))
    if event.kind == Event.Kind.WENT_OUT:
        return redirect(game)
    return redirect("table_check", pk=game.pk)


@require_POST
@login_required
def lay_off(request: HttpRequest, pk: int) -> HttpResponse:
    """Cards laid off on a table meld; with a discarder, a Shanghai claim onto that meld."""
    game, round_ = round_in_play_or_404(request, pk, role=Role.SCORER)
    form = LayOffForm(request.POST, game=game, round_=round_)
    if not form.is_valid():
        return checker_page_refused(request, game, form_refusal(form))
    data = form.cleaned_data
    played = {"game": game, "version": data["version"], "seat": data["seat"], "meld": data["meld"]}
    try:
        if data["discarder"] is None:
            event = services.meld_lay_off(**played, cards=data["melds"], user=request.user)
        else:
            event = services.shanghai_claim_onto(
                **played, discarder=data["discarder"], card=data["melds"][0], user=request.user
            )
    except services.ActionRefused as refusal:
        return checker_page_refused(request, game, refusal)
    messages.success(request, saved_message(event))
    return redirect("table_check", pk=game.pk)
