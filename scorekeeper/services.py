"""Every write the app makes. Each service is keyword-only, runs in one transaction, and either
changes everything it should or nothing at all, raising ActionRefused with the player's reason."""

import functools
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

import rules

from . import selectors
from .models import (
    Check,
    Club,
    Event,
    Game,
    Hand,
    Membership,
    Photo,
    Player,
    Round,
    RulesProfile,
    Season,
    Seat,
    TableMeld,
)
from .recognition import UnreadableImage, read_cards


class ActionRefused(Exception):
    """A write that must not happen, with the reason in the player's words."""


class StaleState(ActionRefused):
    """The screen the write was based on is out of date: someone else changed the table."""

    def __init__(self, changes: list[str] = ()):
        """`changes`: what the other screens did meanwhile, newest first, in the history's words."""
        if changes:
            done = "; ".join(changes)
            super().__init__(
                f"On another screen a moment ago: {done}. So nothing was saved from your "
                "tap: here is the table as it is now."
            )
        else:
            super().__init__(
                "Someone else changed this table a moment ago, so nothing was saved. "
                "Here is the table as it is now."
            )


UNDOABLE = [
    Event.Kind.MAY_I,
    Event.Kind.WENT_DOWN,
    Event.Kind.WENT_OUT,
    Event.Kind.SHANGHAI_CLAIM,
    Event.Kind.SHANGHAI_PROTECT,
    Event.Kind.LAID_OFF,
    Event.Kind.ROUND_SCORED,
    Event.Kind.SCORE_EDITED,
]


# Clubs, players, seasons, rule profiles


@transaction.atomic
def club_create(*, user, name: str, time_zone: str | None = None) -> Club:
    """A new club with its creator as member, the seed rules and a season for this year."""
    club = Club.objects.create(name=name, time_zone=time_zone or settings.TIME_ZONE)
    Membership.objects.create(club=club, user=user)
    RulesProfile.objects.create(
        club=club, name=RulesProfile.SEED_NAME, settings=rules.HouseRules().to_dict()
    )
    today = timezone.localdate()
    Season.objects.create(club=club, name=str(today.year), starts_on=date(today.year, 1, 1))
    return club


@transaction.atomic
def club_set_time_zone(*, club: Club, time_zone: str) -> Club:
    """Show the club's dates and times in `time_zone` (an IANA name the form has checked)."""
    club.time_zone = time_zone
    club.save(update_fields=["time_zone"])
    return club


@transaction.atomic
def club_join(*, user, invite_code: str) -> Club:
    club = Club.objects.filter(invite_code=invite_code.strip()).first()
    if club is None:
        raise ActionRefused("No club has that invite code. Check it with a member of the club.")
    Membership.objects.get_or_create(club=club, user=user)
    return club


@transaction.atomic
def player_create(*, club: Club, name: str) -> Player:
    name = " ".join(name.split())
    if club.players.filter(name__iexact=name).exists():
        raise ActionRefused(f"{club} already has a player called {name}.")
    return Player.objects.create(club=club, name=name)


@transaction.atomic
def season_create(*, club: Club, name: str, starts_on: date) -> Season:
    if club.seasons.filter(name=name).exists():
        raise ActionRefused(f"{club} already has a season called {name}.")
    return Season.objects.create(club=club, name=name, starts_on=starts_on)


@transaction.atomic
def profile_save(
    *, club: Club, name: str, house_rules: rules.HouseRules, profile: RulesProfile | None = None
) -> RulesProfile:
    """Create or update a rule profile. Tables already started keep their own copy of the rules."""
    clash = club.profiles.filter(name=name)
    if profile is not None:
        clash = clash.exclude(pk=profile.pk)
    if clash.exists():
        raise ActionRefused(f"{club} already has a rule profile called {name}.")
    if profile is None:
        profile = RulesProfile(club=club)
    profile.name = name
    profile.settings = house_rules.to_dict()
    profile.save()
    return profile


# Tables


