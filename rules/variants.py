"""Named variants: well-known contract rummy games as complete house rules, each with the public
page it follows. A group starts from one and may change any setting, as with any house rules.

Only games whose every stated rule the settings express exactly are here; docs/rules.md lists the
ones left out and why (runs of different lengths in one game, jokers or May I?s that depend on
the players or the contract, bonuses nothing here can score). Where a source is silent, the
seed's rule stands.

Names and descriptions are marked for the translation catalogue (`gettext_noop`, as
rules/messages.py has it); the pages translate them when they show them."""

from __future__ import annotations

from dataclasses import dataclass

from .contracts import RulesError
from .house_rules import HouseRules
from .messages import _, gettext_noop
from .settings import SETTINGS

# Penalty points by pip value (2 to 10), court cards 10, aces and jokers 15: the count of
# mainstream Contract Rummy and of Liverpool.
PIP_POINTS = {
    **{str(pip): pip for pip in range(2, 11)},
    "J": 10,
    "Q": 10,
    "K": 10,
    "A": 15,
    "JK": 15,
}

# What Contract Rummy and Liverpool Rummy share, where they differ from the seed's Shanghai: three
# or four players at two decks, aces high or low, two books of one rank allowed, three buys a
# round at one penalty card each, cards at pip value. The seven contracts are the seed's.
PIP_GAME = {
    "min_players": 3,
    "max_players": 4,
    "decks": 2,
    "ace": "high_or_low",
    "same_rank_books_banned": False,
    "may_i_limit": 3,
    "may_i_penalty_cards": 1,
    "points": PIP_POINTS,
}


@dataclass(frozen=True, slots=True)
class Variant:
    """A named starting point: a whole set of house rules and the page they follow."""

    key: str
    name: str
    description: str
    source: str
    source_url: str
    house_rules: HouseRules

    @property
    def changes(self) -> tuple[str, ...]:
        """The settings this variant sets otherwise than the seed's Shanghai, in SETTINGS
        order (docs/rules.md's table of variants lists them)."""
        seed = HouseRules().to_dict()
        played = self.house_rules.to_dict()
        return tuple(
            setting.name for setting in SETTINGS if played[setting.name] != seed[setting.name]
        )


VARIANTS = (
    Variant(
        key="shanghai",
        name=gettext_noop("Shanghai"),
        description=gettext_noop(
            "The seed game: seven contracts, 11 cards every deal, aces high, one joker a meld, "
            "two May I?s a round at two penalty cards each, and the Shanghai call."
        ),
        source="pagat.com, Contract Rummy: Shanghai Rummy",
        source_url="https://www.pagat.com/rummy/contract_rummy.html",
        house_rules=HouseRules(),
    ),
    Variant(
        key="contract_rummy",
        name=gettext_noop("Contract Rummy"),
        description=gettext_noop(
            "The seven-deal classic for three or four: two decks and one joker, 10 cards in the "
            "first four deals and 12 in the last three, aces high or low, cards at pip value."
        ),
        source="Bicycle Cards, Contract Rummy",
        source_url="https://bicyclecards.com/how-to-play/contract-rummy",
        house_rules=HouseRules(**PIP_GAME, jokers=1, cards_dealt=(10,) * 4 + (12,) * 3),
    ),
    Variant(
        key="liverpool",
        name=gettext_noop("Liverpool Rummy"),
        description=gettext_noop(
            "Seven hands for three or four with all four jokers, 11 cards every hand, aces high "
            "or low, no buying once down, and aces and jokers at 15."
        ),
        source="Weekend America (American Public Media), Liverpool Rummy Rules",
        source_url="http://weekendamerica.publicradio.org/programs/2005/08/13/rummy.html",
        house_rules=HouseRules(
            **PIP_GAME, jokers=4, jokers_per_meld=4, may_i_after_down=False, cards_dealt=(11,) * 7
        ),
    ),
)


def variant(key: str) -> Variant:
    """The variant named by `key` ("liverpool"); RulesError for any other word."""
    for candidate in VARIANTS:
        if candidate.key == key:
            return candidate
    keys = ", ".join(candidate.key for candidate in VARIANTS)
    raise RulesError(
        _("There is no variant {key}: the variants are {keys}.", key=repr(key), keys=keys)
    )
