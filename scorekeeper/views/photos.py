"""Photos of cards: taken at the table, read into the checker or into a player's score entry,
shown only to the club's members, and deleted; taken at the standalone checker, read and shown
but never kept."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from scorekeeper import selectors, services
from scorekeeper.forms import CheckForm, PhotoForm, ScoreForm, row_id
from scorekeeper.models import Role
from scorekeeper.views.access import game_in_play_or_404, game_or_404, photo_or_404
from scorekeeper.views.checker import checker_page, standalone_form
from scorekeeper.views.games import table_page, table_page_refused


@require_POST
@login_required
def table_photo(request: HttpRequest, pk: int) -> HttpResponse:
    """Read the cards in a photo taken at the table into the checker, to confirm or correct."""
    game, board = game_in_play_or_404(request, pk, role=Role.SCORER)
    melds = board.melds
    photo_form = PhotoForm(request.POST, request.FILES)
    form = CheckForm(table_melds=melds)
    photo = None
    if photo_form.is_valid():
        try:
            photo = services.photo_record(
                game=game, photo=photo_form.cleaned_data["photo"], user=request.user
            )
        except services.ActionRefused as refusal:
            photo_form.add_error("photo", str(refusal))
        else:
            _read_into(form, photo)
    context = {
        "form": form,
        "photo_form": photo_form,
        "photo": photo,
        "photo_src": reverse("photo", args=[photo.pk]) if photo else "",
        "game": game,
        "board": board,
        "melds": melds,
        "checks": board.current.checks.prefetch_related("photos")[:10],
    }
    return checker_page(request, context, status=200)


@require_POST
@login_required
def score_photo(request: HttpRequest, pk: int) -> HttpResponse:
    """Read one player's cards from a photo into the score entry, keeping what else was typed."""
    game = game_or_404(request, pk, role=Role.SCORER)
    board = selectors.game_board(game)
    if not board.scoring:
        return table_page_refused(request, game, services.StaleState())
    data = request.POST.copy()
    seat_id = row_id(data.get("photo_seat"))
    seat = board.current.hands.filter(seat_id=seat_id).first() if seat_id else None
    upload = request.FILES.get(f"photo_{seat.seat_id}") if seat else None
    if upload is None:
        return table_page(
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
                game=game,
                photo=photo_form.cleaned_data["photo"],
                user=request.user,
                seat=seat.seat,
            )
        except services.ActionRefused as refusal:
            return table_page(
                request,
                game,
                message=str(refusal),
                score_form=ScoreForm(data, round_=board.current),
            )
        data[f"cards_{seat.seat_id}"] = " ".join(found["card"] for found in photo.detections)
        data[f"points_{seat.seat_id}"] = ""
        message, message_level = _photo_message(photo, seat.seat.player)
        return table_page(
            request,
            game,
            message=message,
            message_level=message_level,
            score_form=ScoreForm(data, round_=board.current),
            photo=photo,
            photo_seat_id=seat.seat_id,
        )
    return table_page(
        request, game, message=message, score_form=ScoreForm(data, round_=board.current)
    )


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


def _read_into(form: CheckForm, photo) -> None:
    """Put the cards a photo read into the checker's cards box, the unsure ones flagged."""
    form.initial["cards"] = " ".join(found["card"] for found in photo.detections)
    form.fields["cards"].widget.attrs["data-unsure"] = ",".join(map(str, photo.unsure_indices))


@require_POST
@login_required
def checker_photo(request: HttpRequest) -> HttpResponse:
    """Read the cards in a photo into the standalone checker. With no table to keep it for, the
    photo is shown from the page itself and never stored."""
    photo_form = PhotoForm(request.POST, request.FILES)
    form = standalone_form(request)
    context = {"form": form, "photo_form": photo_form, "standalone": True}
    if photo_form.is_valid():
        cleaned = photo_form.cleaned_data["photo"]
        try:
            context["photo"] = services.photo_read(photo=cleaned)
        except services.ActionRefused as refusal:
            photo_form.add_error("photo", str(refusal))
        else:
            context["photo_src"] = cleaned.data_url()
            _read_into(form, context["photo"])
    return checker_page(request, context)


@require_GET
@login_required
def photo_image(request: HttpRequest, pk: int) -> HttpResponse:
    """A stored photo, for the members of the table's club only."""
    photo = photo_or_404(request, pk)
    try:
        content = services.photo_content(photo=photo)
    except FileNotFoundError:
        raise Http404("This photo's file is gone") from None
    except services.PhotoStoreUnavailable:
        response = render(request, "503_photos.html", status=503)
        response["Retry-After"] = "60"
        return response
    response = HttpResponse(content, content_type="image/jpeg")
    # Only the club's members may see it: no shared cache may keep a copy.
    patch_cache_control(response, private=True, max_age=3600)
    return response


@require_GET
@login_required
def table_photos(request: HttpRequest, pk: int) -> HttpResponse:
    """The photos taken at the table, by contract, each with what it was taken for."""
    game = game_or_404(request, pk)
    context = {"game": game, "photos": selectors.game_photos(game)}
    return render(request, "photos.html#photos" if request.htmx else "photos.html", context)


@require_POST
@login_required
def photo_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a photo, back to where it was listed: the table's photos or its checker."""
    photo = photo_or_404(request, pk, role=Role.SCORER)
    game = photo.game
    services.photo_delete(photo=photo, user=request.user)
    messages.success(request, "Deleted the photo.")
    back = "table_photos" if request.POST.get("back") == "photos" else "table_check"
    return redirect(back, pk=game.pk)
