"""The going-down search: a depth-first branch-and-bound over candidate melds.

The search works on counts of cards rather than on cards, so the two copies of a card in two
decks are never tried twice. It visits the distinct natural cards in order and, at each, either
opens melds anchored there (see candidates.py) or, when looking for the best going-down, leaves
the remaining copies in hand. A "cover" must use every card; otherwise the search keeps the
going-down that sheds the most points, the first found among equals.

It stays fast on the largest hands by giving up early, never by guessing: a state it gives up
on holds no answer (or none better than the best found), so it returns exactly what the plain
search would. It gives up on a state
- that the counting bounds of bounds.py rule out;
- seen before by another path: the melds chosen matter only through the cards they leave and
  through those that can still conflict with a later meld, so such states are the same; a
  cover remembers the states that failed, the best-going-down search the most each can shed.

Some hands at the house-rule bounds (four decks, eight jokers, four jokers a meld) still hold
more arrangements than a request can afford, so every search counts its steps against the
question's budget (budget.py) and stops when it is spent: then it keeps what it found (a cover
found is an answer; the best going-down found so far is legal) and says it gave up, and the
verdicts never turn that into a "no".
"""

from __future__ import annotations

from ..cards import JOKER, Card
from ..contracts import Contract
from ..house_rules import HouseRules
from ..melds import ace_frames, meld_options
from .bounds import Prospects, prospects, usable_jokers
from .budget import PROSPECT_STEPS, VISIT_STEPS, Budget, BudgetSpent
from .candidates import candidates
from .plans import Plan, card_of, conflict, is_joker_key, key_of, plan_of


