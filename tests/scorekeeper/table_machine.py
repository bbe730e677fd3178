"""The table's state machine: random sequences of every action a table has, checked after each
step (tests/scorekeeper/test_table_state.py runs it; test_round_trip.py gives its club a history
around it and exports the club at the end).

A Hypothesis state machine drives the services the way tablets do (May I?, going down, melds,
lay-offs, Shanghai calls, going out, scores, edits, undo, stale screens) under several house
rules and every known game (rules.VARIANTS), and keeps its own model of the scores. After every
step the table must be one a real game can reach, its totals must be the model's, a refused
action must have changed nothing, and undo must give back exactly the table as it was before the
action it takes back.
"""

import copy

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import rules
from scorekeeper import selectors, services
from scorekeeper.models import Game, Hand, Round, TableMeld
from tests.factories import make_club, make_player

HOUSE_RULES = {
    "seed": rules.HouseRules(),
    "three contracts": rules.HouseRules(
        contracts=[(2, 0, False), (1, 1, False), (0, 2, True)], cards_dealt=[11, 11, 12]
    ),
    "bonuses": rules.HouseRules(may_i_limit=3, shanghai_bonus=10, rummy_bonus=True),
}
# The known games (rules.VARIANTS) but the seed's own, each a table started from the game itself
# as the new-table page starts it: its rules copied, no profile of the club's.
VARIANTS = {
    f"variant {variant.key}": variant.house_rules
    for variant in rules.VARIANTS
    if variant.house_rules != rules.HouseRules()
}
HOUSE_RULES |= VARIANTS
# A legal going-down for each contract these rules play.
GOING_DOWN = {
    rules.Contract(2, 0): "8H 8S 8D | KC KD KS",
    rules.Contract(1, 1): "8H 8S 8D | 4C 5C 6C 7C",
    rules.Contract(0, 2): "4C 5C 6C 7C | 9H 10H JH QH",
    rules.Contract(3, 0): "8H 8S 8D | KC KD KS | 5H 5S 5D",
    rules.Contract(2, 1): "8H 8S 8D | KC KD KS | 4C 5C 6C 7C",
    rules.Contract(1, 2): "8H 8S 8D | 4C 5C 6C 7C | 9H 10H JH QH",
    rules.Contract(0, 2, True): "4C 5C 6C 7C | 9H 10H JH QH",
    rules.Contract(0, 3, True): "3H 4H 5H 6H | 8S 9S 10S JS | 2D 3D 4D 5D",
}
# Cards that fit some of those melds, and some that fit none.
LAY_OFFS = ["8C", "KH", "3C", "8C", "KH", "7H", "2C", "JK", "5C"]
HANDS = ["K 7", "A", "JK 2 2", "10 J Q", "5", "K K K K K K K K K", "2 3 4 5 6 7 8 9 10 J"]


def table_rows(game: Game) -> dict:
    """Every row that makes up the table's state, but its history and version counter."""
    game.refresh_from_db()
    return {
        "finished": game.finished_at,
        "rounds": list(
            Round.objects.filter(game=game)
            .order_by("pk")
            .values_list("pk", "number", "went_out", "rummy", "finished_at")
        ),
        "hands": list(
            Hand.objects.filter(round__game=game)
            .order_by("pk")
            .values_list("pk", "seat", "may_i_used", "may_i_limit", "went_down", "cards", "points")
        ),
        "melds": list(
            TableMeld.objects.filter(round__game=game)
            .order_by("pk")
            .values_list("pk", "round", "owner", "kind", "cards")
        ),
    }


