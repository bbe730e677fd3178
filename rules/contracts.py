"""Contracts: what a player must lay down to go down in each round, and how players write them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import _number_word
from .messages import Message, _, capitalized, joined, ngettext_lazy


class RulesError(ValueError):
    """A house-rules setting, or a combination of them, that cannot be played; its one argument
    is the Message saying why."""


@dataclass(frozen=True, slots=True)
class Contract:
    """What a player must lay down to go down in one round."""

    books: int
    runs: int
    no_discard: bool = False

    @property
    def name(self) -> Message:
        """Plain name, e.g. "One book, two runs" or "Three runs, no discard"."""
        parts = []
        if self.books:
            parts.append(
                ngettext_lazy(
                    "one book", "{count} books", self.books, count=_number_word(self.books)
                )
            )
        if self.runs:
            parts.append(
                ngettext_lazy("one run", "{count} runs", self.runs, count=_number_word(self.runs))
            )
        if self.no_discard:
            parts.append(_("no discard"))
        return capitalized(joined(", ", parts) if parts else _("no melds"))

    def __str__(self) -> str:
        return self.name

    @property
    def line(self) -> str:
        """The contract as a player types it: "1 book 1 run", "3 runs no discard"."""
        parts = [
            f"{count} {word}{'s' if count > 1 else ''}"
            for count, word in ((self.books, "book"), (self.runs, "run"))
            if count
        ]
        return " ".join(parts + (["no discard"] if self.no_discard else []))

    @classmethod
    def parse(cls, text: str) -> Contract:
        """A contract typed as "2 books", "1 book 1 run", "3 runs no discard", or in short as
        "2b", "1b1r", "3r!" (a trailing ! for no discard). Refuses anything else, naming it."""
        words = text.lower().replace(",", " ").strip()
        no_discard = words.endswith("!") or words.endswith("no discard")
        words = words.removesuffix("!").removesuffix("no discard")
        counts = {"b": 0, "r": 0}
        # ASCII digits only: "²".isdigit() is true, but int("²") fails.
        parts = _CONTRACT_PART.findall(words)
        for number, kind in parts:
            counts[kind[0]] = int(number)
        if not any(counts.values()) or _CONTRACT_PART.sub("", words).strip():
            raise RulesError(
                _(
                    "“{text}” is not a contract: say “2 books”, “1 book 1 run” or "
                    "“3 runs no discard”.",
                    text=text.strip(),
                )
            )
        return cls(books=counts["b"], runs=counts["r"], no_discard=no_discard)


_CONTRACT_PART = re.compile(r"(?<![0-9])([0-9]{1,2}) ?(books?|runs?|b|r)(?![a-z])")


CONTRACTS = (
    Contract(2, 0),
    Contract(1, 1),
    Contract(0, 2),
    Contract(3, 0),
    Contract(2, 1),
    Contract(1, 2),
    Contract(0, 3, no_discard=True),
)
