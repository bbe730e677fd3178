"""Photos of cards: taken at the table, read into the checker or into a player's score entry,
shown only to the club's members, and deleted; taken at the standalone checker, read and shown
but never kept."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.tasks import TaskResultStatus
from django.tasks.exceptions import TaskResultDoesNotExist
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext, gettext_noop
from django.views.decorators.http import require_GET, require_POST
from django_ratelimit.decorators import ratelimit

import rules
from scorekeeper import selectors, services
from scorekeeper.forms import CheckForm, PhotoForm, ScoreForm, count_said, row_id
from scorekeeper.models import Photo, PhotoStatus, Role
from scorekeeper.selectors import photos
from scorekeeper.views.access import game_in_play_or_404, game_or_404, photo_or_404
from scorekeeper.views.checker import PHOTOS_A_MINUTE, checker_page, standalone_form
from scorekeeper.views.games import table_page, table_page_refused

# One count of a member's photos, whichever page takes them: the table's checker, the score
# entry or the standalone checker (each view would otherwise be counted apart, 60 a minute).
PHOTOS = "photos"


@require_POST
@login_required
@ratelimit(group=PHOTOS, key="user", rate=PHOTOS_A_MINUTE, method="POST")
def table_photo(request: HttpRequest, pk: int) -> HttpResponse:
    """Keep a photo taken at the table and queue it to be read into the checker: the page
    answers at once and shows the cards when a worker has read them."""
    game, board = game_in_play_or_404(request, pk, role=Role.SCORER)
    melds = board.melds
    photo_form = PhotoForm(request.POST, request.FILES)
    photo = None
    if photo_form.is_valid():
        try:
            photo = services.photo_record(
                game=game, photo=photo_form.cleaned_data["photo"], user=request.user
            )
        except services.ActionRefused as refusal:
            photo_form.add_error("photo", str(refusal))
    context = {
        "form": CheckForm(table_melds=melds),
        "photo_form": photo_form,
        "photo": photo,
        "game": game,
        "board": board,
        "melds": melds,
        "checks": board.current.checks.prefetch_related("photos")[:10],
    }
    return _checker_photo_page(request, context)


@require_POST
@login_required
@ratelimit(group=PHOTOS, key="user", rate=PHOTOS_A_MINUTE, method="POST")
def score_photo(request: HttpRequest, pk: int) -> HttpResponse:
    """Keep a photo of one player's cards and queue it to be read into their hand, keeping what
    else was typed: the other hands can be typed while a worker reads it."""
    game = game_or_404(request, pk, role=Role.SCORER)
    board = selectors.game_board(game)
    if not board.scoring:
        return table_page_refused(request, game, services.StaleState())
    data = request.POST.copy()
    # "Read as a second photo" names the seat as photo_second: read with the hand's photo before.
    second = "photo_second" in data
    seat_id = row_id(data.get("photo_second" if second else "photo_seat"))
    seat = board.current.hands.filter(seat_id=seat_id).first() if seat_id else None
    upload = request.FILES.get(f"photo_{seat.seat_id}") if seat else None
    # Shown again with the photo being read, not saved: the counts said are checked on save.
    score_form = ScoreForm(data, round_=board.current, count_check=False)
    if upload is None:
        return table_page(
            request, game, message=gettext("Take or choose a photo first."), score_form=score_form
        )
    photo_form = PhotoForm(files={"photo": upload})
    if not photo_form.is_valid():
        message = " ".join(photo_form.errors["photo"])
        return table_page(request, game, message=message, score_form=score_form)
    try:
        services.photo_record(
            game=game,
            photo=photo_form.cleaned_data["photo"],
            user=request.user,
            seat=seat.seat,
            second=second,
        )
    except services.ActionRefused as refusal:
        return table_page(request, game, message=str(refusal), score_form=score_form)
    return table_page(request, game, board=board, score_form=score_form, photo_seat_id=seat.seat_id)


@require_GET
@login_required
def photo_reading(request: HttpRequest, pk: int) -> HttpResponse:
    """The poll of a photo being read: 204 (nothing to change) until a worker has read it, then
    the cards read, marked on the photo, to fill into the checker; for a hand, what all its
    photos read together (a second photo is read with the first)."""
    photo = photo_or_404(request, pk)
    if photo.status == PhotoStatus.READING:
        return HttpResponse(status=204)
    if photo.seat_id:
        reading = photos.hand_readings(photo.round, seat_id=photo.seat_id).get(photo.seat_id)
        if reading is None or reading.reading:
            return HttpResponse(status=204)
        count = None  # the hand's count check is on the score entry, kept while it is polled
    else:
        reading = photos.hand_reading(photos.hand_shots([photo]))
        round_ = photo.round
        remember = f"sk:held:table{photo.game_id}:round{round_.pk}"
        count = photos.checker_count(photo.game.house_rules, round_.number, remember=remember)
    context = {
        "reading": reading,
        "count": count,
        "fill": f"id_cards_{photo.seat_id}" if photo.seat_id else "id_cards",
        "player": photo.seat.player if photo.seat_id else None,
    }
    return render(request, "photo_read.html", context)


@require_GET
@login_required
def count_check(request: HttpRequest) -> HttpResponse:
    """The count check's words (held.html) as a hand's cards are entered: the page sends its
    cards box and its number row, and names their fields (`box`, `count`)."""
    query = request.GET
    held = row_id(query.get(query.get("count", "")))
    entered = rules.cards_written(query.get(query.get("box", ""), ""))
    said = count_said(held, entered) if held else ""
    return render(request, "held.html#said", {"said": said, "off": said and entered != held})


@require_GET
@login_required
def checker_photo_reading(request: HttpRequest, task_id: str) -> HttpResponse:
    """The poll of a standalone checker's photo: 204 until a worker has read it, then the cards
    read, marked on the photo the page still holds. Only whoever took it may ask."""
    try:
        result = services.upload_read.get_result(task_id)
    except (TaskResultDoesNotExist, ValidationError, ValueError, NotImplementedError):
        raise Http404("No such photo") from None
    if list(result.args[1:]) != [request.user.pk]:
        raise Http404("No such photo")
    if not result.is_finished:
        return HttpResponse(status=204)
    return render(request, "photo_read.html", _standalone_read(result))


def _standalone_read(result) -> dict:
    """What photo_read.html shows of a standalone checker's photo, read or not."""
    read = result.return_value if result.status == TaskResultStatus.SUCCESSFUL else {}
    photo = Photo(
        width=read.get("width", 1),
        height=read.get("height", 1),
        detections=read.get("detections", []),
        unread=read.get("unread", []),
        status=PhotoStatus.READ if "detections" in read else PhotoStatus.UNREADABLE,
        problem=""
        if "detections" in read
        else read.get(
            "problem", gettext_noop("That photo could not be read; please take it again.")
        ),
    )
    # The page shows the photo from its own file: it was kept only until it was read.
    reading = photos.hand_reading(photos.hand_shots([photo], src=lambda photo: ""))
    # No table: the seed game's deal, until the player taps what the hand holds.
    count = photos.checker_count(rules.HouseRules(), 1, remember="sk:held:checker")
    return {"reading": reading, "count": count, "fill": "id_cards", "preview": True}