@transaction.atomic
def game_start(
    *,
    club: Club,
    user,
    players: list[Player],
    first_dealer: int,
    season: Season,
    profile: RulesProfile,
) -> Game:
    """Seat the players in the order given and deal contract 1."""
    house_rules = profile.house_rules
    if len(set(players)) != len(players):
        raise ActionRefused("Each player can sit at the table only once.")
    if not house_rules.min_players <= len(players) <= house_rules.max_players:
        raise ActionRefused(
            f"{profile} is for {house_rules.min_players} to {house_rules.max_players} players; "
            f"you picked {len(players)}."
        )
    if not 0 <= first_dealer < len(players):
        raise ActionRefused("The first dealer must be one of the players at the table.")
    if any(player.club_id != club.pk for player in players) or season.club_id != club.pk:
        raise ActionRefused("Players and season must belong to this club.")
    game = Game.objects.create(
        club=club,
        season=season,
        profile=profile,
        rules=house_rules.to_dict(),
        first_dealer=first_dealer,
        created_by=user,
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, position=position) for position, player in enumerate(players)
    )
    _round_deal(game=game, number=1)
    return game


def _round_deal(*, game: Game, number: int) -> Round:
    round_ = Round.objects.create(game=game, number=number)
    limit = game.house_rules.may_i_limit
    Hand.objects.bulk_create(
        Hand(round=round_, seat=seat, may_i_limit=limit) for seat in game.seats.all()
    )
    return round_


def table_write(service):
    """Run a write to a table in one transaction, if the screen it came from is up to date.

    The wrapped service is called as `service(game=..., version=..., ...)`, `version` being the
    table's version that screen showed. A conditional UPDATE is atomic on every database: of two
    writes based on the same version, exactly one moves it on; the other sees no row and is
    refused with StaleState. A refused write leaves nothing behind, in the database or on `game`.
    """

    @functools.wraps(service)
    def write(*, game: Game, version: int, **kwargs):
        try:
            with transaction.atomic():
                claimed = Game.objects.filter(pk=game.pk, version=version).update(
                    version=F("version") + 1
                )
                if not claimed:
                    raise StaleState(selectors.changes_since(game, version))
                game.version = version + 1
                return service(game=game, **kwargs)
        except Exception:
            game.version = version
            raise

    return write


def _current_round(game: Game) -> Round:
    round_ = game.rounds.filter(finished_at__isnull=True).order_by("number").first()
    if round_ is None:
        raise ActionRefused("This game is over: all the contracts have been played.")
    return round_


def _hand(round_: Round, seat: Seat) -> Hand:
    return round_.hands.select_related("seat__player").get(seat=seat)


def _event(
    game, round_, kind, user, description, *, seat=None, other_seat=None, before=None, after=None
):
    return Event.objects.create(
        game=game,
        round=round_,
        kind=kind,
        seat=seat,
        other_seat=other_seat,
        description=description,
        before=before or {},
        after=after or {},
        created_by=user,
    )


@table_write
def may_i_spend(*, game: Game, seat: Seat, user) -> Event:
    """Spend one of the seat's May I? tokens in the current round."""
    round_ = _current_round(game)
    hand = _hand(round_, seat)
    house_rules = game.house_rules
    if round_.went_out_id:
        raise ActionRefused("The round is over: someone went out. Enter the scores.")
    if hand.went_down and not house_rules.may_i_after_down:
        raise ActionRefused(f"{seat.player} has gone down; these rules allow no May I? after that.")
    if hand.may_i_used >= hand.may_i_limit:
        raise ActionRefused(
            f"{seat.player} has no May I? left this round: the limit is {hand.may_i_limit} a round."
        )
    hand.may_i_used += 1
    hand.save(update_fields=["may_i_used"])
    return _event(
        game,
        round_,
        Event.Kind.MAY_I,
        user,
        f"{seat.player} called May I? ({hand.may_i_limit - hand.may_i_used} left)",
        seat=seat,
    )


@table_write
def hand_mark_down(*, game: Game, seat: Seat, user) -> Event:
    """Record that the seat laid down the contract; in a no-discard contract that is going out."""
    round_ = _current_round(game)
    hand = _hand(round_, seat)
    if round_.went_out_id:
        raise ActionRefused("The round is over: someone went out. Enter the scores.")
    if hand.went_down:
        raise ActionRefused(f"{seat.player} has already gone down this round.")
    hand.went_down = True
    hand.save(update_fields=["went_down"])
    if _no_discard(game, round_):
        return _went_out(game, round_, seat, user)
    return _event(game, round_, Event.Kind.WENT_DOWN, user, f"{seat.player} went down", seat=seat)


def _no_discard(game: Game, round_: Round) -> bool:
    return game.house_rules.contract(round_.number).no_discard