class Table(RuleBasedStateMachine):
    name = "seed"  # the house rules played, of HOUSE_RULES: each test sets its own

    @initialize(players=st.integers(3, 5))
    def start(self, players):
        name = self.name
        house_rules = HOUSE_RULES[name]
        players = min(players, house_rules.max_players)
        club = make_club()
        profile = None
        if name not in VARIANTS:
            profile = services.profile_save(
                user=club.owner(), club=club, name=name, house_rules=house_rules
            )
        self.game = services.game_start(
            club=club,
            user=club.owner(),
            players=[make_player(club) for _ in range(players)],
            first_dealer=0,
            season=club.seasons.get(),
            profile=profile,
            house_rules=house_rules,
        )
        self.house_rules = house_rules
        self.seats = list(self.game.seats.order_by("position"))
        # The model: each finished round's scores by seat id, and the round being played.
        self.model = {"scored": {}, "claims": {}, "rummy": False}
        self.undo_stack = []  # (table rows, model) before each action that stands

    # Helpers

    def current(self) -> Round | None:
        return self.game.rounds.filter(finished_at__isnull=True).first()

    def apply(self, service, **kwargs) -> bool:
        """Call a service as a tablet would; a refusal must leave everything as it was."""
        before, model = table_rows(self.game), copy.deepcopy(self.model)
        version, events = self.game.version, self.game.events.count()
        try:
            service(game=self.game, version=version, user=self.game.created_by, **kwargs)
        except services.ActionRefused:
            assert table_rows(self.game) == before
            assert (self.game.version, self.game.events.count()) == (version, events)
            return False
        assert self.game.events.count() == events + 1
        assert self.game.version == version + 1
        self.undo_stack.append((before, model))
        return True

    def seat(self, index):
        return self.seats[index % len(self.seats)]

    # Actions

    @rule(index=st.integers(0, 4))
    def may_i(self, index):
        self.apply(services.may_i_spend, seat=self.seat(index))

    @rule(index=st.integers(0, 4))
    def went_down(self, index):
        self.apply(services.hand_mark_down, seat=self.seat(index))

    @rule(index=st.integers(0, 4))
    def melds_recorded(self, index):
        round_ = self.current()
        if round_ is None:
            return
        melds = rules.parse_melds(GOING_DOWN[self.house_rules.contract(round_.number)])
        self.apply(services.melds_record, seat=self.seat(index), melds=melds)

    @rule(index=st.integers(0, 4), card=st.sampled_from(LAY_OFFS), which=st.integers(0, 9))
    def laid_off(self, index, card, which):
        melds = list(TableMeld.objects.filter(round=self.current()).order_by("pk"))
        if melds:
            meld = melds[which % len(melds)]
            cards = rules.parse_cards(card)
            self.apply(services.meld_lay_off, seat=self.seat(index), meld=meld, cards=cards)

    @rule(index=st.integers(0, 4), discarder=st.integers(0, 5))
    def shanghai(self, index, discarder):
        seat = self.seat(index)
        other = None if discarder == 5 else self.seat(discarder)
        claim = other not in (None, seat)
        if self.apply(services.shanghai_record, seat=seat, discarder=other) and claim:
            self.model["claims"][seat.pk] = self.model["claims"].get(seat.pk, 0) + 1

    @rule(
        index=st.integers(0, 4),
        discarder=st.integers(0, 4),
        card=st.sampled_from(LAY_OFFS),
        which=st.integers(0, 9),
    )
    def shanghai_onto_a_meld(self, index, discarder, card, which):
        melds = list(TableMeld.objects.filter(round=self.current()).order_by("pk"))
        if not melds:
            return
        seat = self.seat(index)
        claimed = self.apply(
            services.shanghai_claim_onto,
            seat=seat,
            discarder=self.seat(discarder),
            meld=melds[which % len(melds)],
            card=rules.parse_cards(card)[0],
        )
        if claimed:
            self.model["claims"][seat.pk] = self.model["claims"].get(seat.pk, 0) + 1

    @rule(index=st.integers(0, 4), rummy=st.booleans())
    def went_out(self, index, rummy):
        if self.apply(services.round_record_went_out, seat=self.seat(index), rummy=rummy):
            self.model["rummy"] = rummy

    def entries(self, data, round_):
        """Score entries from drawn hands (cards or points), and the penalties they make."""
        entries, penalties = {}, {}
        for seat, (text, as_points) in zip(self.seats, data, strict=False):
            cards = rules.parse_ranks(text)
            points = rules.penalty_points(cards, self.house_rules)
            entry = rules.HandEntry(points=points) if as_points else None
            entries[seat.pk] = entry or rules.HandEntry(cards=tuple(cards))
            penalties[seat.pk] = 0 if seat.pk == round_.went_out_id else points
        return entries, penalties

    def scores(self, penalties, *, rummy, claims):
        return rules.round_scores(penalties, self.house_rules, rummy=rummy, shanghai_claims=claims)

    hands = st.lists(st.tuples(st.sampled_from(HANDS), st.booleans()), min_size=5, max_size=5)

    @rule(data=hands)
    def scored(self, data):
        round_ = self.current()
        if round_ is None:
            return
        entries, penalties = self.entries(data, round_)
        if self.apply(services.round_score, entries=entries):
            model = self.model
            model["scored"][round_.number] = {
                "scores": self.scores(penalties, rummy=model["rummy"], claims=model["claims"]),
                "claims": model["claims"],
                "rummy": model["rummy"],
            }
            model["claims"], model["rummy"] = {}, False

    @precondition(lambda self: self.model["scored"])
    @rule(data=hands, number=st.integers(1, 7), out=st.integers(0, 4), rummy=st.booleans())
    def edited(self, data, number, out, rummy):
        round_ = self.game.rounds.filter(number=number, finished_at__isnull=False).first()
        if round_ is None:
            return
        round_.went_out = self.seat(out)
        entries, penalties = self.entries(data, round_)
        round_.refresh_from_db()
        if self.apply(
            services.round_edit,
            round_=round_,
            entries=entries,
            went_out=self.seat(out),
            rummy=rummy,
        ):
            kept = self.model["scored"][number]
            kept["scores"] = self.scores(penalties, rummy=rummy, claims=kept["claims"])
            kept["rummy"] = rummy

    @rule()
    def undo(self):
        self.game.refresh_from_db()
        version = self.game.version
        try:
            services.action_undo(game=self.game, version=version, user=self.game.created_by)
        except services.ActionRefused as refusal:
            assert not self.undo_stack or self.undo_may_be_refused(refusal)
            return
        before, self.model = self.undo_stack.pop()
        assert table_rows(self.game) == before

    def undo_may_be_refused(self, refusal: services.ActionRefused) -> bool:
        """Whether an undo may be refused while actions stand: never, at a table only this
        machine plays (a machine that adds photos or checks says when)."""
        return False

    @precondition(lambda self: self.game.version > 0)
    @rule(index=st.integers(0, 4))
    def stale_tap(self, index):
        self.game.refresh_from_db()
        before, version = table_rows(self.game), self.game.version
        with pytest.raises(services.StaleState):
            services.may_i_spend(
                game=self.game,
                version=version - 1,
                seat=self.seat(index),
                user=self.game.created_by,
            )
        assert table_rows(self.game) == before
        assert Game.objects.get(pk=self.game.pk).version == version

    # Invariants

    @invariant()
    def totals_are_the_models(self):
        board = selectors.game_board(self.game)
        for line in board.lines:
            expected = sum(
                kept["scores"].get(line.seat.pk, 0) for kept in self.model["scored"].values()
            )
            assert line.total == expected, (line.seat, line.total, expected)

    @invariant()
    def the_table_is_one_a_game_can_reach(self):
        rounds = list(self.game.rounds.order_by("number"))
        open_rounds = [round_ for round_ in rounds if round_.finished_at is None]
        assert len(open_rounds) <= 1
        assert len(rounds) <= len(self.house_rules.contracts)
        assert (self.game.finished_at is None) == bool(open_rounds)
        assert [round_.number for round_ in rounds] == list(range(1, len(rounds) + 1))
        for round_ in rounds:
            hands = {hand.seat_id: hand for hand in round_.hands.all()}
            assert len(hands) == len(self.seats)
            if round_.finished_at is not None:
                assert round_.went_out_id is not None
                assert all(hand.points is not None for hand in hands.values())
                assert hands[round_.went_out_id].points == 0
            else:
                assert all(hand.points is None for hand in hands.values())
            if round_.went_out_id is not None:
                assert hands[round_.went_out_id].went_down
            for hand in hands.values():
                assert 0 <= hand.may_i_used <= hand.may_i_limit == self.house_rules.may_i_limit
            owners = set(round_.melds.values_list("owner", flat=True))
            assert all(hands[owner].went_down for owner in owners)
            if self.house_rules.contract(round_.number).no_discard and owners:
                assert owners == {round_.went_out_id}
            assert not round_.rummy or round_.went_out_id is not None
