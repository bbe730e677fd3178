"""A table's board: what its page, its TV and its game over show, built from what was read in a
fixed number of queries (`game_board`), or from a tap's `Table` (`table_board`)."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.db.models import Count

import rules
from rules.standings import places
from scorekeeper.models import Event, Game, Hand, Round, Seat, TableMeld

from .tables import Table


@dataclass(frozen=True)
class ScoreCell:
    """A seat's score for one finished contract, and what it tells: whether the seat went out
    (in one turn or not), how many discards it claimed with a Shanghai and how many of its own
    discards it protected with one."""

    points: int | None
    went_out: bool = False
    rummy: bool = False
    shanghai_claims: int = 0
    shanghai_protects: int = 0


@dataclass
class SeatLine:
    """One player's line on the scoreboard and round screen."""

    seat: Seat
    points: list[int | None] = field(default_factory=list)
    cells: list[ScoreCell] = field(default_factory=list)  # the points above, with their story
    total: int = 0
    place: int = 0
    rounds_won: int = 0
    may_i_used: int = 0
    # A Shanghai claim takes another's discard; a Shanghai protect keeps one's own from being
    # taken (RULES.md, "Shanghai"): two counts, never added up into one.
    shanghai_claims: int = 0
    shanghai_protects: int = 0
    hand: Hand | None = None
    is_dealer: bool = False
    plays_first: bool = False
    # This round only: the melds the seat laid, its Shanghai claims and protects.
    melds: list[TableMeld] = field(default_factory=list)
    round_shanghai_claims: int = 0
    round_shanghai_protects: int = 0

    @property
    def may_i_left(self) -> int:
        return self.hand.may_i_limit - self.hand.may_i_used if self.hand else 0

    @property
    def coins(self) -> list[bool]:
        """One coin per May I? of the round's limit: True while it can still be spent."""
        if not self.hand:
            return []
        return [True] * self.may_i_left + [False] * self.hand.may_i_used


@dataclass
class Board:
    """Everything the table's page shows: the current round, the scoreboard and recent history."""

    game: Game
    house_rules: rules.HouseRules
    rounds: list[Round]
    lines: list[SeatLine]
    current: Round | None
    contract: rules.Contract | None
    cards_dealt: int | None
    dealer: Seat | None
    first_player: Seat | None
    last_action: str | None  # what the newest action still standing did, as the history says
    melds: list[TableMeld]  # on the table in the current round
    claims: dict[int, int]  # the current round's Shanghai claims not taken back, by seat id

    @property
    def contract_count(self) -> int:
        return len(self.house_rules.contracts)

    @property
    def scoring(self) -> bool:
        return self.current is not None and self.current.went_out_id is not None

    @property
    def card_points(self) -> dict[str, int]:
        """Each way a card may be typed for scoring, to its points at this table: what the
        keypad's live total looks cards up in (the server counts them again on save)."""
        points = dict(self.house_rules.points)
        return {text: points[rank] for text, rank in rules.rank_spellings().items()}

    @property
    def leaders(self) -> list[SeatLine]:
        return [line for line in self.lines if line.place == 1 and self.rounds_played]

    @property
    def rounds_played(self) -> int:
        return sum(1 for round_ in self.rounds if round_.finished_at)

    @property
    def hands(self) -> list[Hand]:
        """The current round's hands, in seat order."""
        return [line.hand for line in self.lines if line.hand]


def round_points(
    round_: Round, hands: dict[int, Hand], house_rules: rules.HouseRules, claims: dict | None
) -> dict[int, int]:
    """A finished round's score by seat id as the scoreboard counts it, bonuses included;
    `claims` are the round's Shanghai claims by seat id."""
    return rules.round_scores(
        {seat_id: hand.points or 0 for seat_id, hand in hands.items()},
        house_rules,
        rummy=round_.rummy,
        shanghai_claims=claims,
    )


def game_board(game: Game) -> Board:
    """The table's state in six queries, however many rounds and players it has."""
    seats = list(game.seats.select_related("player"))
    rounds = list(game.rounds.prefetch_related("hands"))
    newest = last_action(game)
    calls = (
        game.events.filter(
            kind__in=[Event.Kind.SHANGHAI_CLAIM, Event.Kind.SHANGHAI_PROTECT],
            undone_by__isnull=True,
        )
        .values_list("round", "seat", "kind")
        .annotate(calls=Count("pk"))
    )
    return _board(
        game,
        seats=seats,
        rounds=rounds,
        hands={round_.pk: {hand.seat_id: hand for hand in round_.hands.all()} for round_ in rounds},
        calls=calls,
        last_action=newest,
        melds_of=table_melds,
    )


def finished_board(game: Game, *, seats: list[Seat], rounds: list[Round], hands) -> Board:
    """A finished table's board from rows already in hand, with no Shanghai call and no query:
    `hands` by round id, then seat id (the bench of the standings, which writes its tables in
    bulk, adds them up so)."""
    return _board(
        game,
        seats=seats,
        rounds=rounds,
        hands=hands,
        calls=(),
        last_action=None,
        melds_of=lambda round_: [],
    )