def _went_out(game: Game, round_: Round, seat: Seat, user, *, melds=()) -> Event:
    """End the round with `seat` out. Going down in a no-discard contract goes out with the whole
    hand: the melds laid are kept on the event, so undo takes them back with it."""
    round_.went_out = seat
    round_.save(update_fields=["went_out", "rummy"])
    description = f"{seat.player} went out" + (" in one turn" if round_.rummy else "")
    if melds:
        description += ": " + " | ".join(meld.cards for meld in melds)
    elif _no_discard(game, round_):
        description += " with the whole hand"
    return _event(
        game,
        round_,
        Event.Kind.WENT_OUT,
        user,
        description,
        seat=seat,
        after={"melds": [meld.pk for meld in melds]} if melds else None,
    )


@table_write
def shanghai_record(*, game: Game, seat: Seat, discarder: Seat | None, user) -> Event:
    """A Shanghai call: `seat` claimed `discarder`'s discard, or protected its own discard."""
    round_ = _current_round(game)
    if round_.went_out_id:
        raise ActionRefused("The round is over: someone went out. Enter the scores.")
    if discarder not in (None, seat) and not round_.hands.filter(went_down=True).exists():
        raise ActionRefused(
            f"Nobody has gone down yet, so no meld is on the table to lay {discarder.player}'s "
            "discard on: it cannot be a Shanghai."
        )
    if discarder is None or discarder == seat:
        return _event(
            game,
            round_,
            Event.Kind.SHANGHAI_PROTECT,
            user,
            f"{seat.player} called Shanghai on their own discard",
            seat=seat,
        )
    return _event(
        game,
        round_,
        Event.Kind.SHANGHAI_CLAIM,
        user,
        f"{seat.player} claimed {discarder.player}'s discard: Shanghai!",
        seat=seat,
        other_seat=discarder,
    )


@table_write
def round_record_went_out(*, game: Game, seat: Seat, user, rummy: bool = False) -> Event:
    """End the current round: `seat` went out, with `rummy` in one turn (from a full hand, not
    down before). Scores are entered next."""
    round_ = _current_round(game)
    if round_.went_out_id:
        raise ActionRefused(f"{round_.went_out.player} has already gone out this round.")
    hand = _hand(round_, seat)
    if rummy and hand.went_down:
        raise ActionRefused(
            f"{seat.player} went down earlier this round, so going out now is not in one turn."
        )
    hand.went_down = True
    hand.save(update_fields=["went_down"])
    round_.rummy = rummy
    return _went_out(game, round_, seat, user)


@dataclass(frozen=True)
class HandEntry:
    """What a player was left holding: cards (suits optional) or just a number of points."""

    cards: tuple[rules.Card, ...] | None = None
    points: int | None = None


def _hand_limits(round_: Round, house_rules: rules.HouseRules) -> dict[int, int]:
    """The most cards each seat can hold at the end of the round, by seat id."""
    dealt = house_rules.cards_dealt[round_.number - 1]
    per_may_i = 1 + house_rules.may_i_penalty_cards
    claims_against = {}
    for event in round_.events.filter(kind=Event.Kind.SHANGHAI_CLAIM, undone_by__isnull=True):
        claims_against[event.other_seat_id] = claims_against.get(event.other_seat_id, 0) + 1
    return {
        hand.seat_id: dealt + per_may_i * hand.may_i_used + claims_against.get(hand.seat_id, 0)
        for hand in round_.hands.all()
    }


def _seat_names(round_: Round) -> dict[int, str]:
    return {seat.pk: seat.player.name for seat in round_.game.seats.select_related("player")}


def _scores_summary(round_: Round, scored: dict[int, tuple[str, int]], house_rules) -> str:
    """ "Ann 0, Ben 30, Cat 75": the round's scores with the bonuses in force applied."""
    claims = selectors.shanghai_claims_by_seat(round_)
    scores = rules.round_scores(
        {seat_id: points for seat_id, (_, points) in scored.items()},
        house_rules,
        rummy=round_.rummy,
        shanghai_claims=claims,
    )
    names = _seat_names(round_)
    return ", ".join(f"{names[seat_id]} {score}" for seat_id, score in scores.items())


