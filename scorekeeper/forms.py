"""Forms clean what players type and say what is wrong in their words; services decide the rest."""

import base64
import io
import re
import zoneinfo
from dataclasses import dataclass
from functools import cache

from django import forms
from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.urls import reverse_lazy
from PIL import Image, ImageOps, UnidentifiedImageError
from pillow_heif import register_heif_opener

import rules

from .models import Check, Club, Game, Round, RulesProfile, Season
from .services import HandEntry

register_heif_opener()


# The largest id a row can have on every database we run on (PostgreSQL's bigint).
MAX_ROW_ID = 2**63 - 1


def row_id(value) -> int | None:
    """A row id sent by a page, or None: ASCII digits only ("²".isdigit() is true), in range."""
    text = str(value or "").strip()
    if not re.fullmatch(r"[0-9]{1,19}", text) or not 0 < int(text) <= MAX_ROW_ID:
        return None
    return int(text)


class SignupForm(UserCreationForm):
    pass


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


def time_zone_field(*, required: bool = True) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=time_zone_choices,
        required=required,
        initial=settings.TIME_ZONE,
        label="Time zone",
        help_text="Dates and times on the club's pages are shown there.",
        error_messages={"invalid_choice": "Pick a time zone from the list, such as Europe/Paris."},
    )


class ClubForm(forms.Form):
    name = forms.CharField(max_length=80, label="Club name")
    time_zone = time_zone_field(required=False)  # left out: the site's own


class TimeZoneForm(forms.Form):
    time_zone = time_zone_field()


class JoinForm(forms.Form):
    invite_code = forms.CharField(max_length=20, label="Invite code")


class PlayerForm(forms.Form):
    name = forms.CharField(
        max_length=40,
        label="Player name",
        widget=forms.TextInput(
            attrs={"placeholder": "New player's name", "aria-label": "Player name"}
        ),
    )


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=60)
    starts_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))


SEATS = 5


