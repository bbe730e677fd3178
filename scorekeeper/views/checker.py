from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import rules
from scorekeeper import selectors, services
from scorekeeper.forms import (
    CheckForm,
    GoingDownForm,
    LayOffForm,
    PhotoForm,
    melds_clean,
    row_id,
)
from scorekeeper.models import Check, Club, Photo, RulesProfile
from scorekeeper.views.games import game_or_404
from scorekeeper.views.profiles import profile_or_404

# Each question's answer is headed in its own words: (when yes, when no).
VERDICTS = {
    Check.Question.MELD: ("✔ A legal meld", "✘ Not a legal meld"),
    Check.Question.GOING_DOWN: ("✔ You can go down", "✘ Not a going-down"),
    Check.Question.LAY_OFF: ("✔ It can be laid off", "✘ It cannot be laid off there"),
    Check.Question.SHANGHAI: ("✔ Shanghai! It fits the table", "✘ Not a Shanghai"),
    Check.Question.HINT: ("✔ You could lay this down", "✘ Nothing to lay down yet"),
}


def _render(request, context, *, status=200):
    template = "checker.html#answer" if request.htmx else "checker.html"
    context.setdefault("ranks", rules.RANKS)
    context.setdefault("suits", rules.SUIT_SYMBOL.items())
    if context.get("answer") is not None:
        yes, no = VERDICTS[context["form"].cleaned_data["question"]]
        context["verdict"] = yes if context["answer"].ok else no
    return render(request, template, context, status=status)


def _standalone_form(request, data=None, *, initial=None) -> CheckForm:
    """The standalone checker's form: any of the user's clubs' rule profiles, every contract."""
    profiles = (
        RulesProfile.objects.filter(club__in=Club.objects.for_user(request.user))
        .select_related("club")
        .order_by("club__name", "name")
    )
    most_contracts = max(
        [len(profile.house_rules.contracts) for profile in profiles]
        + [len(rules.HouseRules().contracts)]
    )
    return CheckForm(data, initial=initial, profiles=profiles, contracts=most_contracts)


def _read_into(form: CheckForm, photo: Photo) -> None:
    """Put the cards a photo read into the checker's cards box, the unsure ones flagged."""
    form.initial["cards"] = " ".join(found["card"] for found in photo.detections)
    form.fields["cards"].widget.attrs["data-unsure"] = ",".join(map(str, photo.unsure_indices))


@require_http_methods(["GET", "POST"])
@login_required
def checker(request: HttpRequest) -> HttpResponse:
    """The standalone checker: any of the user's clubs' rule profiles, no table needed."""
    form = _standalone_form(request, request.POST or None)
    answer = None
    if request.method == "POST" and form.is_valid():
        question = form.cleaned_data["question"]
        answer = rules.answer_question(
            question,
            form.cleaned_data["cards"],
            form.house_rules,
            contract=form.contract,
            table_melds=form.cleaned_data["table"],
            target=0 if question == Check.Question.LAY_OFF else None,
        )
    context = {"form": form, "answer": answer, "standalone": True, "photo_form": PhotoForm()}
    if answer is not None:
        context["melds_preview"] = form.cleaned_data["cards"]
        context["target_cards"] = [form.cleaned_data["table"][index] for index in answer.targets]
    return _render(request, context)


@require_http_methods(["GET", "POST"])
@login_required
def table_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The checker at a table: the round's contract, the table's rules and melds; every question
    asked here is kept in the round's history."""
    game = game_or_404(request, pk)
    board = selectors.game_board(game)
    if board.current is None:
        raise Http404("This game is over")
    melds = board.melds
    form = CheckForm(
        request.POST or None,
        table_melds=melds,
        house_rules=board.house_rules,
        contract=board.current.number,
        shanghai_claims=(
            # Each claim put a card in a discarder's hand.
            sum(selectors.shanghai_claims_by_seat(board.current).values())
            if request.method == "POST"
            else 0
        ),
    )
    answer = None
    if request.method == "POST" and form.is_valid():
        question = form.cleaned_data["question"]
        target = form.cleaned_data["target"]
        answer = rules.answer_question(
            question,
            form.cleaned_data["cards"],
            board.house_rules,
            contract=board.current.number,
            table_melds=[meld.card_list for meld in melds],
            target=target,
        )
        try:
            services.check_record(
                game=game,
                round_=board.current,
                photo=_photo_of(game, request.POST.get("photo")),
                question=question,
                cards=rules.format_cards(
                    [card for meld in form.cleaned_data["cards"] for card in meld]
                ),
                target=melds[target] if target is not None else None,
                answer=answer,
                user=request.user,
            )
        except services.ActionRefused as refusal:
            return _refused(request, game, refusal)
    context = {
        "form": form,
        "answer": answer,
        "game": game,
        "board": board,
        "melds": melds,
        "checks": board.current.checks.prefetch_related("photos")[:10],
        "photo_form": PhotoForm(),
    }
    if answer is not None:
        typed = form.cleaned_data["cards"]
        context["melds_preview"] = typed
        context["cards_text"] = " | ".join(rules.format_cards(meld) for meld in typed)
        context["target_melds"] = [melds[index] for index in answer.targets]
        if answer.ok:
            context["record"] = _record_offer(question, answer, typed, target, melds)
    return _render(request, context)


def _record_offer(question, answer, typed, target, melds):
    """After a legal answer at a table, what can be recorded on the round in one tap."""
    if question == Check.Question.GOING_DOWN:
        return {
            "url": "melds_record",
            "melds": " | ".join(rules.format_cards(meld.cards) for meld in answer.melds),
            "who": "Record as going down for",
            "label": "Record the going-down",
        }
    if question == Check.Question.LAY_OFF:
        return {
            "url": "lay_off",
            "melds": " ".join(rules.format_cards(meld) for meld in typed),
            "meld": melds[target].pk,
            "who": "Laid off by",
            "label": "Record the lay-off",
        }
    return None