def _hands_apply(
    round_: Round, entries: dict[int, HandEntry], house_rules: rules.HouseRules
) -> dict[int, tuple[str, int]]:
    """Check every entry of a round and return (cards, points) by seat id, or refuse them all."""
    hands = {hand.seat_id: hand for hand in round_.hands.select_related("seat__player")}
    limits = _hand_limits(round_, house_rules)
    result = {}
    problems = []
    all_cards = []
    for seat_id, hand in hands.items():
        name = hand.seat.player.name
        if seat_id == round_.went_out_id:
            result[seat_id] = ("", 0)
            continue
        entry = entries.get(seat_id)
        if entry is None or (not entry.cards and entry.points is None):
            problems.append(f"Enter the cards {name} was left holding, or their points.")
            continue
        if entry.cards:
            cards = list(entry.cards)
            if len(cards) > limits[seat_id]:
                problems.append(
                    f"{name} cannot hold {len(cards)} cards: at most {limits[seat_id]} in "
                    f"contract {round_.number} (the deal plus what May I?s brought)."
                )
            all_cards.append(cards)
            result[seat_id] = (rules.format_cards(cards), rules.penalty_points(cards, house_rules))
        elif entry.points <= 0:
            problems.append(
                f"{name} did not go out, so they hold at least one card: points above 0."
            )
        elif not rules.points_possible(entry.points, limits[seat_id], house_rules):
            problems.append(
                f"No hand of at most {limits[seat_id]} cards is worth {entry.points} points "
                f"under this table's rules: check {name}'s points."
            )
        else:
            result[seat_id] = ("", entry.points)
    problems.extend(rules.hand_problems(all_cards, house_rules))
    if problems:
        raise ActionRefused(" ".join(problems))
    return result


@table_write
def round_score(*, game: Game, entries: dict[int, HandEntry], user) -> Round:
    """Save the scores of the current round, then deal the next contract or end the game."""
    round_ = _current_round(game)
    if not round_.went_out_id:
        raise ActionRefused("Nobody has gone out yet: tap “Went out” for the player who did.")
    house_rules = game.house_rules
    scored = _hands_apply(round_, entries, house_rules)
    for hand in round_.hands.all():
        hand.cards, hand.points = scored[hand.seat_id]
        hand.save(update_fields=["cards", "points"])
    round_.finished_at = timezone.now()
    round_.save(update_fields=["finished_at"])
    summary = _scores_summary(round_, scored, house_rules)
    _event(
        game,
        round_,
        Event.Kind.ROUND_SCORED,
        user,
        f"Contract {round_.number} scored: {summary}",
        after={str(seat_id): [cards, points] for seat_id, (cards, points) in scored.items()},
    )
    if round_.number < len(house_rules.contracts):
        _round_deal(game=game, number=round_.number + 1)
    else:
        game.finished_at = timezone.now()
        game.save(update_fields=["finished_at"])
    return round_


@table_write
def round_edit(
    *,
    game: Game,
    round_: Round,
    entries: dict[int, HandEntry],
    went_out: Seat | None = None,
    rummy: bool | None = None,
    user,
):
    """Correct a finished round: who went out (in one turn or not) and what the others held.
    The history keeps what it was."""
    if round_.finished_at is None or round_.game_id != game.pk:
        raise ActionRefused("Only a finished round's scores can be edited.")
    before = {"went_out": round_.went_out_id, "rummy": round_.rummy}
    if went_out is not None:
        round_.went_out = went_out
    if rummy is not None:
        round_.rummy = rummy
    after = {"went_out": round_.went_out_id, "rummy": round_.rummy}
    scored = _hands_apply(round_, entries, game.house_rules)
    for hand in round_.hands.all():
        cards, points = scored[hand.seat_id]
        before[str(hand.seat_id)] = [hand.cards, hand.points]
        after[str(hand.seat_id)] = [cards, points]
        hand.cards, hand.points = cards, points
        hand.save(update_fields=["cards", "points"])
    if before == after:
        raise ActionRefused("Nothing changed, so nothing was saved.")
    round_.save(update_fields=["went_out", "rummy"])
    names = _seat_names(round_)
    changes = [
        f"{names[int(seat_id)]} {before[seat_id][1]} → {after[seat_id][1]}"
        for seat_id in after
        if seat_id.isdecimal() and before[seat_id] != after[seat_id]
    ]
    if before["went_out"] != after["went_out"]:
        changes.insert(0, f"{names[after['went_out']]} went out, not {names[before['went_out']]}")
    if before["rummy"] != after["rummy"]:
        changes.insert(0, "in one turn" if after["rummy"] else "not in one turn")
    changes = ", ".join(changes)
    return _event(
        game,
        round_,
        Event.Kind.SCORE_EDITED,
        user,
        f"Contract {round_.number} scores edited: {changes}",
        before=before,
        after=after,
    )


