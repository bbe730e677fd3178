"""Clubs, their players and seasons, starting a table, and importing a club."""

import re
import zoneinfo
from functools import cache

from django import forms
from django.conf import settings
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import rules
from scorekeeper.models import TABLET_IDLE_MINUTES, Club, Player, RulesProfile, Season
from scorekeeper.names import NameRefused, name_clean

from .tables import RowChoiceField, row_id


class NameField(forms.CharField):
    """A name of a row of `model`, cleaned by name_clean and as long as its column allows."""

    def __init__(self, *, model, **kwargs):
        self.column_length = model._meta.get_field("name").max_length
        super().__init__(max_length=self.column_length, **kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return value
        try:
            return name_clean(value, max_length=self.column_length)
        except NameRefused as refusal:
            raise forms.ValidationError(str(refusal), code="name") from None


class PlainSelect(forms.Select):
    """A menu written out directly, not through Django's template an option, which was most of a
    page's time for the club's players on five to eight seats (`options`, read once for every
    seat) and for the 600 time zones (its choices: 18 ms a menu, under 1 ms written out).
    `blank` labels an empty first option."""

    def __init__(self, options: list[tuple] | None = None, *, blank: str | None = None):
        super().__init__()
        self.options = options
        self.blank = blank

    def render(self, name, value, attrs=None, renderer=None):
        chosen = "" if value in (None, "") else str(value)
        selected = mark_safe(" selected")
        options = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            (
                (key, selected if str(key) == chosen else "", label)
                for key, label in (self.choices if self.options is None else self.options)
            ),
        )
        if self.blank is not None:
            blank = format_html(
                '<option value=""{}>{}</option>', "" if chosen else selected, self.blank
            )
            options = blank + options
        return format_html(
            '<select name="{}"{}>{}</select>',
            name,
            flatatt(self.build_attrs(self.attrs, attrs)),
            options,
        )


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


def time_zone_field(*, required: bool = True) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=time_zone_choices,
        widget=PlainSelect(),
        required=required,
        initial=settings.TIME_ZONE,
        label=gettext_lazy("Time zone"),
        help_text=gettext_lazy("Dates and times on the club's pages are shown there."),
        error_messages={
            "invalid_choice": gettext_lazy("Pick a time zone from the list, such as Europe/Paris.")
        },
    )


class ClubForm(forms.Form):
    name = NameField(model=Club, label=gettext_lazy("Club name"))
    time_zone = time_zone_field(required=False)  # left out: the site's own


class TimeZoneForm(forms.Form):
    time_zone = time_zone_field()


class TabletIdleForm(forms.Form):
    minutes = forms.IntegerField(
        required=False,
        min_value=TABLET_IDLE_MINUTES[0],
        max_value=TABLET_IDLE_MINUTES[1],
        label=gettext_lazy("Sign tablets out after this many minutes idle"),
        help_text=format_lazy(
            gettext_lazy("{least} to {most}; empty: never."),
            least=TABLET_IDLE_MINUTES[0],
            most=TABLET_IDLE_MINUTES[1],
        ),
        error_messages={
            "min_value": gettext_lazy(
                "At least %(limit_value)s minutes: a long hand would sign the table out."
            ),
            "max_value": gettext_lazy("At most %(limit_value)s minutes (twelve hours)."),
            "invalid": gettext_lazy("Type a whole number of minutes, or leave it empty."),
        },
    )

    def clean_minutes(self):
        # int() reads "١٢" and "１２" as 12; a number typed here is ASCII digits.
        if not re.fullmatch(r"\s*[0-9]*\s*", self.data.get("minutes", "")):
            raise forms.ValidationError(self.fields["minutes"].error_messages["invalid"])
        return self.cleaned_data["minutes"]


class JoinForm(forms.Form):
    invite_code = forms.CharField(max_length=20, label=gettext_lazy("Invite code"))


class PlayerForm(forms.Form):
    name = NameField(
        model=Player,
        label=gettext_lazy("Player name"),
        widget=forms.TextInput(
            attrs={
                "placeholder": gettext_lazy("New player's name"),
                "aria-label": gettext_lazy("Player name"),
            }
        ),
    )


class SeasonForm(forms.Form):
    name = NameField(model=Season, label=gettext_lazy("Name"))
    starts_on = forms.DateField(
        label=gettext_lazy("Starts on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(
        required=False,
        label=gettext_lazy("Ends on (optional)"),
        help_text=gettext_lazy(
            "The first day the season is over; leave empty and close it when it is."
        ),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, **kwargs):
        # The club page holds the player form too: its ids must not be the same (id_name).
        kwargs.setdefault("auto_id", "id_season_%s")
        super().__init__(*args, **kwargs)

    def clean(self):
        cleaned = super().clean()
        starts_on, ends_on = cleaned.get("starts_on"), cleaned.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", _("A season cannot end before it starts."))
        return cleaned


class StandingsForm(forms.Form):
    """How the standings are shown: the column sorted on, and the fewest games to be placed."""

    sort = forms.CharField(required=False, max_length=20)
    min_games = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=10_000,
        label=gettext_lazy("At least this many games"),
        error_messages={"invalid": gettext_lazy("Enter a whole number of games, like 3.")},
    )

    def options(self) -> dict:
        """The options asked for, with the defaults in place of anything unreadable."""
        cleaned = self.cleaned_data if self.is_valid() else {}
        return {"sort": cleaned.get("sort") or "place", "min_games": cleaned.get("min_games") or 1}


