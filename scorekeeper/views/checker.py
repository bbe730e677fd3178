"""The meld checker: standalone with any of the user's rule profiles, or at a table with its
contract, rules and melds, where every question asked is kept."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods
from django_ratelimit.decorators import ratelimit

import rules
from scorekeeper import selectors, services
from scorekeeper.forms import CheckForm, PhotoForm, melds_clean
from scorekeeper.models import Club, Role, RulesProfile
from scorekeeper.views.access import game_in_play_or_404, table_photo_or_none

# Each question's answer is headed in its own words: (when yes, when no).
VERDICTS = {
    rules.Question.MELD: (gettext_lazy("✔ A legal meld"), gettext_lazy("✘ Not a legal meld")),
    rules.Question.GOING_DOWN: (
        gettext_lazy("✔ You can go down"),
        gettext_lazy("✘ Not a going-down"),
    ),
    rules.Question.LAY_OFF: (
        gettext_lazy("✔ It can be laid off"),
        gettext_lazy("✘ It cannot be laid off there"),
    ),
    rules.Question.SHANGHAI: (
        gettext_lazy("✔ Shanghai! It fits the table"),
        gettext_lazy("✘ Not a Shanghai"),
    ),
    rules.Question.HINT: (
        gettext_lazy("✔ You could lay this down"),
        gettext_lazy("✘ Nothing to lay down yet"),
    ),
}
# The engine ran out of steps before it could tell (rules/going_down/budget.py): neither a yes
# nor a no, and the reasons say what to ask instead.
GAVE_UP = gettext_lazy("⚠ Too many possibilities")
# A going-down that uses the whole hand, in a no-discard contract: it ends the round.
GOES_OUT = gettext_lazy("✔ You can go out")


# The most questions a member asks the checker, and photos a member takes, in a minute: well
# beyond a table's pace (a question or two a turn, a photo a hand), well short of a script's.
QUESTIONS_A_MINUTE = "30/m"
PHOTOS_A_MINUTE = "20/m"


def checker_page(request, context, *, status=200):
    """The checker page, or for htmx only its answer."""
    template = "checker.html#answer" if request.htmx else "checker.html"
    context.setdefault("ranks", rules.RANKS)
    context.setdefault("suits", rules.SUIT_SYMBOL.items())
    answer = context.get("answer")
    if answer is not None:
        yes, no = VERDICTS[context["form"].cleaned_data["question"]]
        if answer.goes_out:
            context["verdict"] = GOES_OUT
        else:
            context["verdict"] = yes if answer.ok else GAVE_UP if answer.gave_up else no
    return render(request, template, context, status=status)


def standalone_form(request, data=None) -> CheckForm:
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
    return CheckForm(data, profiles=profiles, contracts=most_contracts)


@require_http_methods(["GET", "POST"])
@login_required
@ratelimit(key="user", rate=QUESTIONS_A_MINUTE, method="POST")
def checker(request: HttpRequest) -> HttpResponse:
    """The standalone checker: any of the user's clubs' rule profiles, no table needed."""
    form = standalone_form(request, request.POST or None)
    answer = None
    if request.method == "POST" and form.is_valid():
        answer = services.check_ask(
            question=form.cleaned_data["question"],
            cards=form.cleaned_data["cards"],
            house_rules=form.house_rules,
            contract=form.contract,
            table_melds=form.cleaned_data["table"],
            target=form.cleaned_data["target"],
            user=request.user,
        )
    context = {"form": form, "answer": answer, "standalone": True, "photo_form": PhotoForm()}
    if answer is not None:
        context["melds_preview"] = form.cleaned_data["cards"]
        context["target_cards"] = [form.cleaned_data["table"][index] for index in answer.targets]
    return checker_page(request, context)


@require_http_methods(["GET", "POST"])
@login_required
@ratelimit(key="user", rate=QUESTIONS_A_MINUTE, method="POST")
def table_check(request: HttpRequest, pk: int) -> HttpResponse:
    """The checker at a table: the round's contract, the table's rules and melds; every question
    asked here is kept in the round's history."""
    game, board = game_in_play_or_404(request, pk, role=Role.SCORER)
    melds = board.melds
    form = CheckForm(
        request.POST or None,
        table_melds=melds,
        house_rules=board.house_rules,
        contract=board.current.number,
        # Each claim put a card in a discarder's hand.
        shanghai_claims=sum(board.claims.values()),
    )
    answer = None
    if request.method == "POST" and form.is_valid():
        try:
            answer = services.check_ask(
                game=game,
                user=request.user,
                round_=board.current,
                melds=melds,
                photo=table_photo_or_none(game, request.POST.get("photo")),
                **form.cleaned_data,  # at a table: the question, its cards and the meld it targets
            )
        except services.ActionRefused as refusal:
            return checker_page_refused(request, game, refusal)
    context = {
        "form": form,
        "answer": answer,
        "game": game,
        "board": board,
        "melds": melds,
        "checks": selectors.round_checks(board.current),
        "photo_form": PhotoForm(),
    }
    if answer is not None:
        typed = form.cleaned_data["cards"]
        context["melds_preview"] = typed
        context["cards_text"] = " | ".join(rules.format_cards(meld) for meld in typed)
        context["target_melds"] = [melds[index] for index in answer.targets]
        if answer.ok:
            question, target = form.cleaned_data["question"], form.cleaned_data["target"]
            context["record"] = _record_offer(question, answer, typed, target, melds)
    return checker_page(request, context)


def _record_offer(question, answer, typed, target, melds):
    """After a legal answer at a table, what can be recorded on the round in one tap."""
    if question == rules.Question.GOING_DOWN:
        return {
            "url": "melds_record",
            "melds": " | ".join(rules.format_cards(meld.cards) for meld in answer.melds),
            "who": gettext("Record as going out for")
            if answer.goes_out
            else gettext("Record as going down for"),
            "label": gettext("Record going out")
            if answer.goes_out
            else gettext("Record the going-down"),
        }
    if question == rules.Question.LAY_OFF:
        return {
            "url": "lay_off",
            "melds": " ".join(rules.format_cards(meld) for meld in typed),
            "meld": melds[target].pk,
            "who": gettext("Laid off by"),
            "label": gettext("Record the lay-off"),
        }
    return None


def checker_page_refused(request, game, refusal: services.ActionRefused):
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
        "checks": selectors.round_checks(board.current) if board.current else [],
    }
    status = 409 if isinstance(refusal, services.StaleState) else 200
    return checker_page(request, context, status=status)


@require_GET
@login_required
def cards_preview(request: HttpRequest) -> HttpResponse:
    """Live feedback while typing: the cards as faces, or the token that cannot be read."""
    text = request.GET.get("cards", "")
    context = {"melds_preview": [], "error": ""}
    if len(text) > CheckForm.base_fields["cards"].max_length:
        context["error"] = gettext("That is more than any hand holds: check a few melds at a time.")
    elif text.strip():
        try:
            context["melds_preview"] = melds_clean(text)
        except ValidationError as error:  # the rules' words for the token not understood
            context["error"] = " ".join(error.messages)
    return render(request, "checker.html#preview", context)
