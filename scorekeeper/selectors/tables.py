"""A table's state as a tap and a poll read it: the mutable `Table` a tap checks and changes (one
query), and the version a screen that follows the table polls for (one query each)."""

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from django.contrib.sessions.models import Session
from django.db.models import F, Func, IntegerField, OuterRef, Subquery
from django.utils import timezone

from scorekeeper.models import (
    TV_TOKEN_LENGTH,
    Event,
    Game,
    Hand,
    Round,
    Seat,
    TableLink,
    TableMeld,
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


def table_read(game: Game) -> Table:
    """The table's rounds, seats and hands in one query, each hand with how many Shanghai
    claims its seat made (`claims`) and suffered (`claimed`) in its round, and how many of its
    own discards it protected (`protects`)."""
    hands = (
        Hand.objects.filter(round__game=game)
        .select_related("round", "seat__player")
        .annotate(
            claims=_calls_counted(kind=Event.Kind.SHANGHAI_CLAIM, seat=OuterRef("seat")),
            claimed=_calls_counted(kind=Event.Kind.SHANGHAI_CLAIM, other_seat=OuterRef("seat")),
            protects=_calls_counted(kind=Event.Kind.SHANGHAI_PROTECT, seat=OuterRef("seat")),
        )
        .order_by("round__number", "seat__position")
    )
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


# What a screen that follows a table polls for: one query each, so an unchanged table costs
# the server almost nothing however many screens watch it (and none at all while the shared
# cache answers: scorekeeper/polling.py).


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
    session = Session.objects.filter(session_key=session_key, expire_date__gt=timezone.now())
    rows = (
        Game.objects.filter(pk=pk, club__memberships__user_id=user_id)
        .annotate(session_expires=Subquery(session.values("expire_date")))
        .values_list("version", "club_id", "session_expires")[:1]
    )
    # The session's expiry is NULL where it has no row, or an expired one.
    for version, club_id, expires in rows:
        return None if expires is None else MemberPoll(version, club_id, expires)
    return None


def tv_link_version(token: str) -> tuple[int, int] | None:
    """(table id, version) of the table a live TV link shows, or None for any other token."""
    if len(token) != TV_TOKEN_LENGTH:
        return None
    for row in TableLink.objects.filter(token=token).values_list("game_id", "game__version")[:1]:
        return row
    return None
