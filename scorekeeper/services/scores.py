"""Score entry: what each player was left holding when someone went out, and corrections."""

from collections import Counter

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

import rules
from scorekeeper import selectors
from scorekeeper.actions import history
from scorekeeper.models import Event, Game, Hand, Round, Seat
from scorekeeper.rules_words import translated_reasons
from scorekeeper.selectors import ShanghaiClaims, Table

from .events import event_record, round_hands, undoes
from .ratings import results_refresh
from .refusals import ActionRefused
from .tables import current_round, round_finish, table_write


def _claims(round_: Round) -> ShanghaiClaims:
    """The round's Shanghai claims not taken back."""
    events = round_.events.filter(kind=Event.Kind.SHANGHAI_CLAIM, undone_by__isnull=True)
    claims = list(events.values_list("seat", "other_seat"))
    return ShanghaiClaims(
        made=Counter(claimant for claimant, _ in claims),
        against=Counter(discarder for _, discarder in claims),
    )


def _hand_limits(
    round_: Round, hands: list[Hand], claims: ShanghaiClaims, house_rules: rules.HouseRules
) -> dict[int, int]:
    """The most cards each seat can be left holding at the end of the round, by seat id."""
    return {
        hand.seat_id: house_rules.most_cards_left(
            round_.number, may_i_used=hand.may_i_used, discards_claimed=claims.against[hand.seat_id]
        )
        for hand in hands
    }


def _seat_names(hands: list[Hand]) -> dict[int, str]:
    return {hand.seat_id: hand.seat.player.name for hand in hands}


def _scores_summary(
    round_: Round, hands: list[Hand], claims: ShanghaiClaims, scored, house_rules
) -> str:
    """ "Ann 0, Ben 30, Cat 75": the round's scores with the bonuses in force applied."""
    scores = rules.round_scores(
        {seat_id: points for seat_id, (_, points) in scored.items()},
        house_rules,
        rummy=round_.rummy,
        shanghai_claims=claims.made,
    )
    names = _seat_names(hands)
    return ", ".join(f"{names[seat_id]} {score}" for seat_id, score in scores.items())


def _hands_apply(
    round_: Round,
    hands: list[Hand],
    claims: ShanghaiClaims,
    entries: dict[int, rules.HandEntry],
    house_rules: rules.HouseRules,
) -> dict[int, tuple[str, int]]:
    """Check every entry of a round and return (cards, points) by seat id, or refuse them all.
    `hands` are the round's, with their seats' players."""
    limits = _hand_limits(round_, hands, claims, house_rules)
    result = {}
    problems = []
    all_cards = []
    for hand in hands:
        seat_id, name = hand.seat_id, hand.seat.player.name
        if seat_id == round_.went_out_id:
            result[seat_id] = ("", 0)
            continue
        entry = entries.get(seat_id)
        if entry is None or (not entry.cards and entry.points is None):
            problem = gettext("Enter the cards {player} was left holding, or their points.")
            problems.append(problem.format(player=name))
            continue
        if entry.cards:
            cards = list(entry.cards)
            refusal = rules.held_refusal(
                player=name, held=len(cards), most_cards=limits[seat_id], contract=round_.number
            )
            if refusal:
                problems.append(refusal)
            all_cards.append(cards)
            result[seat_id] = (rules.format_cards(cards), rules.penalty_points(cards, house_rules))
        elif refusal := rules.points_refusal(
            player=name, points=entry.points, most_cards=limits[seat_id], rules=house_rules
        ):
            problems.append(refusal)
        else:
            result[seat_id] = ("", entry.points)
    problems.extend(rules.hand_problems(all_cards, house_rules))
    if problems:
        raise ActionRefused(translated_reasons(problems))
    return result


@table_write
def round_score(
    *, game: Game, entries: dict[int, rules.HandEntry], user, table: Table | None = None
) -> Event:
    """Save the scores of the current round, then deal the next contract or end the game."""
    table = table or selectors.table_read(game)
    round_ = current_round(game, table)
    if not round_.went_out_id:
        raise ActionRefused(
            gettext("Nobody has gone out yet: tap “Went out” for the player who did.")
        )
    house_rules = game.house_rules
    hands = table.hands_of(round_)
    claims = table.claims(round_)
    scored = _hands_apply(round_, hands, claims, entries, house_rules)
    for hand in hands:
        hand.cards, hand.points = scored[hand.seat_id]
    round_.finished_at = timezone.now()
    deal = round_.number < len(house_rules.contracts)
    dealt = round_finish(game=game, round_=round_, hands=hands, deal=deal)
    summary = _scores_summary(round_, hands, claims, scored, house_rules)
    description = history(Event.Kind.ROUND_SCORED, number=round_.number, summary=summary)
    after = round_hands(round_, scored)
    event = event_record(game, round_, Event.Kind.ROUND_SCORED, user, description, after=after)
    if deal:
        table.round_dealt(dealt[0].round, dealt)
    else:
        game.finished_at = timezone.now()
        game.save(update_fields=["finished_at"])
        results_refresh(game=game)
    return event