def _still_down(round_: Round, undone: Event) -> bool:
    """Whether the seat of an event being undone stays down: another of its "went down" events
    of the round still stands (tapped "Went down", then recorded the melds, say)."""
    return (
        round_.events.filter(kind=Event.Kind.WENT_DOWN, seat=undone.seat, undone_by__isnull=True)
        .exclude(pk=undone.pk)
        .exists()
    )


@table_write
def action_undo(*, game: Game, user) -> Event:
    """Take back the table's last action that has not been taken back yet."""
    last = (
        game.events.filter(kind__in=UNDOABLE, undone_by__isnull=True)
        .select_related("round", "seat__player")
        .order_by("-pk")
        .first()
    )
    if last is None:
        raise ActionRefused("There is nothing to undo.")
    round_ = last.round
    match last.kind:
        case Event.Kind.MAY_I:
            Hand.objects.filter(round=round_, seat=last.seat).update(may_i_used=F("may_i_used") - 1)
        case Event.Kind.WENT_DOWN:
            TableMeld.objects.filter(pk__in=last.after.get("melds", [])).delete()
            Hand.objects.filter(round=round_, seat=last.seat).update(
                went_down=_still_down(round_, last)
            )
        case Event.Kind.LAID_OFF | Event.Kind.SHANGHAI_CLAIM if "meld" in last.before:
            TableMeld.objects.filter(pk=last.before["meld"]).update(cards=last.before["cards"])
        case Event.Kind.WENT_OUT:
            TableMeld.objects.filter(pk__in=last.after.get("melds", [])).delete()
            round_.went_out, round_.rummy = None, False
            round_.save(update_fields=["went_out", "rummy"])
            Hand.objects.filter(round=round_, seat=last.seat).update(
                went_down=_still_down(round_, last)
            )
        case Event.Kind.ROUND_SCORED:
            following = game.rounds.filter(number=round_.number + 1)
            if following.filter(Q(checks__isnull=False) | Q(photos__isnull=False)).exists():
                raise ActionRefused(
                    f"Contract {round_.number + 1} already has checks or photos, so contract "
                    f"{round_.number} cannot be reopened: edit its scores from the scoreboard."
                )
            following.delete()
            round_.hands.update(cards="", points=None)
            round_.finished_at = None
            round_.save(update_fields=["finished_at"])
            if game.finished_at:
                game.finished_at = None
                game.save(update_fields=["finished_at"])
        case Event.Kind.SCORE_EDITED:
            round_.went_out_id = last.before.get("went_out", round_.went_out_id)
            round_.rummy = last.before.get("rummy", round_.rummy)
            round_.save(update_fields=["went_out", "rummy"])
            for hand in round_.hands.all():
                hand.cards, hand.points = last.before[str(hand.seat_id)]
                hand.save(update_fields=["cards", "points"])
    return Event.objects.create(
        game=game,
        round=round_,
        kind=Event.Kind.UNDO,
        seat=last.seat,
        description=f"Undid: {last.description}",
        undoes=last,
        created_by=user,
    )


# The table's melds


@table_write
def melds_record(*, game: Game, seat: Seat, melds: list[list[rules.Card]], user) -> Event:
    """The seat goes down with these melds: checked against the round's contract, then laid on
    the table with each joker's card fixed, and the seat marked as down."""
    round_ = _current_round(game)
    if round_.went_out_id:
        raise ActionRefused("The round is over: someone went out. Enter the scores.")
    hand = _hand(round_, seat)
    if hand.went_down and round_.melds.filter(owner=seat).exists():
        raise ActionRefused(f"{seat.player} is already down: lay cards off on the melds instead.")
    verdict = rules.check_going_down(round_.number, melds, game.house_rules)
    if not verdict.ok:
        raise ActionRefused(" ".join(verdict.reasons))
    laid = TableMeld.objects.bulk_create(
        TableMeld(round=round_, owner=seat, kind=meld.kind, cards=rules.format_cards(meld.cards))
        for meld in verdict.melds
    )
    hand.went_down = True
    hand.save(update_fields=["went_down"])
    if _no_discard(game, round_):
        return _went_out(game, round_, seat, user, melds=laid)
    shown = " | ".join(meld.cards for meld in laid)
    return _event(
        game,
        round_,
        Event.Kind.WENT_DOWN,
        user,
        f"{seat.player} went down: {shown}",
        seat=seat,
        after={"melds": [meld.pk for meld in laid]},
    )


