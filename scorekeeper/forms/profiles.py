"""Rule profiles: every setting of rules.HouseRules, in a form."""

from django import forms
from django.utils.translation import gettext, gettext_lazy

import rules
from scorekeeper.models import RulesProfile
from scorekeeper.rules_words import translated

from .clubs import NameField

# The contracts stay as typed in every language (docs/rules.md's notation of a contract).
CONTRACT_HELP = gettext_lazy(
    "One contract a line, in playing order: “2 books”, “1 book 1 run”, “3 runs no discard”."
)


# Every contract a line of "1 book 1 run no discard" or so; typed longer is not a contract.
CONTRACTS_MAX_LENGTH = 40 * rules.MAX_CONTRACTS

TABLE_SETTINGS = {
    "min_players",
    "max_players",
    "decks",
    "jokers",
    "cards_dealt",
    "contracts",
    "stock_exhausted",
}


class ProfileForm(forms.Form):
    """Every setting of rules.HouseRules; HouseRules itself decides whether they fit together."""

    name = NameField(model=RulesProfile, label=gettext_lazy("Name"))

    def __init__(self, *args, house_rules: rules.HouseRules | None = None, name: str = "", **kw):
        super().__init__(*args, **kw)
        house_rules = house_rules or rules.HouseRules()
        self.initial["name"] = name
        self.setting_names = []
        for setting in rules.SETTINGS:
            if setting.kind == "points":
                continue
            self.fields[setting.name] = self._field_for(setting, getattr(house_rules, setting.name))
            self.setting_names.append(setting.name)
        for rank, points in house_rules.points:
            label = gettext("Joker") if rank == "JK" else rank
            self.fields[f"points_{rank}"] = forms.IntegerField(
                min_value=0, max_value=rules.MAX_POINTS, label=label, initial=points
            )

    @staticmethod
    def _field_for(setting, value):
        # The engine marks its words for the catalogue (rules/messages.py); they are said here.
        common = {"label": gettext(setting.label), "help_text": gettext(setting.help)}
        match setting.kind:
            case "contracts":
                return forms.CharField(
                    max_length=CONTRACTS_MAX_LENGTH,
                    widget=forms.Textarea(attrs={"rows": 7}),
                    initial="\n".join(contract.line for contract in value),
                    **{**common, "help_text": CONTRACT_HELP},
                )
            case "int_list":
                return forms.CharField(
                    max_length=4 * rules.MAX_CONTRACTS,  # "15, " a contract
                    initial=", ".join(str(number) for number in value),
                    **common,
                )
            case "bool":
                return forms.BooleanField(required=False, initial=value, **common)
            case "choice":
                choices = [(choice, gettext(words)) for choice, words in setting.choices]
                return forms.ChoiceField(choices=choices, initial=value, **common)
        return forms.IntegerField(
            initial=value, min_value=setting.minimum, max_value=setting.maximum, **common
        )

    @property
    def groups(self):
        """The fields in the order a player reads them: the table, the play, the points."""
        table = [self[name] for name in self.setting_names if name in TABLE_SETTINGS]
        play = [self[name] for name in self.setting_names if name not in TABLE_SETTINGS]
        points = [self[name] for name in self.fields if name.startswith("points_")]
        return [
            (gettext("Name"), [self["name"]]),
            (gettext("Table and deal"), table),
            (gettext("Play"), play),
            (gettext("Penalty points"), points),
        ]

    def clean_contracts(self):
        lines = [line for line in self.cleaned_data["contracts"].splitlines() if line.strip()]
        try:
            return [rules.Contract.parse(line) for line in lines]
        except rules.RulesError as error:
            raise forms.ValidationError(translated(error.args[0])) from None

    def clean_cards_dealt(self):
        try:
            return [int(part) for part in self.cleaned_data["cards_dealt"].split(",")]
        except ValueError:
            raise forms.ValidationError(
                gettext("Give whole numbers separated by commas.")
            ) from None

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        values = {name: cleaned[name] for name in self.setting_names}
        values["points"] = {
            name.removeprefix("points_"): cleaned[name]
            for name in self.fields
            if name.startswith("points_")
        }
        try:
            cleaned["house_rules"] = rules.HouseRules.from_dict(values)
        except rules.RulesError as error:
            raise forms.ValidationError(translated(error.args[0])) from None
        return cleaned