def last_action(game: Game) -> str | None:
    """What the newest action still standing did, as the history says (an undo is none)."""
    return (
        game.events.filter(undone_by__isnull=True)
        .exclude(kind=Event.Kind.UNDO)
        .order_by("-pk")
        .values_list("description", flat=True)
        .first()
    )


def _board(
    game: Game,
    *,
    seats: list[Seat],
    rounds: list[Round],
    hands: dict[int, dict[int, Hand]],
    calls: Iterable[tuple[int, int, str, int]],
    last_action: str | None,
    melds_of: Callable[[Round], list[TableMeld]],
) -> Board:
    """The board from what was read: `hands` by round id, then seat id; `calls` the Shanghai
    calls not taken back, counted by (round id, seat id, kind); `melds_of` the current round's
    melds."""
    house_rules = game.house_rules
    lines = {seat.pk: SeatLine(seat=seat) for seat in seats}
    claims = {}  # by round id, then seat id: the claims a Shanghai bonus rewards
    protects = {}  # by round id, then seat id
    current = next((round_ for round_ in rounds if round_.finished_at is None), None)
    for round_id, seat_id, kind, count in calls:
        line = lines[seat_id]
        this_round = current is not None and round_id == current.pk
        if kind == Event.Kind.SHANGHAI_CLAIM:
            claims.setdefault(round_id, {})[seat_id] = count
            line.shanghai_claims += count
            line.round_shanghai_claims += count if this_round else 0
        else:
            protects.setdefault(round_id, {})[seat_id] = count
            line.shanghai_protects += count
            line.round_shanghai_protects += count if this_round else 0
    for round_ in rounds:
        round_hands = hands[round_.pk]
        scores = {}
        if round_.finished_at:
            scores = round_points(round_, round_hands, house_rules, claims.get(round_.pk))
        for seat_id, line in lines.items():
            hand = round_hands.get(seat_id)
            line.may_i_used += hand.may_i_used if hand else 0
            if round_.finished_at:
                went_out = round_.went_out_id == seat_id
                line.points.append(scores.get(seat_id))
                line.cells.append(
                    ScoreCell(
                        points=scores.get(seat_id),
                        went_out=went_out,
                        rummy=went_out and round_.rummy,
                        shanghai_claims=claims.get(round_.pk, {}).get(seat_id, 0),
                        shanghai_protects=protects.get(round_.pk, {}).get(seat_id, 0),
                    )
                )
                line.total += scores.get(seat_id, 0)
                line.rounds_won += went_out
            elif round_ is current:
                line.hand = hand

    standings = places(
        {seat_id: line.total for seat_id, line in lines.items()},
        tie_break=house_rules.tie_break,
        rounds_won={seat_id: line.rounds_won for seat_id, line in lines.items()},
        may_i_used={seat_id: line.may_i_used for seat_id, line in lines.items()},
    )
    for standing in standings:
        lines[standing.player].place = standing.place

    contract = dealer = first_player = cards_dealt = None
    melds = []
    if current is not None:
        contract = house_rules.contracts[current.number - 1]
        cards_dealt = house_rules.cards_dealt[current.number - 1]
        position = rules.dealer_seat(game.first_dealer, current.number, len(seats))
        dealer = seats[position]
        first_player = seats[rules.first_player_seat(position, len(seats))]
        lines[dealer.pk].is_dealer = True
        lines[first_player.pk].plays_first = True
        if current.went_out_id:
            current.went_out = lines[current.went_out_id].seat  # read above, with its player
        melds = melds_of(current)
        for meld in melds:
            lines[meld.owner_id].melds.append(meld)

    return Board(
        game=game,
        house_rules=house_rules,
        rounds=rounds,
        lines=list(lines.values()),
        current=current,
        contract=contract,
        cards_dealt=cards_dealt,
        dealer=dealer,
        first_player=first_player,
        last_action=last_action,
        melds=melds,
        claims=claims.get(current.pk, {}) if current else {},
    )


def table_board(
    game: Game, table: Table, *, last_action: str | None, melds_while_scored: bool = True
) -> Board:
    """The board of a table read with `table_read` (and changed by a tap, whose description is
    then `last_action`): only the current round's melds are read, if they are not known. With
    `melds_while_scored` false, a round being scored comes without them: the round screen then
    shows the score entry, not the melds."""

    def melds_of(round_: Round) -> list[TableMeld]:
        if round_.went_out_id and not melds_while_scored:
            return []
        if round_.pk not in table.melds:
            table.melds[round_.pk] = table_melds(round_)
        return table.melds[round_.pk]

    return _board(
        game,
        seats=table.seats,
        rounds=table.rounds,
        hands=table.hands,
        calls=table.calls(),
        last_action=last_action,
        melds_of=melds_of,
    )


def table_melds(round_: Round):
    return list(round_.melds.select_related("owner__player"))