@require_POST
@login_required
@ratelimit(group=PHOTOS, key="user", rate=PHOTOS_A_MINUTE, method="POST")
def checker_photo(request: HttpRequest) -> HttpResponse:
    """Queue a photo to be read into the standalone checker. With no table to keep it for, it
    is stored only until a worker has read it, and shown from the page itself."""
    photo_form = PhotoForm(request.POST, request.FILES)
    form = standalone_form(request)
    context = {"form": form, "photo_form": photo_form, "standalone": True}
    if photo_form.is_valid():
        try:
            result = services.upload_keep(photo=photo_form.cleaned_data["photo"], user=request.user)
        except services.ActionRefused as refusal:
            photo_form.add_error("photo", str(refusal))
        else:
            if result.is_finished:  # tasks run in the request (DJANGO_TASKS_BACKEND=immediate)
                context["read"] = _standalone_read(result)
            else:
                context["reading_task"] = result.id
    return _checker_photo_page(request, context)


def _checker_photo_page(request: HttpRequest, context: dict) -> HttpResponse:
    """The checker page, or for htmx only its photo: the page keeps what was typed, and the
    photo chosen, to show it with the cards marked once they are read."""
    if request.htmx:
        return render(request, "checker.html#photo", context)
    return checker_page(request, context)


@require_GET
@login_required
def table_photos(request: HttpRequest, pk: int) -> HttpResponse:
    """The photos taken at the table, by contract, each with what it was taken for."""
    game = game_or_404(request, pk)
    context = {"game": game, "photos": selectors.game_photos(game)}
    return render(request, "photos.html#photos" if request.htmx else "photos.html", context)


@require_GET
@login_required
def photo_image(request: HttpRequest, pk: int) -> HttpResponse:
    """A stored photo, for the members of the table's club only."""
    photo = photo_or_404(request, pk)
    if photo.status != PhotoStatus.READ:
        # Until a worker has turned it upright without its EXIF (the place it was taken),
        # nobody sees the upload; one that could not be read is gone.
        raise Http404("This photo is not read yet, or could not be read")
    # Asked again every time it is shown (no-cache, answered 304 without reading the store):
    # a member taken out of the club is refused at once, not an hour later.
    etag = f'"photo-{photo.pk}-{photo.size}"'
    response = get_conditional_response(request, etag=etag)
    if response is None:
        try:
            content = services.photo_content(photo=photo)
        except FileNotFoundError:
            raise Http404("This photo's file is gone") from None
        except services.PhotoStoreUnavailable:
            unavailable = render(request, "503_photos.html", status=503)
            unavailable["Retry-After"] = "60"
            return unavailable
        response = HttpResponse(content, content_type="image/jpeg")
    # Only the club's members may see it: no shared cache may keep a copy, and the browser's
    # own is checked with the server before each use.
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_POST
@login_required
def photo_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete a photo, back to where it was listed: the table's photos or its checker."""
    photo = photo_or_404(request, pk, role=Role.SCORER)
    game = photo.game
    services.photo_delete(photo=photo, user=request.user)
    messages.success(request, gettext("Deleted the photo."))
    back = "table_photos" if request.POST.get("back") == "photos" else "table_check"
    return redirect(back, pk=game.pk)
