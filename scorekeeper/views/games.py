import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import selectors, services
from scorekeeper.forms import (
    PhotoForm,
    ScoreForm,
    SeatActionForm,
    ShanghaiForm,
    VersionedForm,
    WentOutForm,
    row_id,
)
from scorekeeper.models import Game


def game_or_404(request: HttpRequest, pk: int) -> Game:
    """The table, if it belongs to one of the signed-in user's clubs; anything else is a 404."""
    try:
        game = Game.objects.for_user(request.user).select_related("club").get(pk=pk)
    except Game.DoesNotExist:
        raise Http404("No such table") from None
    timezone.activate(game.club.time_zone)
    return game


def _table(
    request,
    game,
    *,
    message="",
    message_level="error",
    status=200,
    score_form=None,
    photo=None,
    photo_seat_id=None,
):
    """The table page, or for htmx only its `table` partial, with an optional message (a refusal
    unless `message_level` says otherwise) and the photo a hand was just read from."""
    board = selectors.game_board(game)
    if score_form is None and board.scoring:
        score_form = ScoreForm(
            initial={"version": game.version},
            round_=board.current,
            entered=selectors.scores_taken_back(board.current),
        )
    context = {
        "board": board,
        "game": game,
        "message": message,
        "message_level": message_level,
        "photo": photo,
        "photo_seat_id": photo_seat_id,
        "score_rows": score_form.rows(board.lines) if score_form else [],
        "score_form": score_form,
        "photo_url": reverse("score_photo", args=[game.pk]),
        **_keypad(board),
    }
    template = "game.html#table" if request.htmx else "game.html"
    return render(request, template, context, status=status)


def _keypad(board):
    # The keypad's live total uses the table's own points; the server recomputes it.
    points = dict(board.house_rules.points)
    return {"ranks": list(points), "points_json": json.dumps(points)}


def _after_write(request, game):
    if request.htmx:
        return _table(request, game)
    return redirect(game)


def _refused(request, game, refusal: services.ActionRefused):
    game.refresh_from_db()
    status = 409 if isinstance(refusal, services.StaleState) else 200
    return _table(request, game, message=str(refusal), status=status)


def _form_refused(request, game, form):
    game.refresh_from_db()
    if "version" in form.errors:
        return _refused(request, game, services.StaleState())
    errors = [error for field_errors in form.errors.values() for error in field_errors]
    return _table(request, game, message=" ".join(errors))


@require_GET
@login_required
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _table(request, game_or_404(request, pk))


def _seat_action(service):
    """A POST that names one seat of the table, carried out by `service`."""

    @require_POST
    @login_required
    def view(request: HttpRequest, pk: int) -> HttpResponse:
        game = game_or_404(request, pk)
        form = SeatActionForm(request.POST, game=game)
        if not form.is_valid():
            return _form_refused(request, game, form)
        try:
            service(
                game=game,
                version=form.cleaned_data["version"],
                seat=form.cleaned_data["seat"],
                user=request.user,
            )
        except services.ActionRefused as refusal:
            return _refused(request, game, refusal)
        return _after_write(request, game)

    view.__name__ = service.__name__
    return view


may_i = _seat_action(services.may_i_spend)
went_down = _seat_action(services.hand_mark_down)


@require_POST
@login_required
def went_out(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk)
    form = WentOutForm(request.POST, game=game)
    if not form.is_valid():
        return _form_refused(request, game, form)
    try:
        services.round_record_went_out(
            game=game,
            version=form.cleaned_data["version"],
            seat=form.cleaned_data["seat"],
            rummy=form.cleaned_data["rummy"],
            user=request.user,
        )
    except services.ActionRefused as refusal:
        return _refused(request, game, refusal)
    return _after_write(request, game)


@require_POST
@login_required
def shanghai(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk)
    form = ShanghaiForm(request.POST, game=game)
    if not form.is_valid():
        return _form_refused(request, game, form)
    try:
        services.shanghai_record(
            game=game,
            version=form.cleaned_data["version"],
            seat=form.cleaned_data["seat"],
            discarder=form.cleaned_data["discarder"],
            user=request.user,
        )
    except services.ActionRefused as refusal:
        return _refused(request, game, refusal)
    return _after_write(request, game)


@require_POST
@login_required
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk)
    form = VersionedForm(request.POST)
    if not form.is_valid():
        return _form_refused(request, game, form)
    try:
        services.action_undo(game=game, version=form.cleaned_data["version"], user=request.user)
    except services.ActionRefused as refusal:
        return _refused(request, game, refusal)
    return _after_write(request, game)


