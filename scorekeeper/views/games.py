"""The table: the round screen and its taps, score entry, round edits and the history."""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scorekeeper import polling, selectors, services
from scorekeeper.actions import TAPS
from scorekeeper.forms import ScoreForm, VersionedForm, row_id
from scorekeeper.models import Role
from scorekeeper.selectors import bgstats, charts, photos, sheets
from scorekeeper.views.access import game_or_404
from scorekeeper.views.writes import form_refusal, saved_message


def table_page(
    request,
    game,
    *,
    board=None,
    message="",
    message_level="error",
    status=200,
    score_form=None,
    photo_seat_id=None,
):
    """The table page, or for htmx only its `table` partial, with an optional message (a refusal
    unless `message_level` says otherwise) and the seat whose hand was just photographed (its
    cards go into its box once read); of `board` when it was built already."""
    board = board or selectors.game_board(game)
    if score_form is None and board.scoring:
        score_form = ScoreForm(
            initial={"version": game.version},
            round_=board.current,
            hands=board.hands,
            entered=selectors.scores_taken_back(board.current),
        )
    readings, held = {}, {}
    if score_form is not None and board.scoring and game.access.can_score:
        # Each hand keeps its own photos while another is photographed, and its count check.
        readings, held = photos.hand_readings(board.current), photos.held_counts(board)
    offline_form = None
    if board.current and not board.scoring and game.access.can_score:
        # Every player's row, for the score entry a tablet shows by itself when "Went out" is
        # tapped with no connection (score_entry_offline.html).
        offline_form = ScoreForm(round_=board.current, hands=board.hands, editing=True)
    context = {
        "board": board,
        "game": game,
        "offline_score_rows": offline_form.rows(board.lines) if offline_form else [],
        "message": message,
        "message_level": message_level,
        "photo_seat_id": photo_seat_id,
        "score_rows": score_form.rows(board.lines, readings=readings, held=held)
        if score_form
        else [],
        "score_form": score_form,
        "photo_url": reverse("score_photo", args=[game.pk]),
        # The poll and the TV link are outside the `table` partial: an htmx answer needs neither.
        "poll_url": "" if request.htmx else polling.poll_url(request, game),
        "etag": polling.table_etag(screen="table", pk=game.pk, version=game.version),
        "tv_link": None if request.htmx else selectors.tv_link_for(game),
        "totals_chart": charts.running_totals_chart(board),
        "bgstats_url": bgstats.bgstats_url(game, board) if game.finished_at else "",
        **_final_sheet(game, board),
        **keypad(board),
    }
    template = "game.html#table" if request.htmx else "game.html"
    return render(request, template, context, status=status)


def _final_sheet(game, board) -> dict:
    """Game over's sheet to send, as text on the page; its picture is the same sheet drawn."""
    if not game.finished_at:
        return {}
    sheet = sheets.table_sheet(game, board)
    return {"sheet": sheet, "sheet_text": sheets.sheet_text(sheet)}


def keypad(board):
    return {"ranks": list(dict(board.house_rules.points))}


# A tap sent from a tablet's offline queue carries an id of the tablet's making (X-Tap-Id), kept
# a week for its member and table: a copy sent again, its first answer lost to the connection or
# a reload, is answered as saved (X-Tap-Saved) rather than refused as stale, so the taps queued
# after it go on; the same id sent to another table, or by another member, was saved nowhere
# there. The version check alone already keeps a copy from counting twice.
TAP_ID = re.compile(r"[0-9A-Za-z-]{16,64}")
TAP_KEPT_SECONDS = 7 * 24 * 60 * 60


def tap_key(request, game) -> str | None:
    tap = request.headers.get("X-Tap-Id", "")
    return f"tap:{game.pk}:{request.user.pk}:{tap}" if TAP_ID.fullmatch(tap) else None


def _after_write(request, game, *, saved: str = ""):
    """The table after a tap: for htmx its fragment, else the page again. `saved`, if given, is
    said on it (a confirmation of a tap whose effect is not plain to see)."""
    if key := tap_key(request, game):
        cache.set(key, game.version, TAP_KEPT_SECONDS)
    if request.htmx:
        return table_page(request, game, message=saved, message_level="success")
    if saved:
        messages.success(request, saved)
    return redirect(game)


def _after_tap(request, game, table: selectors.Table, event, *, saved: str = ""):
    """The answer to a tap accepted: the table's board built from what the tap read and changed,
    with the tap as its last action; `saved`, if given, is said on it."""
    if key := tap_key(request, game):
        cache.set(key, game.version, TAP_KEPT_SECONDS)
    if request.htmx:
        board = selectors.table_board(
            game, table, last_action=event.description, melds_while_scored=False
        )
        return table_page(request, game, board=board, message=saved, message_level="success")
    if saved:
        messages.success(request, saved)
    return redirect(game)