def _refused(request, game, refusal: services.ActionRefused):
    """The checker page again, fresh, with the reason a recording was refused."""
    game.refresh_from_db()
    board = selectors.game_board(game)
    melds = board.melds
    context = {
        "form": CheckForm(table_melds=melds),
        "game": game,
        "board": board,
        "melds": melds,
        "message": str(refusal),
        "checks": board.current.checks.all()[:10] if board.current else [],
    }
    status = 409 if isinstance(refusal, services.StaleState) else 200
    return _render(request, context, status=status)


def _form_refusal(form) -> services.ActionRefused:
    if "version" in form.errors:
        return services.StaleState()
    return services.ActionRefused(" ".join(e for errors in form.errors.values() for e in errors))


def _record(request, game, write):
    try:
        write()
    except services.ActionRefused as refusal:
        return _refused(request, game, refusal)
    return redirect("table_check", pk=game.pk)


@require_POST
@login_required
def melds_record(request: HttpRequest, pk: int) -> HttpResponse:
    """Lay the checked melds on the table as the seat's going down."""
    game = game_or_404(request, pk)
    form = GoingDownForm(request.POST, game=game)
    if not form.is_valid():
        return _refused(request, game, _form_refusal(form))
    data = form.cleaned_data
    return _record(
        request,
        game,
        lambda: services.melds_record(
            game=game,
            version=data["version"],
            seat=data["seat"],
            melds=data["melds"],
            user=request.user,
        ),
    )


@require_POST
@login_required
def lay_off(request: HttpRequest, pk: int) -> HttpResponse:
    """Cards laid off on a table meld; with a discarder, a Shanghai claim onto that meld."""
    game = game_or_404(request, pk)
    board = selectors.game_board(game)
    if board.current is None:
        raise Http404("This game is over")
    form = LayOffForm(request.POST, game=game, round_=board.current)
    if not form.is_valid():
        return _refused(request, game, _form_refusal(form))
    data = form.cleaned_data
    cards = data["melds"]
    if data["discarder"] is None:
        service, extra = services.meld_lay_off, {"cards": cards}
    elif len(cards) != 1:
        return _refused(request, game, services.ActionRefused("A Shanghai claim is one card."))
    else:
        service, extra = (
            services.shanghai_claim_onto,
            {"discarder": data["discarder"], "card": cards[0]},
        )
    return _record(
        request,
        game,
        lambda: service(
            game=game,
            version=data["version"],
            seat=data["seat"],
            meld=data["meld"],
            user=request.user,
            **extra,
        ),
    )


@require_GET
@login_required
def cards_preview(request: HttpRequest) -> HttpResponse:
    """Live feedback while typing: the cards as faces, or the token that cannot be read."""
    text = request.GET.get("cards", "")
    context = {"melds_preview": [], "error": ""}
    if len(text) > CheckForm.base_fields["cards"].max_length:
        context["error"] = "That is more than any hand holds: check a few melds at a time."
    elif text.strip():
        try:
            context["melds_preview"] = melds_clean(text)
        except Exception as error:  # noqa: BLE001 - a ValidationError with the rules' message
            context["error"] = " ".join(getattr(error, "messages", [str(error)]))
    return render(request, "checker.html#preview", context)


@require_GET
@login_required
def rules_summary(request: HttpRequest, pk: int) -> HttpResponse:
    profile = profile_or_404(request, pk)
    house_rules = profile.house_rules
    return render(
        request,
        "rules_summary.html",
        {
            "profile": profile,
            "lines": rules.rules_summary(house_rules),
            "contracts": list(enumerate(house_rules.contracts, start=1)),
            "house_rules": house_rules,
            "points": dict(house_rules.points),
        },
    )


def _photo_of(game, pk) -> Photo | None:
    """The table's photo that a check was asked about, if the form carried one."""
    pk = row_id(pk)
    return game.photos.filter(pk=pk).first() if pk else None


@require_POST
@login_required
def table_photo(request: HttpRequest, pk: int) -> HttpResponse:
    """Read the cards in a photo taken at the table into the checker, to confirm or correct."""
    game = game_or_404(request, pk)
    board = selectors.game_board(game)
    if board.current is None:
        raise Http404("This game is over")
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
    return _render(request, context, status=200)


@require_POST
@login_required
def checker_photo(request: HttpRequest) -> HttpResponse:
    """Read the cards in a photo into the standalone checker. With no table to keep it for, the
    photo is shown from the page itself and never stored."""
    photo_form = PhotoForm(request.POST, request.FILES)
    form = _standalone_form(request)
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
    return _render(request, context)


@require_GET
@login_required
def photo_image(request: HttpRequest, pk: int) -> HttpResponse:
    """A stored photo, for the members of the table's club only."""
    photo = _photo_or_404(request, pk)
    try:
        image = photo.image.open("rb")
    except FileNotFoundError:
        raise Http404("This photo's file is gone") from None
    response = FileResponse(image, content_type="image/jpeg")
    # Only the club's members may see it: no shared cache may keep a copy.
    patch_cache_control(response, private=True, max_age=3600)
    return response


@require_POST
@login_required
def photo_delete(request: HttpRequest, pk: int) -> HttpResponse:
    photo = _photo_or_404(request, pk)
    game = photo.game
    services.photo_delete(photo=photo)
    return redirect("table_check", pk=game.pk)


def _photo_or_404(request, pk) -> Photo:
    try:
        return Photo.objects.select_related("game").get(
            pk=pk, game__club__in=Club.objects.for_user(request.user)
        )
    except Photo.DoesNotExist:
        raise Http404("No such photo") from None