@require_POST
@login_required
def score(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk)
    board = selectors.game_board(game)
    if board.current is None:
        return _refused(
            request, game, services.ActionRefused("This game is over: all contracts are scored.")
        )
    if not board.scoring:
        # Scores for a round that is no longer being scored: the screen is out of date.
        if request.POST.get("version") != str(game.version):
            return _refused(request, game, services.StaleState())
        return _refused(
            request, game, services.ActionRefused("Nobody has gone out yet in this round.")
        )
    form = ScoreForm(request.POST, round_=board.current)
    if not form.is_valid():
        if "version" in form.errors:
            return _refused(request, game, services.StaleState())
        return _table(request, game, score_form=form, message="Check the hands marked below.")
    try:
        services.round_score(
            game=game,
            version=form.cleaned_data["version"],
            entries=form.cleaned_data["entries"],
            user=request.user,
        )
    except services.ActionRefused as refusal:
        if isinstance(refusal, services.StaleState):
            return _refused(request, game, refusal)
        # The refused write rolled back: what was typed stays on screen to be corrected.
        game.refresh_from_db()
        return _table(request, game, message=str(refusal), score_form=form)
    return _after_write(request, game)


@require_http_methods(["GET", "POST"])
@login_required
def round_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = game_or_404(request, pk)
    round_ = game.rounds.filter(number=number, finished_at__isnull=False).first()
    if round_ is None:
        raise Http404("No finished round with that number")
    board = selectors.game_board(game)
    message = ""
    status = 200
    if request.method == "POST":
        form = ScoreForm(request.POST, round_=round_, editing=True)
        if form.is_valid():
            try:
                services.round_edit(
                    game=game,
                    version=form.cleaned_data["version"],
                    round_=round_,
                    entries=form.cleaned_data["entries"],
                    went_out=form.cleaned_data["went_out"],
                    rummy=form.cleaned_data["rummy"],
                    user=request.user,
                )
            except services.ActionRefused as refusal:
                message = str(refusal)
                game.refresh_from_db()
                if isinstance(refusal, services.StaleState):
                    status = 409
                    round_.refresh_from_db()
                    form = ScoreForm(initial={"version": game.version}, round_=round_, editing=True)
            else:
                return redirect(game)
        elif "version" in form.errors:
            message, status = str(services.StaleState()), 409
            form = ScoreForm(initial={"version": game.version}, round_=round_, editing=True)
    else:
        form = ScoreForm(initial={"version": game.version}, round_=round_, editing=True)
    context = {
        "game": game,
        "board": board,
        "round": round_,
        "score_form": form,
        "score_rows": form.rows(board.lines),
        "message": message,
        **_keypad(board),
    }
    return render(request, "round_edit.html", context, status=status)


@require_GET
@login_required
def history(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk)
    context = {
        "game": game,
        "events": selectors.game_history(game),
        "checks": selectors.game_checks(game),
    }
    return render(request, "history.html", context)


@require_POST
@login_required
def score_photo(request: HttpRequest, pk: int) -> HttpResponse:
    """Read one player's cards from a photo into the score entry, keeping what else was typed."""
    game = game_or_404(request, pk)
    board = selectors.game_board(game)
    if not board.scoring:
        return _refused(request, game, services.StaleState())
    data = request.POST.copy()
    seat_id = row_id(data.get("photo_seat"))
    seat = board.current.hands.filter(seat_id=seat_id).first() if seat_id else None
    upload = request.FILES.get(f"photo_{seat.seat_id}") if seat else None
    if upload is None:
        return _table(
            request,
            game,
            message="Take or choose a photo first.",
            score_form=ScoreForm(data, round_=board.current),
        )
    photo_form = PhotoForm(files={"photo": upload})
    if not photo_form.is_valid():
        message = " ".join(photo_form.errors["photo"])
    else:
        try:
            photo = services.photo_record(
                game=game, photo=photo_form.cleaned_data["photo"], user=request.user
            )
        except services.ActionRefused as refusal:
            return _table(
                request,
                game,
                message=str(refusal),
                score_form=ScoreForm(data, round_=board.current),
            )
        data[f"cards_{seat.seat_id}"] = " ".join(found["card"] for found in photo.detections)
        data[f"points_{seat.seat_id}"] = ""
        message, message_level = _photo_message(photo, seat.seat.player)
        return _table(
            request,
            game,
            message=message,
            message_level=message_level,
            score_form=ScoreForm(data, round_=board.current),
            photo=photo,
            photo_seat_id=seat.seat_id,
        )
    return _table(request, game, message=message, score_form=ScoreForm(data, round_=board.current))


def _photo_message(photo, player) -> tuple[str, str]:
    """What reading a hand's photo found, and how sure: a success only when every card is sure."""
    count = len(photo.detections)
    if not count:
        return (
            f"No card could be read in the photo of {player}'s hand: tap the cards instead.",
            "warning",
        )
    read = ngettext(
        "Read %(count)d card for %(player)s.", "Read %(count)d cards for %(player)s.", count
    ) % {"count": count, "player": player}
    unsure = len(photo.unsure_indices)
    if unsure:
        check = ngettext(
            "%(unsure)d is unsure: check it on the photo below before saving.",
            "%(unsure)d are unsure: check them on the photo below before saving.",
            unsure,
        ) % {"unsure": unsure}
        return f"{read} {check}", "warning"
    return f"{read} Count them against the photo below, then save.", "success"