class Search:
    """One search for a going-down of `contract` in `hand`; run() answers it."""

    def __init__(
        self,
        hand: list[Card],
        contract: Contract,
        rules: HouseRules,
        cover: bool,
        budget: Budget | None = None,
    ):
        self.rules = rules
        self.budget = Budget() if budget is None else budget
        self.gave_up = False  # the budget ran out before the search was over
        self.cover = cover
        self.books_needed = contract.books
        self.runs_needed = contract.runs
        # A no-discard contract is always exactly its melds.
        self.extra = rules.extra_melds_allowed and not contract.no_discard
        self.keep_one = (
            not cover and rules.must_discard_to_go_out and not contract.no_discard
        )  # a card must stay in hand to discard
        self.first_only = False  # stop at the first going-down (only whether one exists)
        self.joker_points = rules.point_value(JOKER)
        self.count: dict[object, int] = {}
        self.key_points: dict[object, int] = {}
        for card in hand:
            key = key_of(card)
            self.count[key] = self.count.get(key, 0) + 1
            self.key_points[key] = rules.point_value(card.rank)
        self.keys = sorted(key for key in self.count if not is_joker_key(key))
        jokers = [key for key in self.count if is_joker_key(key)]
        # The cards a meld anchored at a natural card may hold besides it: its suit from its
        # rank up, its rank from its suit on, and jokers.
        self.near = {
            anchor: [
                key
                for key in self.keys
                if (key[1] == anchor[1] and key[0] >= anchor[0])
                or (key[0] == anchor[0] and key[1] >= anchor[1])
            ]
            + jokers
            for anchor in self.keys
        }
        self.remaining_cards = len(hand)  # not melded (set-aside cards included)
        self.jokers_left = sum(1 for card in hand if card.is_joker)
        self.naturals_left = len(hand) - self.jokers_left  # neither melded nor set aside
        self.available_points = sum(self.key_points[k] * n for k, n in self.count.items())
        self.frames = ace_frames(rules)
        # The positions a card may take in a run, as bits: an ace 14, and 1 when aces may be low.
        self.ace_bits = 1 << 14 | (2 if any(low == 1 for low, _, _ in self.frames) else 0)
        self.position_bits = {
            key: self.ace_bits if key[0] == 14 else 1 << key[0] for key in self.keys
        }
        self.chosen: list[Plan] = []
        self.books_used = 0
        self.runs_used = 0
        self.shed = 0
        self.enforce = True
        self.best: list[Plan] | None = None
        self.best_points = -1
        self.done = False
        self.failed: set[tuple] = set()
        self.ceiling: dict[tuple, int] = {}
        self.candidate_memo: dict[tuple, list[Plan]] = {}
        self.prospect_memo: dict[tuple, Prospects] = {}

    def run(self, enforce: bool = True) -> list[Plan] | None:
        """The plans of the going-down found, or None; `enforce` off ignores the conflicts
        between melds (same-rank books, consecutive runs), to explain a refusal."""
        self.enforce = enforce
        self.best, self.best_points, self.done = None, -1, False
        self.failed, self.ceiling, self.prospect_memo = set(), {}, {}
        try:
            self._visit(0)
        except BudgetSpent:
            # The counts are left mid-search: this search is over. What it found stands (a
            # cover found is an answer), but "none" or "the best" is no longer known.
            self.gave_up = True
        return self.best

    def leftover_cards(self) -> list[Card]:
        """The cards still counted."""
        cards = []
        for key, n in self.count.items():
            cards.extend([card_of(key)] * n)
        return cards

    # --- the search -------------------------------------------------------------------------

    def _visit(self, index: int) -> None:
        self.budget.spend(VISIT_STEPS)
        keys, count = self.keys, self.count
        while index < len(keys) and count[keys[index]] == 0:
            index += 1
        if self._hopeless():
            return
        books_left = max(0, self.books_needed - self.books_used)
        runs_left = max(0, self.runs_needed - self.runs_used)
        if self.cover and not self.extra and books_left + runs_left == 1 and self.remaining_cards:
            self._last_meld(books_left == 1)
            return
        if index == len(keys):
            self._finish()
            return
        state = self._state(index)
        if self.cover:
            if state in self.failed:
                return
        elif self.shed + self.ceiling.get(state, self.available_points) <= self.best_points:
            return
        if self._out_of_reach(books_left, runs_left):
            return
        shed = self.shed
        key = keys[index]
        self._choose(index, key, candidates(self, key), 0)
        if self.cover:
            if not self.done:
                self.failed.add(state)
        else:
            # Every going-down below this state sheds at most best_points in all: whatever
            # was not found was cut for not beating it. The bound holds for any path here.
            self.ceiling[state] = min(
                self.ceiling.get(state, self.available_points), self.best_points - shed
            )

    def _hopeless(self) -> bool:
        """Whether counting the cards and jokers left rules out any answer (any better answer,
        when looking for the best) below here."""
        rules = self.rules
        books_left = max(0, self.books_needed - self.books_used)
        runs_left = max(0, self.runs_needed - self.runs_used)
        jokers = usable_jokers(self)
        if self.cover:
            if self.remaining_cards < books_left * rules.min_book + runs_left * rules.min_run:
                return True
            if self._melds_full() and self.remaining_cards:
                return True
            if jokers < self.jokers_left:
                return True  # a joker no meld can take
        elif (
            self.shed + self.available_points - (self.jokers_left - jokers) * self.joker_points
            <= self.best_points
        ):
            return True
        # The melds still needed hold a few jokers each at most; the rest must be naturals.
        cards = books_left * rules.min_book + runs_left * rules.min_run
        needed_jokers = min(self.jokers_left, rules.jokers_per_meld) * (books_left + runs_left)
        return self.naturals_left + min(jokers, needed_jokers) < cards

    def _out_of_reach(self, books_left: int, runs_left: int) -> bool:
        """Whether the books and runs the cards left could make rule out any (better) answer."""
        if self.cover and not books_left and not runs_left:
            return False
        taken = ()
        if self.enforce and self.rules.same_rank_books_banned:
            taken = tuple(sorted(plan.value for plan in self.chosen if plan.kind == "book"))
        memo_key = (tuple(self.count.values()), self.books_used, self.runs_used, taken)
        ahead = self.prospect_memo.get(memo_key)
        if ahead is None:
            self.budget.spend(PROSPECT_STEPS)
            ahead = self.prospect_memo[memo_key] = prospects(self)
        if ahead.books < books_left or ahead.runs < runs_left:
            return True
        return not self.cover and (
            self.shed + ahead.points + usable_jokers(self) * self.joker_points <= self.best_points
        )

    def _melds_full(self) -> bool:
        return not self.extra and self.books_used + self.runs_used == (
            self.books_needed + self.runs_needed
        )

    def _state(self, index: int) -> tuple:
        """What decides the rest of the search from `index` on, so that a state seen before
        by another path need not be searched again."""
        return (
            index,
            tuple(self.count.values()),
            self.books_used,
            self.runs_used,
            self._bindings(index),
            # Cards set aside stay in hand: one of them may be the card kept to discard.
            self.keep_one and self.remaining_cards > self.naturals_left + self.jokers_left,
        )

    def _bindings(self, index: int) -> tuple:
        """The chosen melds that can still conflict with a meld anchored at `index` or later.

        A later book has a rank at least the anchor's; a later run starts at most jokers_per_meld
        positions (and a low ace) below its anchor, or at the low ace itself when the anchor is
        an ace. Chosen melds out of their reach no longer matter.
        """
        if not self.enforce or not self.chosen:
            return ()
        value = self.keys[index][0]
        lowest_start = value - self.rules.jokers_per_meld - 1
        if value == 14 and self.ace_bits & 2:
            lowest_start = 1
        bound = []
        for plan in self.chosen:
            if plan.kind == "book":
                if self.rules.same_rank_books_banned and plan.value >= value:
                    bound.append(("book", plan.value, -1, plan.value))
            elif plan.end + 1 >= lowest_start:
                bound.append(("run", plan.value, plan.suit, plan.end))
        return tuple(sorted(bound))

    def _choose(self, index: int, key: tuple, plans: list[Plan], start: int) -> None:
        count = self.count
        for position in range(start, len(plans)):
            self.budget.spend()
            plan = plans[position]
            if not self._fits(plan) or not self._allowed(plan):
                continue
            self._apply(plan, 1)
            if count[key] > 0:
                self._choose(index, key, plans, position)
            else:
                self._visit(index + 1)
            self._apply(plan, -1)
            if self.done:
                return
        if not self.cover and not self.done:
            left = count[key]
            count[key] = 0
            self.available_points -= left * self.key_points[key]
            self.naturals_left -= left
            self._visit(index + 1)
            count[key] = left
            self.available_points += left * self.key_points[key]
            self.naturals_left += left

    def _fits(self, plan: Plan) -> bool:
        count = self.count
        if plan.kind == "book":
            if not self.extra and self.books_used >= self.books_needed:
                return False
        elif not self.extra and self.runs_used >= self.runs_needed:
            return False
        return all(count.get(key, 0) >= n for key, n in plan.uses)

    def _allowed(self, plan: Plan) -> bool:
        if not self.enforce:
            return True
        return conflict(plan, self.chosen, self.rules) is None

    def _apply(self, plan: Plan, sign: int) -> None:
        count = self.count
        cards = jokers = 0
        for key, n in plan.uses:
            count[key] -= sign * n
            cards += n
            if is_joker_key(key):
                jokers += n
        self.remaining_cards -= sign * cards
        self.jokers_left -= sign * jokers
        self.naturals_left -= sign * (cards - jokers)
        self.available_points -= sign * plan.points
        self.shed += sign * plan.points
        if plan.kind == "book":
            self.books_used += sign
        else:
            self.runs_used += sign
        if sign > 0:
            self.chosen.append(plan)
        else:
            self.chosen.pop()

    def _finish(self) -> None:
        if self.cover and self.remaining_cards:
            return
        if self.extra:
            if self.books_used < self.books_needed or self.runs_used < self.runs_needed:
                return
        elif self.books_used != self.books_needed or self.runs_used != self.runs_needed:
            return
        if self.keep_one and self.remaining_cards == 0:
            return
        if self.shed > self.best_points:
            self.best_points = self.shed
            self.best = list(self.chosen)
            if self.cover or self.first_only:
                self.done = True

    def _last_meld(self, book: bool) -> None:
        """In a cover, the cards still unused must make the one missing meld exactly."""
        naturals = [key for key in self.keys if self.count[key]]
        # Cheap refusals first: a book is of one rank, a run of one suit.
        if len({key[0] if book else key[1] for key in naturals}) > 1:
            return
        cards = self.leftover_cards()
        self.budget.spend(len(cards))
        for meld in meld_options(cards, self.rules):
            if (meld.kind == "book") != book:
                continue
            plan = plan_of(meld, self.count, self.key_points)
            if self.enforce and conflict(plan, self.chosen, self.rules) is not None:
                continue
            self.chosen.append(plan)
            self.best = list(self.chosen)
            self.best_points = sum(p.points for p in self.chosen)
            self.chosen.pop()
            self.done = True
            return
