"""Every read that spans rows: what a page shows, in a fixed number of queries."""

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import NamedTuple

from django.contrib.sessions.models import Session
from django.db import connection
from django.db.models import Count, Exists, F, Func, IntegerField, OuterRef, Subquery
from django.utils import timezone

import rules
from rules.standings import places
from scorekeeper.actions import ACTIONS
from scorekeeper.models import (
    TV_TOKEN_LENGTH,
    Club,
    Event,
    Game,
    Hand,
    Membership,
    PhotoStatus,
    Player,
    Recount,
    Round,
    Seat,
    TableLink,
    TableMeld,
)


def standings_recounting(club: Club) -> bool:
    """Whether a worker has yet to recount the club's standings (its ratings are out of date)."""
    return Recount.objects.filter(club_id=club.pk).exists()


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


class ShanghaiClaims(NamedTuple):
    """A round's Shanghai claims not taken back: how many each seat made, and how many were
    made on each seat's discards, by seat id."""

    made: Counter
    against: Counter


@dataclass
class Table:
    """A table's rounds, seats and hands, each hand with its seat's Shanghai calls, read in one
    query (`table_read`). A tap checks it and changes it as it writes (the services keep it in
    step with what they save) and its answer's board is built from it (`table_board`): nothing
    is read twice."""

    rounds: list[Round]  # by number
    seats: list[Seat]  # by position, with their players
    hands: dict[int, dict[int, Hand]]  # by round id, then seat id, in seat order
    melds: dict[int, list[TableMeld]] = field(default_factory=dict)  # by round id, once known

    @property
    def current(self) -> Round | None:
        """The round being played or scored; None once every contract is scored."""
        return next((round_ for round_ in self.rounds if round_.finished_at is None), None)

    def hands_of(self, round_: Round) -> list[Hand]:
        return list(self.hands[round_.pk].values())

    def hand(self, round_: Round, seat: Seat) -> Hand:
        return self.hands[round_.pk][seat.pk]

    def claims(self, round_: Round) -> ShanghaiClaims:
        hands = self.hands_of(round_)
        return ShanghaiClaims(
            made=Counter({hand.seat_id: hand.claims for hand in hands if hand.claims}),
            against=Counter({hand.seat_id: hand.claimed for hand in hands if hand.claimed}),
        )

    def round_dealt(self, round_: Round, hands: list[Hand]) -> None:
        """A round just dealt: its hands, and no meld on the table yet."""
        self.rounds.append(round_)
        self.hands[round_.pk] = {hand.seat_id: hand for hand in hands}
        for hand in hands:
            hand.claims = hand.protects = hand.claimed = 0
        self.melds[round_.pk] = []

    def calls(self) -> Iterator[tuple[int, int, str, int]]:
        """The Shanghai calls not taken back, counted by (round id, seat id, kind)."""
        for round_hands in self.hands.values():
            for hand in round_hands.values():
                if hand.claims:
                    yield hand.round_id, hand.seat_id, Event.Kind.SHANGHAI_CLAIM, hand.claims
                if hand.protects:
                    yield hand.round_id, hand.seat_id, Event.Kind.SHANGHAI_PROTECT, hand.protects


def _calls_counted(**match) -> Subquery:
    """How many Shanghai calls of a hand's round not taken back match `match` (OuterRefs to the
    hand): a COUNT over the whole subquery, one row even when it is 0 (no GROUP BY)."""
    calls = Event.objects.filter(round=OuterRef("round"), undone_by__isnull=True, **match)
    count = Func(F("pk"), function="COUNT", output_field=IntegerField())
    return Subquery(calls.order_by().annotate(calls=count).values("calls"))


# Built once: building its three counts took more CPU than running the whole query does.
_TABLE_HANDS = (
    Hand.objects.select_related("round", "seat__player")
    .annotate(
        claims=_calls_counted(kind=Event.Kind.SHANGHAI_CLAIM, seat=OuterRef("seat")),
        claimed=_calls_counted(kind=Event.Kind.SHANGHAI_CLAIM, other_seat=OuterRef("seat")),
        protects=_calls_counted(kind=Event.Kind.SHANGHAI_PROTECT, seat=OuterRef("seat")),
    )
    .order_by("round__number", "seat__position")
)


def table_read(game: Game) -> Table:
    """The table's rounds, seats and hands in one query, each hand with how many Shanghai
    claims its seat made (`claims`) and suffered (`claimed`) in its round, and how many of its
    own discards it protected (`protects`)."""
    hands = _TABLE_HANDS.filter(round__game=game)
    rounds, seats, by_round = {}, {}, {}
    for hand in hands:
        # One object a round and a seat, whichever hand it came with: what a tap changes on
        # them, the board then shows.
        hand.round = rounds.setdefault(hand.round_id, hand.round)
        hand.seat = seats.setdefault(hand.seat_id, hand.seat)
        by_round.setdefault(hand.round_id, {})[hand.seat_id] = hand
    if not seats:  # a table with no round dealt has its seats all the same
        seats = {seat.pk: seat for seat in game.seats.select_related("player")}
    seats = sorted(seats.values(), key=lambda seat: seat.position)
    return Table(rounds=list(rounds.values()), seats=seats, hands=by_round)


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


def round_checks(round_: Round, *, most: int = 10):
    """The newest questions asked of the meld checker in the round, with their photos."""
    return round_.checks.prefetch_related("photos")[:most]


def game_checks(game: Game):
    """Every question asked of the meld checker at the table, with its answer and photos."""
    return game.checks.select_related("round", "created_by").prefetch_related("photos")