SEATS = 5
VARIANT_PREFIX = "variant:"


class GameStartForm(forms.Form):
    """Players in seating order (clockwise), the first dealer, the season and the rules."""

    first_dealer = forms.TypedChoiceField(
        coerce=int,
        choices=[(n, str(n + 1)) for n in range(SEATS)],
        initial=0,
        label=gettext_lazy("First dealer"),
    )
    season = RowChoiceField(
        queryset=Season.objects.none(), empty_label=None, label=gettext_lazy("Season")
    )
    # One of the club's rule profiles (its id) or a known game ("variant:liverpool").
    profile = forms.ChoiceField(
        label=gettext_lazy("House rules"),
        help_text=gettext_lazy("The club's own rules, or a known game as its source plays it."),
        error_messages={
            "invalid_choice": gettext_lazy("Pick one of this club's rule profiles or a known game.")
        },
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        players = club.players.playing()
        profiles = list(club.profiles.all())
        most = [profile.house_rules.max_players for profile in profiles]
        most += [variant.house_rules.max_players for variant in rules.VARIANTS]
        self.seats = max([*most, SEATS])
        self.rules_chosen = {str(profile.pk): profile for profile in profiles}
        self.rules_chosen.update(
            {VARIANT_PREFIX + variant.key: variant for variant in rules.VARIANTS}
        )
        roster = list(players.order_by("name").values_list("pk", "name"))
        for n in range(self.seats):
            self.fields[f"seat_{n}"] = RowChoiceField(
                queryset=players,
                required=False,
                label=_("Seat %(number)s") % {"number": n + 1},
                widget=PlainSelect(roster, blank="—"),
                error_messages={"invalid_choice": _("Pick a player of this club.")},
            )
        self.order_fields([f"seat_{n}" for n in range(self.seats)])
        # The first dealer is named by the player sent for that seat (a page sent again after an
        # error); on the page, JavaScript names them as seats are picked.
        chosen = {n: row_id(self.data.get(f"seat_{n}")) for n in range(self.seats)}
        names = dict(
            players.filter(pk__in=[pk for pk in chosen.values() if pk]).values_list("pk", "name")
            if self.is_bound
            else []
        )
        self.fields["first_dealer"].choices = [
            (n, names.get(chosen[n]) or _("Seat %(number)s") % {"number": n + 1})
            for n in range(self.seats)
        ]
        self.fields["season"].error_messages["invalid_choice"] = _(
            "Pick one of this club's seasons."
        )
        self.fields["season"].queryset = club.seasons.all()
        self.fields["season"].initial = Season.objects.current(club)
        self.fields["profile"].choices = [
            (
                _("%(club)s's rules") % {"club": club},
                [(str(profile.pk), profile.name) for profile in profiles],
            ),
            (
                _("Known games"),
                [(VARIANT_PREFIX + variant.key, _(variant.name)) for variant in rules.VARIANTS],
            ),
        ]
        seed_names = RulesProfile.seed_names()
        seed = next((p for p in profiles if p.name in seed_names), None)
        self.fields["profile"].initial = str(seed.pk) if seed else None

    def clean_profile(self):
        """The club's profile or the known game picked: a RulesProfile or a rules.Variant."""
        return self.rules_chosen[self.cleaned_data["profile"]]

    @property
    def seat_fields(self):
        return [self[f"seat_{n}"] for n in range(self.seats)]

    def clean(self):
        cleaned = super().clean()
        extra = [key for key in self.data if key.startswith("seat_") and key not in self.fields]
        if extra:
            raise forms.ValidationError(
                ngettext(
                    "These rules seat at most %(seats)s player.",
                    "These rules seat at most %(seats)s players.",
                    self.seats,
                )
                % {"seats": self.seats}
            )
        players = [cleaned.get(f"seat_{n}") for n in range(self.seats)]
        players = [player for player in players if player is not None]
        if len(set(players)) != len(players):
            raise forms.ValidationError(_("Each player can sit at the table only once."))
        chosen = cleaned.get("profile")
        if chosen is not None:
            house_rules = chosen.house_rules
            # A known game starts the table with its rules and no profile of the club's.
            cleaned["profile"] = chosen if isinstance(chosen, RulesProfile) else None
            cleaned["house_rules"] = house_rules
            if not house_rules.min_players <= len(players) <= house_rules.max_players:
                name = str(chosen) if cleaned["profile"] else _(chosen.name)
                raise forms.ValidationError(
                    _("Pick %(least)s to %(most)s players for %(rules)s; you picked %(picked)s.")
                    % {
                        "least": house_rules.min_players,
                        "most": house_rules.max_players,
                        "rules": name,
                        "picked": len(players),
                    }
                )
        if cleaned.get("first_dealer", 0) >= len(players) and players:
            self.add_error("first_dealer", _("The first dealer must be one of the seated players."))
        cleaned["players"] = players
        return cleaned


class ClubImportForm(forms.Form):
    document = forms.FileField(
        label=gettext_lazy("Club export (.json)"),
        help_text=gettext_lazy("A file from “Everything (JSON)” of a Shanghai Scorekeeper club."),
    )

    def clean_document(self):
        document = self.cleaned_data["document"]
        limit = settings.CLUB_IMPORT_MAX_BYTES
        if document.size > limit:
            raise forms.ValidationError(
                _("That file is %(size).1f MB; a club export here can be at most %(most)s MB.")
                % {"size": document.size / 2**20, "most": limit // 2**20}
            )
        return document.read()