def table_page_refused(request, game, refusal: services.ActionRefused):
    """The table page, fresh, with the reason a tap was refused (409 for a stale screen); or,
    for a queued tap sent again that was saved the first time, the table as saved."""
    game.refresh_from_db()
    key = tap_key(request, game) if isinstance(refusal, services.StaleState) else None
    if key and cache.get(key) is not None:
        response = table_page(request, game)
        response["X-Tap-Saved"] = "before"
        return response
    status = 409 if isinstance(refusal, services.StaleState) else 200
    return table_page(request, game, message=str(refusal), status=status)


@require_GET
@login_required
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return table_page(request, game_or_404(request, pk))


@require_GET
def game_live(request: HttpRequest, pk: int) -> HttpResponse:
    """What the round screen polls every second: the table's fragment when it changed since the
    screen's ETag, else 304. Most polls of an unchanged table never get here: the
    unchanged_polls middleware answers them after one query, with the signed poll address. The
    rest, a changed table's included, are checked the ordinary way."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("game", args=[pk]))
    game = game_or_404(request, pk)
    etag = polling.table_etag(screen="table", pk=pk, version=game.version)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = table_page(request, game)
    return polling.not_modified(response, etag)


@require_POST
@login_required
def tap(request: HttpRequest, pk: int, word: str) -> HttpResponse:
    """Every tap of the round screen, by its address's word (urls.py gives each declared tap its
    address): fetch the table for a scorer, read it once, clean the tap's form for its seats,
    call its service with what it cleaned, and answer with the table (or the refusal). The form
    and service are those its action declares (scorekeeper/actions.py, `TAPS`)."""
    declared = TAPS[word]
    form_path, service_path = declared.paths
    game = game_or_404(request, pk, role=Role.SCORER)
    table = selectors.table_read(game)
    form = import_string(form_path)(request.POST, game=game, seats=table.seats)
    if not form.is_valid():
        return table_page_refused(request, game, form_refusal(form))
    service = import_string(service_path)
    try:
        event = service(game=game, **form.cleaned_data, table=table, user=request.user)
    except services.ActionRefused as refusal:
        return table_page_refused(request, game, refusal)
    saved = saved_message(event) if declared.say_saved else ""
    return _after_tap(request, game, table, event, saved=saved)


@require_POST
@login_required
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.SCORER)
    form = VersionedForm(request.POST, game=game)
    if not form.is_valid():
        return table_page_refused(request, game, form_refusal(form))
    try:
        services.action_undo(game=game, **form.cleaned_data, user=request.user)
    except services.ActionRefused as refusal:
        return table_page_refused(request, game, refusal)
    return _after_write(request, game)


@require_POST
@login_required
def score(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.SCORER)
    # Read once: the form's rows, what the service checks and saves, and the answer's board.
    table = selectors.table_read(game)
    round_ = table.current
    hands = table.hands_of(round_) if round_ else None
    form = ScoreForm(request.POST, round_=round_, hands=hands)
    if not form.is_valid():
        if "version" in form.errors:
            return table_page_refused(request, game, services.StaleState())
        return table_page(
            request, game, score_form=form, message=_("Check the hands marked below.")
        )
    try:
        event = services.round_score(
            game=game,
            version=form.cleaned_data["version"],
            entries=form.cleaned_data["entries"],
            table=table,
            user=request.user,
        )
    except services.StaleState as refusal:
        return table_page_refused(request, game, refusal)
    except services.ActionRefused as refusal:
        # The refused write rolled back: what was typed stays on screen to be corrected.
        game.refresh_from_db()
        return table_page(request, game, message=str(refusal), score_form=form)
    return _after_tap(request, game, table, event)


@require_http_methods(["GET", "POST"])
@login_required
def round_edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = game_or_404(request, pk, role=Role.SCORER)
    round_ = game.rounds.filter(number=number, finished_at__isnull=False).first()
    if round_ is None:
        raise Http404("No finished round with that number")
    message = ""
    status = 200
    if request.method == "POST":
        form = ScoreForm(request.POST, round_=round_, editing=True)
        if form.is_valid():
            try:
                event = services.round_edit(
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
                messages.success(request, saved_message(event))
                return redirect(game)
        elif "version" in form.errors:
            message, status = str(services.StaleState()), 409
            form = ScoreForm(initial={"version": game.version}, round_=round_, editing=True)
    else:
        form = ScoreForm(initial={"version": game.version}, round_=round_, editing=True)
    board = selectors.game_board(game)  # read after the write: a saved edit is a redirect
    context = {
        "game": game,
        "board": board,
        "round": round_,
        "score_form": form,
        "score_rows": form.rows(board.lines),
        # The hand that does not count: whoever the form says went out scores 0.
        "not_counted": row_id(form["went_out"].value()),
        "message": message,
        **keypad(board),
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