class GameStartForm(forms.Form):
    """Players in seating order (clockwise), the first dealer, the season and the rules."""

    first_dealer = forms.TypedChoiceField(
        coerce=int, choices=[(n, f"Seat {n + 1}") for n in range(SEATS)], initial=0
    )
    season = forms.ModelChoiceField(queryset=Season.objects.none(), empty_label=None)
    profile = forms.ModelChoiceField(
        queryset=RulesProfile.objects.none(), empty_label=None, label="House rules"
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        players = club.players.all()
        profiles = list(club.profiles.all())
        self.seats = max([profile.house_rules.max_players for profile in profiles] + [SEATS])
        for n in range(self.seats):
            self.fields[f"seat_{n}"] = forms.ModelChoiceField(
                queryset=players,
                required=False,
                label=f"Seat {n + 1}",
                empty_label="—",
                error_messages={"invalid_choice": "Pick a player of this club."},
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
            (n, names.get(chosen[n]) or f"Seat {n + 1}") for n in range(self.seats)
        ]
        self.fields["season"].error_messages["invalid_choice"] = "Pick one of this club's seasons."
        self.fields["profile"].error_messages["invalid_choice"] = (
            "Pick one of this club's rule profiles."
        )
        self.fields["season"].queryset = club.seasons.all()
        self.fields["profile"].queryset = club.profiles.all()
        self.fields["season"].initial = club.seasons.first()
        seed = club.profiles.filter(name=RulesProfile.SEED_NAME).first()
        self.fields["profile"].initial = seed

    @property
    def seat_fields(self):
        return [self[f"seat_{n}"] for n in range(self.seats)]

    def clean(self):
        cleaned = super().clean()
        extra = [key for key in self.data if key.startswith("seat_") and key not in self.fields]
        if extra:
            raise forms.ValidationError(f"These rules seat at most {self.seats} players.")
        players = [cleaned.get(f"seat_{n}") for n in range(self.seats)]
        players = [player for player in players if player is not None]
        if len(set(players)) != len(players):
            raise forms.ValidationError("Each player can sit at the table only once.")
        profile = cleaned.get("profile")
        if profile is not None:
            house_rules = profile.house_rules
            if not house_rules.min_players <= len(players) <= house_rules.max_players:
                raise forms.ValidationError(
                    f"Pick {house_rules.min_players} to {house_rules.max_players} players "
                    f"for {profile}; you picked {len(players)}."
                )
        if cleaned.get("first_dealer", 0) >= len(players) and players:
            self.add_error("first_dealer", "The first dealer must be one of the seated players.")
        cleaned["players"] = players
        return cleaned


class VersionedForm(forms.Form):
    """Every write to a table carries the version of the screen it was made on."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


class SeatActionForm(VersionedForm):
    seat = forms.ModelChoiceField(queryset=None)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = game.seats.select_related("player")


class WentOutForm(SeatActionForm):
    rummy = forms.BooleanField(required=False)


class ShanghaiForm(SeatActionForm):
    discarder = forms.ModelChoiceField(queryset=None, required=False)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, game=game, **kwargs)
        self.fields["discarder"].queryset = game.seats.select_related("player")


class ScoreForm(VersionedForm):
    """What each player who did not go out was left holding: cards (ranks will do) or points.

    Editing a finished round, who went out (and whether in one turn) can be corrected too: then
    every player has a row, and the one who went out scores 0 whatever their row says."""

    def __init__(
        self,
        *args,
        round_: Round,
        editing: bool = False,
        entered: dict[int, tuple[str, int]] | None = None,
        **kwargs,
    ):
        """`entered`, by seat id: what a save that was undone had, to be shown again."""
        super().__init__(*args, **kwargs)
        self.round = round_
        self.entry_seats = []
        if editing:
            self.fields["went_out"] = forms.ModelChoiceField(
                queryset=round_.game.seats.select_related("player"),
                initial=round_.went_out_id,
                empty_label=None,
                required=False,  # not sent: unchanged
                label="Went out",
                error_messages={"invalid_choice": "Pick a player of this table."},
            )
            self.fields["went_out"].label_from_instance = lambda seat: seat.player.name
            self.fields["rummy"] = forms.BooleanField(
                required=False, initial=round_.rummy, label="in one turn"
            )
        for hand in round_.hands.all():
            if hand.seat_id == round_.went_out_id and not editing:
                continue
            self.fields[f"cards_{hand.seat_id}"] = forms.CharField(
                required=False, max_length=200, label="Cards"
            )
            self.fields[f"points_{hand.seat_id}"] = forms.IntegerField(
                required=False, min_value=0, max_value=10000, label="or points"
            )
            cards, points = (
                (hand.cards, hand.points)
                if editing
                else (entered or {}).get(hand.seat_id, ("", None))
            )
            if points is not None and not self.is_bound:
                self.initial[f"cards_{hand.seat_id}"] = cards
                if not cards:
                    self.initial[f"points_{hand.seat_id}"] = points
            self.entry_seats.append(hand.seat_id)

    def rows(self, lines):
        """(line, cards field, points field) for each player who enters a hand."""
        by_seat = {line.seat.pk: line for line in lines}
        return [
            (by_seat[seat_id], self[f"cards_{seat_id}"], self[f"points_{seat_id}"])
            for seat_id in self.entry_seats
        ]

    def clean(self):
        cleaned = super().clean()
        entries = {}
        went_out = cleaned.get("went_out")
        for seat_id in self.entry_seats:
            if went_out is not None and seat_id == went_out.pk:
                continue  # they scored 0: what their row says is ignored
            text = cleaned.get(f"cards_{seat_id}") or ""
            points = cleaned.get(f"points_{seat_id}")
            if text.strip() and points is not None:
                self.add_error(
                    f"points_{seat_id}", "Enter the cards or the points, not both: clear one."
                )
            elif text.strip():
                try:
                    cards = tuple(rules.parse_ranks(text))
                except rules.CardError as error:
                    self.add_error(f"cards_{seat_id}", str(error))
                    continue
                entries[seat_id] = HandEntry(cards=cards)
            elif points is not None:
                entries[seat_id] = HandEntry(points=points)
        cleaned["entries"] = entries
        return cleaned


CONTRACT_HELP = (
    "One contract a line, in playing order: “2 books”, “1 book 1 run”, “3 runs no discard”."
)


def contract_line(contract: rules.Contract) -> str:
    parts = []
    if contract.books:
        parts.append(f"{contract.books} book{'s' if contract.books > 1 else ''}")
    if contract.runs:
        parts.append(f"{contract.runs} run{'s' if contract.runs > 1 else ''}")
    if contract.no_discard:
        parts.append("no discard")
    return " ".join(parts)


def contract_parse(line: str) -> rules.Contract:
    words = line.lower().replace(",", " ").split()
    books = runs = 0
    no_discard = "discard" in words
    for number, word in zip(words, words[1:], strict=False):
        # ASCII digits only: "²".isdigit() is true, but int("²") fails.
        counted = re.fullmatch(r"[0-9]{1,2}", number) is not None
        if counted and word.startswith("book"):
            books = int(number)
        elif counted and word.startswith("run"):
            runs = int(number)
    if not books and not runs:
        raise forms.ValidationError(f"“{line}” is not a contract: say “2 books” or “1 book 1 run”.")
    return rules.Contract(books=books, runs=runs, no_discard=no_discard)


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

    name = forms.CharField(max_length=60)

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
            label = "Joker" if rank == "JK" else rank
            self.fields[f"points_{rank}"] = forms.IntegerField(
                min_value=0, max_value=rules.MAX_POINTS, label=label, initial=points
            )

    @staticmethod
    def _field_for(setting, value):
        common = {"label": setting.label, "help_text": setting.help}
        match setting.kind:
            case "contracts":
                return forms.CharField(
                    widget=forms.Textarea(attrs={"rows": 7}),
                    initial="\n".join(contract_line(contract) for contract in value),
                    **{**common, "help_text": CONTRACT_HELP},
                )
            case "int_list":
                return forms.CharField(initial=", ".join(str(number) for number in value), **common)
            case "bool":
                return forms.BooleanField(required=False, initial=value, **common)
            case "choice":
                return forms.ChoiceField(choices=setting.choices, initial=value, **common)
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
            ("Name", [self["name"]]),
            ("Table and deal", table),
            ("Play", play),
            ("Penalty points", points),
        ]

    def clean_contracts(self):
        lines = [line for line in self.cleaned_data["contracts"].splitlines() if line.strip()]
        return [contract_parse(line) for line in lines]

    def clean_cards_dealt(self):
        try:
            return [int(part) for part in self.cleaned_data["cards_dealt"].split(",")]
        except ValueError:
            raise forms.ValidationError("Give whole numbers separated by commas.") from None

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
            raise forms.ValidationError(str(error)) from None
        return cleaned


def melds_clean(text: str) -> list[list[rules.Card]]:
    """Cards typed by a player: one meld, or several separated by | / ; or new lines."""
    try:
        melds = [meld for meld in rules.parse_melds(text) if meld]
    except rules.CardError as error:
        raise forms.ValidationError(str(error)) from None
    if not melds:
        raise forms.ValidationError("Enter some cards, like 7H 8H 9H JK.")
    return melds


class CheckForm(forms.Form):
    """A question for the meld checker. At a table the round gives the contract, the rules and the
    melds; standalone, the player picks rules and a contract and types the table's melds."""

    question = forms.ChoiceField(
        choices=Check.Question.choices, initial=Check.Question.MELD, widget=forms.RadioSelect
    )
    cards = forms.CharField(
        max_length=300,
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
        help_text="Like 7H 8H 9H JK, or 10♠ J♠ Q♠ K♠. Separate melds with |.",
    )
    target = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, label="Lay off on"
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
            (index, str(meld)) for index, meld in enumerate(table_melds)
        ]
        if profiles is not None:
            self.fields["profile"] = forms.ModelChoiceField(
                queryset=profiles,
                required=False,
                # Every club has its copy of the seed rules: offer them once, as that club's.
                empty_label=None if profiles else RulesProfile.SEED_NAME,
                label="House rules",
            )
            if len({profile.club_id for profile in profiles}) > 1:
                self.fields["profile"].label_from_instance = lambda p: f"{p} · {p.club}"
            self.fields["contract"] = forms.TypedChoiceField(
                coerce=int,
                required=False,
                empty_value=1,
                choices=[(n, f"Contract {n}") for n in range(1, contracts + 1)],
                initial=1,
            )
            self.fields["table"] = forms.CharField(
                required=False,
                max_length=600,
                widget=forms.Textarea(attrs={"rows": 2}),
                label="Melds on the table",
                help_text="For lay-offs and Shanghai: the table's melds, separated by |. "
                "For a lay-off, the first meld is the one you lay off on.",
            )

    def clean_cards(self):
        return melds_clean(self.cleaned_data["cards"])

    def _check_hand_size(self, question, melds):
        """No question is about more cards than a hand can hold (or a meld, for a meld check):
        the engine's searches grow fast with the cards, so bound them by the table's rules."""
        most = self.house_rules.most_cards_held(self.contract, shanghai_claims=self.shanghai_claims)
        if question == Check.Question.MELD:
            most = max(most, self.house_rules.most_cards_in_meld)
        count = sum(len(meld) for meld in melds)
        if count > most:
            self.add_error(
                "cards",
                f"That is {count} cards, more than a hand can hold in contract {self.contract} "
                f"under these rules (at most {most}, May I? and Shanghai cards included).",
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
                self.add_error(
                    "contract", f"These rules have {len(self.house_rules.contracts)} contracts."
                )
                return cleaned
        if "cards" in cleaned and "question" in cleaned:
            self._check_hand_size(cleaned["question"], cleaned["cards"])
        asks_lay_off = cleaned.get("question") == Check.Question.LAY_OFF
        if self.at_table and asks_lay_off and cleaned.get("target") is None:
            if len(self.fields["target"].choices) == 1:
                self.add_error("target", "No meld is on the table yet, so nothing can be laid off.")
            else:
                self.add_error("target", "Pick the meld on the table to lay off on.")
        return cleaned


class GoingDownForm(VersionedForm):
    seat = forms.ModelChoiceField(queryset=None)
    melds = forms.CharField(max_length=300)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = game.seats.select_related("player")

    def clean_melds(self):
        return melds_clean(self.cleaned_data["melds"])


class LayOffForm(GoingDownForm):
    meld = forms.ModelChoiceField(queryset=None)
    discarder = forms.ModelChoiceField(queryset=None, required=False)

    def __init__(self, *args, game: Game, round_: Round, **kwargs):
        super().__init__(*args, game=game, **kwargs)
        self.fields["meld"].queryset = round_.melds.select_related("owner__player")
        self.fields["discarder"].queryset = game.seats.all()

    def clean_melds(self):
        return [card for meld in super().clean_melds() for card in meld]


PHOTO_FORMATS = {"JPEG", "PNG", "WEBP", "HEIF"}


@dataclass(frozen=True)
class CleanPhoto:
    """An upload made safe to keep: upright, re-encoded as JPEG, with no EXIF (no location)."""

    content: bytes
    width: int
    height: int

    def data_url(self, *, max_side: int = 1280) -> str:
        """The photo as a data: URL, scaled down to show on a page without storing it."""
        with Image.open(io.BytesIO(self.content)) as image:
            image.thumbnail((max_side, max_side))
            buffer = io.BytesIO()
            image.save(buffer, format="JPEG", quality=80)
        return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def photo_clean(upload) -> CleanPhoto:
    """Check an uploaded photo and re-encode it, or refuse it in the player's words."""
    megabyte = 1024 * 1024
    if upload.size > settings.PHOTO_MAX_BYTES:
        raise forms.ValidationError(
            f"That photo is {upload.size / megabyte:.1f} MB; photos up to "
            f"{settings.PHOTO_MAX_BYTES // megabyte} MB are accepted."
        )
    try:
        with Image.open(upload) as image:
            if image.format not in PHOTO_FORMATS:
                raise forms.ValidationError(
                    "That file is not a photo we can read: use JPEG, PNG, WebP or HEIC."
                )
            if image.width * image.height > settings.PHOTO_MAX_PIXELS:
                raise forms.ValidationError(
                    f"That picture is {image.width}×{image.height} pixels, too large to read: "
                    f"photos up to {settings.PHOTO_MAX_PIXELS // 1_000_000} megapixels are fine."
                )
            image.load()
            upright = ImageOps.exif_transpose(image).convert("RGB")
    except forms.ValidationError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError):
        raise forms.ValidationError(
            "That file is not a photo we can read: use JPEG, PNG, WebP or HEIC."
        ) from None
    except (OSError, SyntaxError, ValueError):
        raise forms.ValidationError(
            "That photo is damaged or cut short; please take it again."
        ) from None
    buffer = io.BytesIO()
    upright.save(buffer, format="JPEG", quality=88)
    return CleanPhoto(buffer.getvalue(), upright.width, upright.height)


class PhotoForm(forms.Form):
    photo = forms.FileField()

    def clean_photo(self):
        return photo_clean(self.cleaned_data["photo"])