def game_photos(game: Game):
    """The photos taken at the table, by contract and in the order taken, each with what it was
    taken for: the question asked of the meld checker, or the player whose hand it shows."""
    return (
        game.photos.filter(status=PhotoStatus.READ)
        .select_related("round", "check_asked", "seat__player", "created_by")
        .order_by("round__number", "pk")
    )


def game_history(game: Game):
    """Every event of the table, newest first, with who did it and whether it was taken back
    (an EXISTS, not a count: no GROUP BY over the joins, which PostgreSQL takes milliseconds to
    plan)."""
    return (
        game.events.select_related("round", "seat__player", "other_seat__player", "created_by")
        .annotate(undone=Exists(Event.objects.filter(undoes=OuterRef("pk"))))
        .order_by("-pk")
    )


def scores_taken_back(round_: Round) -> dict[int, tuple[str, int]]:
    """What the round's last save had entered, by seat id, if that save was undone: undoing a
    save brings score entry back as it was, not empty."""
    undone = (
        round_.events.filter(kind=Event.Kind.ROUND_SCORED, undone_by__isnull=False)
        .order_by("-pk")
        .first()
    )
    if undone is None:
        return {}
    return Event.hands_in(undone.after)


def table_melds(round_: Round):
    return list(round_.melds.select_related("owner__player"))


# What a screen that follows a table polls for: one query each, so an unchanged table costs
# the server almost nothing however many screens watch it (and none at all while the shared
# cache answers: selectors/polling.py). Written in SQL: building the same query through the ORM
# costs about 2 ms of CPU a poll, five times what the query itself takes, and every table's
# screens poll every second.
_MEMBER_VERSION = (
    f"SELECT game.version, game.club_id, session.expire_date FROM {Game._meta.db_table} game"
    f" INNER JOIN {Membership._meta.db_table} membership ON membership.club_id = game.club_id"
    f" INNER JOIN {Session._meta.db_table} session ON session.session_key = %s"
    " WHERE game.id = %s AND membership.user_id = %s AND session.expire_date > %s"
)
_TV_LINK_VERSION = (
    f"SELECT link.game_id, game.version FROM {TableLink._meta.db_table} link"
    f" INNER JOIN {Game._meta.db_table} game ON game.id = link.game_id WHERE link.token = %s"
)


def _one_row(sql: str, parameters: list) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, parameters)
        return cursor.fetchone()


class MemberPoll(NamedTuple):
    """What a member's poll of a table is answered from: the table's version and club, and
    until when the member's session stays signed in."""

    version: int
    club_id: int
    session_expires: datetime


def table_version_for_member(*, pk: int, user_id: int, session_key: str) -> MemberPoll | None:
    """The table's version (and club, and when the session expires) if the user belongs to its
    club and the session is still signed in (a logged-out or expired session has no row), else
    None."""
    row = _one_row(_MEMBER_VERSION, [session_key, pk, user_id, timezone.now()])
    if row is None:
        return None
    version, club_id, expires = row
    if timezone.is_naive(expires):  # SQLite's raw rows: UTC without its zone
        expires = timezone.make_aware(expires, UTC)
    return MemberPoll(version, club_id, expires)


def tv_link_version(token: str) -> tuple[int, int] | None:
    """(table id, version) of the table a live TV link shows, or None for any other token."""
    if len(token) != TV_TOKEN_LENGTH:
        return None
    return _one_row(_TV_LINK_VERSION, [token])


def game_for_tv(token: str) -> Game | None:
    """The table a live TV link shows, with its club; None for any other token."""
    if len(token) != TV_TOKEN_LENGTH:
        return None
    return Game.objects.select_related("club").filter(tv_link__token=token).first()


def tv_link_for(game: Game) -> TableLink | None:
    return TableLink.objects.filter(game=game).first()


def changes_since(game: Game, version: int, *, user=None, most: int = 3) -> list[str]:
    """What other screens did to the table since it was at `version`, newest first: every write
    moves the version on by one and leaves one event in the history. A score save or edit says
    who made it and which contract ("Ben saved contract 3": the player of the club that the
    member said is them, else the account's name), `user` being "you"; a tap says what the
    history says ("Ann went down")."""
    current = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
    behind = min((current or 0) - version, most)
    if behind <= 0:
        return []
    events = list(game.events.select_related("round", "created_by").order_by("-pk")[:behind])
    saved_by = {event.created_by_id for event in events if ACTIONS[event.kind].stale}
    players = {}
    if saved_by - {None}:
        players = dict(
            Player.objects.filter(club_id=game.club_id, account_id__in=saved_by).values_list(
                "account_id", "name"
            )
        )
    return [_change(event, user, players) for event in events]


def _change(event: Event, user, players: dict[int, str]) -> str:
    """One change made on another screen, in a few words; `players` names the accounts that
    are a player of the table's club."""
    stale = ACTIONS[event.kind].stale
    if not stale or event.round is None:
        return event.description
    if user is not None and event.created_by_id == user.pk:
        who = "you"
    elif event.created_by_id in players:
        who = players[event.created_by_id]
    else:
        who = event.created_by.get_username() if event.created_by else "someone"
    return stale.format(who=who, number=event.round.number)


def other_browsers(*, user, session_key: str) -> int:
    """How many other browsers are signed in to `user`'s account now (a session logged out or
    expired has no row any more)."""
    live = Session.objects.filter(expire_date__gt=timezone.now()).values("session_key")
    return user.signed_in.filter(session_key__in=live).exclude(session_key=session_key).count()
