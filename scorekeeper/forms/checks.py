"""The meld checker's questions, and the melds recorded from its answers."""

from django import forms
from django.urls import reverse_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext

import rules
from scorekeeper.models import Game, Round, RulesProfile
from scorekeeper.rules_words import translated

from .tables import RowChoiceField, VersionedForm


def melds_clean(text: str) -> list[list[rules.Card]]:
    """Cards typed by a player: one meld, or several separated by | / ; or new lines."""
    try:
        melds = [meld for meld in rules.parse_melds(text) if meld]
    except rules.CardError as error:
        raise forms.ValidationError(translated(error.args[0])) from None
    if not melds:
        raise forms.ValidationError(gettext("Enter some cards, like 7H 8H 9H JK."))
    return melds


def _meld_label(meld) -> str:
    """A meld on the table, as the menu of melds to lay off on names it."""
    said = gettext("%(player)s's %(kind)s %(cards)s")
    kind = meld.get_kind_display().lower()
    return said % {"player": meld.owner.player, "kind": kind, "cards": meld.cards}


class CheckForm(forms.Form):
    """A question for the meld checker. At a table the round gives the contract, the rules and the
    melds; standalone, the player picks rules and a contract and types the table's melds."""

    question = forms.TypedChoiceField(
        choices=[(question.value, gettext_lazy(question.label)) for question in rules.Question],
        coerce=rules.Question,
        initial=rules.Question.MELD,
        widget=forms.RadioSelect,
    )
    cards = forms.CharField(
        max_length=300,
        label=gettext_lazy("Cards"),
        widget=forms.Textarea(
            attrs={
                "rows": 2,
                "autocapitalize": "characters",
                "autocomplete": "off",
                "placeholder": "7H 8H 9H JK",
                "data-chips": True,
                # Live feedback while typing: the cards as faces, or the token not understood.
                "hx-get": reverse_lazy("cards_preview"),
                "hx-trigger": "input changed delay:250ms",
                "hx-target": "#preview",
                "hx-swap": "outerHTML",
            }
        ),
        help_text=gettext_lazy("Like 7H 8H 9H JK, or 10♠ J♠ Q♠ K♠. Separate melds with |."),
    )
    target = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label=gettext_lazy("Lay off on")
    )

    def __init__(
        self,
        *args,
        table_melds=(),
        profiles=None,
        contracts=0,
        house_rules: rules.HouseRules | None = None,
        contract: int = 1,
        shanghai_claims: int = 0,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.at_table = profiles is None
        self.house_rules = house_rules or rules.HouseRules()
        self.contract = contract
        self.shanghai_claims = shanghai_claims
        self.fields["target"].choices = [("", "—")] + [
            (index, _meld_label(meld)) for index, meld in enumerate(table_melds)
        ]
        if profiles is not None:
            self.fields["profile"] = RowChoiceField(
                queryset=profiles,
                required=False,
                # Every club has its copy of the seed rules: offer them once, as that club's.
                empty_label=None if profiles else gettext(RulesProfile.SEED_NAME),
                label=gettext("House rules"),
            )
            if len({profile.club_id for profile in profiles}) > 1:
                self.fields["profile"].label_from_instance = lambda p: f"{p} · {p.club}"
            self.fields["contract"] = forms.TypedChoiceField(
                coerce=int,
                required=False,
                empty_value=1,
                choices=[
                    (n, gettext("Contract %(number)s") % {"number": n})
                    for n in range(1, contracts + 1)
                ],
                initial=1,
                label=gettext("Contract"),
            )
            self.fields["table"] = forms.CharField(
                required=False,
                max_length=600,
                widget=forms.Textarea(attrs={"rows": 2}),
                label=gettext("Melds on the table"),
                help_text=gettext(
                    "For lay-offs and Shanghai: the table's melds, separated by |. "
                    "For a lay-off, the first meld is the one you lay off on."
                ),
            )

    def clean_cards(self):
        return melds_clean(self.cleaned_data["cards"])

    def _check_hand_size(self, question, melds):
        """No question is about more cards than a hand can hold (or a meld, for a meld check)."""
        most = rules.most_cards_asked(
            question, self.house_rules, self.contract, shanghai_claims=self.shanghai_claims
        )
        count = sum(len(meld) for meld in melds)
        if count > most:
            self.add_error(
                "cards",
                # More than the most asked, so always several cards.
                gettext(
                    "That is %(count)s cards, more than a hand can hold in contract %(contract)s "
                    "under these rules (at most %(most)s, May I? and Shanghai cards included)."
                )
                % {"count": count, "contract": self.contract, "most": most},
            )

    def clean_table(self):
        text = self.cleaned_data.get("table", "")
        return melds_clean(text) if text.strip() else []

    def clean(self):
        cleaned = super().clean()
        if not self.at_table and not self.errors:
            profile = cleaned.get("profile")
            self.house_rules = profile.house_rules if profile else self.house_rules
            self.contract = cleaned.get("contract") or 1
            if self.contract > len(self.house_rules.contracts):
                count = len(self.house_rules.contracts)
                said = ngettext(
                    "These rules have %(count)s contract.",
                    "These rules have %(count)s contracts.",
                    count,
                )
                self.add_error("contract", said % {"count": count})
                return cleaned
        if "cards" in cleaned and "question" in cleaned:
            self._check_hand_size(cleaned["question"], cleaned["cards"])
        asks_lay_off = cleaned.get("question") == rules.Question.LAY_OFF
        if not self.at_table:
            # Standalone, the first meld typed for the table is the one to lay off on.
            cleaned["target"] = 0 if asks_lay_off else None
            if asks_lay_off and "table" in cleaned and not cleaned["table"]:
                self.add_error(
                    "table",
                    gettext(
                        "Type the meld you lay off on here: there is no table to pick it from."
                    ),
                )
        elif asks_lay_off and cleaned.get("target") is None:
            if len(self.fields["target"].choices) == 1:
                self.add_error(
                    "target", gettext("No meld is on the table yet, so nothing can be laid off.")
                )
            else:
                self.add_error("target", gettext("Pick the meld on the table to lay off on."))
        return cleaned


class GoingDownForm(VersionedForm):
    seat = RowChoiceField(queryset=None)
    melds = forms.CharField(max_length=300)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = game.seats.select_related("player")

    def clean_melds(self):
        return melds_clean(self.cleaned_data["melds"])


class LayOffForm(GoingDownForm):
    meld = RowChoiceField(queryset=None)
    discarder = RowChoiceField(queryset=None, required=False)

    def __init__(self, *args, game: Game, round_: Round, **kwargs):
        super().__init__(*args, game=game, **kwargs)
        self.fields["meld"].queryset = round_.melds.select_related("owner__player")
        self.fields["discarder"].queryset = game.seats.all()

    def clean_melds(self):
        return [card for meld in super().clean_melds() for card in meld]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("discarder") and len(cleaned.get("melds") or []) != 1:
            self.add_error("melds", gettext("A Shanghai claim is one card."))
        return cleaned