@undoes(Event.Kind.ROUND_SCORED)
def _round_scored_undo(game: Game, event: Event) -> None:
    round_ = event.round
    following = game.rounds.filter(number=round_.number + 1)
    if following.filter(Q(checks__isnull=False) | Q(photos__isnull=False)).exists():
        refusal = gettext(
            "Contract {next} already has checks or photos, so contract {number} cannot be "
            "reopened: edit its scores from the scoreboard."
        )
        raise ActionRefused(refusal.format(next=round_.number + 1, number=round_.number))
    following.delete()
    round_.hands.update(cards="", points=None)
    round_.finished_at = None
    round_.save(update_fields=["finished_at"])
    if game.finished_at:
        game.finished_at = None
        game.save(update_fields=["finished_at"])
        results_refresh(game=game)


def _went_down_first(round_: Round, seat_id: int) -> bool:
    """Whether the seat went down in the round before it went out (a going-down not taken back,
    not the one going out made)."""
    events = round_.events.filter(kind=Event.Kind.WENT_DOWN, seat_id=seat_id)
    return events.filter(undone_by__isnull=True).exists()


@table_write
def round_edit(
    *,
    game: Game,
    round_: Round,
    entries: dict[int, rules.HandEntry],
    went_out: Seat | None = None,
    rummy: bool | None = None,
    user,
):
    """Correct a finished round: who went out (in one turn or not) and what the others held.
    The history keeps what it was."""
    if round_.finished_at is None or round_.game_id != game.pk:
        raise ActionRefused(gettext("Only a finished round's scores can be edited."))
    hands = list(round_.hands.select_related("seat__player"))
    down = {hand.seat_id for hand in hands if hand.went_down}
    before = round_hands(
        round_, {hand.seat_id: (hand.cards, hand.points) for hand in hands}, down=down
    )
    was_out = round_.went_out_id
    if went_out is not None:
        round_.went_out = went_out
    if rummy is not None:
        round_.rummy = rummy
    scored = _hands_apply(round_, hands, _claims(round_), entries, game.house_rules)
    down = rules.down_after_correction(
        down,
        was_out=was_out,
        went_out=round_.went_out_id,
        went_down_first=was_out != round_.went_out_id and _went_down_first(round_, was_out),
    )
    after = round_hands(round_, scored, down=down)
    if before == after:
        raise ActionRefused(gettext("Nothing changed, so nothing was saved."))
    for hand in hands:
        hand.cards, hand.points = scored[hand.seat_id]
        hand.went_down = hand.seat_id in after["down"]
    Hand.objects.bulk_update(hands, ["cards", "points", "went_down"])
    round_.save(update_fields=["went_out", "rummy"])
    if game.finished_at:
        results_refresh(game=game)
    names = _seat_names(hands)
    changes = [
        f"{names[int(seat_id)]} {before[seat_id][1]} → {after[seat_id][1]}"
        for seat_id in after
        if seat_id.isdecimal() and before[seat_id] != after[seat_id]
    ]
    if before["went_out"] != after["went_out"]:
        went_out = gettext("{player} went out, not {other}")
        changes.insert(
            0, went_out.format(player=names[after["went_out"]], other=names[before["went_out"]])
        )
    if before["rummy"] != after["rummy"]:
        changes.insert(0, gettext("in one turn") if after["rummy"] else gettext("not in one turn"))
    changes = ", ".join(changes)
    kind = Event.Kind.SCORE_EDITED
    description = history(kind, number=round_.number, changes=changes)
    return event_record(game, round_, kind, user, description, before=before, after=after)


@undoes(Event.Kind.SCORE_EDITED)
def _score_edited_undo(game: Game, event: Event) -> None:
    round_ = event.round
    round_.went_out_id = event.before.get("went_out", round_.went_out_id)
    round_.rummy = event.before.get("rummy", round_.rummy)
    round_.save(update_fields=["went_out", "rummy"])
    hands = Event.hands_in(event.before)
    down = event.before.get("down")
    for hand in round_.hands.all():
        hand.cards, hand.points = hands[hand.seat_id]
        if down is not None:  # edits kept before "down" was recorded leave it as it is
            hand.went_down = hand.seat_id in down
        hand.save(update_fields=["cards", "points", "went_down"])
    if game.finished_at:
        results_refresh(game=game)