def _meld_extend(game: Game, meld: TableMeld, cards: list[rules.Card]) -> tuple[str, str]:
    """Lay cards off on a table meld, or refuse with the rules' reasons. Returns (before, after)."""
    verdict = rules.check_lay_off(cards, meld.card_list, game.house_rules)
    if not verdict.ok:
        raise ActionRefused(" ".join(verdict.reasons))
    before = meld.cards
    meld.cards = rules.format_cards(verdict.melds[0].cards)
    meld.save(update_fields=["cards"])
    return before, meld.cards


@table_write
def meld_lay_off(*, game: Game, seat: Seat, meld: TableMeld, cards: list[rules.Card], user):
    """A player who has gone down adds cards to a meld on the table."""
    round_ = _current_round(game)
    if meld.round_id != round_.pk:
        raise ActionRefused("That meld is not on the table in this round.")
    if not _hand(round_, seat).went_down:
        raise ActionRefused(f"{seat.player} has not gone down yet, so cannot lay off.")
    before, after = _meld_extend(game, meld, cards)
    return _event(
        game,
        round_,
        Event.Kind.LAID_OFF,
        user,
        f"{seat.player} laid off {rules.format_cards(cards)} on {meld.owner.player}'s {before}",
        seat=seat,
        before={"meld": meld.pk, "cards": before},
        after={"meld": meld.pk, "cards": after},
    )


@table_write
def shanghai_claim_onto(
    *, game: Game, seat: Seat, discarder: Seat, meld: TableMeld, card: rules.Card, user
) -> Event:
    """A Shanghai claim that lays the discard off on a table meld, recorded on that meld."""
    round_ = _current_round(game)
    if meld.round_id != round_.pk:
        raise ActionRefused("That meld is not on the table in this round.")
    if discarder == seat:
        raise ActionRefused("A player cannot claim their own discard.")
    before, after = _meld_extend(game, meld, [card])
    return _event(
        game,
        round_,
        Event.Kind.SHANGHAI_CLAIM,
        user,
        f"{seat.player} claimed {discarder.player}'s {card} onto {before}: Shanghai!",
        seat=seat,
        other_seat=discarder,
        before={"meld": meld.pk, "cards": before},
        after={"meld": meld.pk, "cards": after},
    )


@transaction.atomic
def check_record(
    *,
    game: Game,
    round_: Round,
    question: str,
    cards: str,
    target,
    answer,
    user,
    photo: Photo | None = None,
) -> Check:
    """Keep a question asked at the table about `round_`, and the checker's answer, in the
    round's history, with the photo the cards were read from."""
    if _current_round(game).pk != round_.pk:
        raise ActionRefused(
            f"Contract {round_.number} was scored on another tablet a moment ago, so this "
            "question was not kept: ask it again for the contract being played now."
        )
    check = Check.objects.create(
        game=game,
        round=round_,
        question=question,
        cards=cards,
        target=target,
        ok=answer.ok,
        answer=answer.text,
        created_by=user,
    )
    if photo is not None:
        photo.check_asked = check
        photo.save(update_fields=["check_asked"])
    return check


# Photos


def photo_read(*, photo) -> Photo:
    """Read the cards in a photo without keeping it: the standalone checker's photos belong to no
    table, so neither they nor their file are stored. The Photo returned is never saved."""
    try:
        found = read_cards(photo.content)
    except UnreadableImage:
        raise ActionRefused("That photo could not be read; please take it again.") from None
    detections = [
        {"card": card.card, "confidence": round(card.confidence, 3), "box": list(card.box)}
        for card in found
    ]
    return Photo(width=photo.width, height=photo.height, detections=detections)


def photo_record(*, game: Game, photo, user) -> Photo:
    """Read the cards in a photo taken at the table and keep the photo with the round.

    Reading takes about a second, so it happens before any transaction: the table's other
    tablets write meanwhile. The file is written before its row, and removed again if the row
    cannot be kept (the round was scored meanwhile, say), so no file is left without its row.
    """
    kept = photo_read(photo=photo)
    kept.game = game
    kept.created_by = user
    kept.image.save(f"table{game.pk}.jpg", ContentFile(photo.content), save=False)
    try:
        with transaction.atomic():
            kept.round = _current_round(game)
            kept.save()
    except BaseException:
        kept.image.delete(save=False)
        raise
    return kept


@transaction.atomic
def photo_delete(*, photo: Photo) -> None:
    """Delete a photo, and its file once the row's deletion is committed (a deletion rolled
    back keeps both); the check it belonged to stays in the history."""
    storage, name = photo.image.storage, photo.image.name
    photo.delete()
    transaction.on_commit(lambda: storage.delete(name))
