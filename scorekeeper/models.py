import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse

from rules import Card, HouseRules, parse_cards

from .recognition import SURE_CONFIDENCE


def new_invite_code() -> str:
    return secrets.token_urlsafe(8)


def default_time_zone() -> str:
    return settings.TIME_ZONE


class ClubQuerySet(models.QuerySet):
    def for_user(self, user):
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)


class Club(models.Model):
    """The group that plays together: it owns its players, seasons, rule profiles and tables."""

    name = models.CharField(max_length=80)
    invite_code = models.CharField(max_length=20, unique=True, default=new_invite_code)
    # An IANA name ("Europe/Paris"): the club's pages show dates and times there. The forms offer
    # zoneinfo's names; the column holds any, so a newer tzdata needs no migration.
    time_zone = models.CharField(max_length=64, default=default_time_zone)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("club", args=[self.pk])


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user_per_club")
        ]

    def __str__(self):
        return f"{self.user} in {self.club}"


class Player(models.Model):
    """A name at the club's tables; not necessarily somebody with an account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint("club", Lower("name"), name="player_unique_name_per_club")
        ]

    def __str__(self):
        return self.name


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    starts_on = models.DateField()

    class Meta:
        ordering = ["-starts_on", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_unique_name_per_club")
        ]

    def __str__(self):
        return self.name


class RulesProfile(models.Model):
    """A club's named set of house rules: every setting of HouseRules, stored as a dict."""

    SEED_NAME = "Seed rules"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="profiles")
    name = models.CharField(max_length=60)
    settings = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="profile_unique_name_per_club")
        ]

    def __str__(self):
        return self.name

    @property
    def house_rules(self) -> HouseRules:
        return HouseRules.from_dict(self.settings)


class GameQuerySet(models.QuerySet):
    def for_user(self, user):
        return self.filter(club__in=Club.objects.for_user(user))

    def in_progress(self):
        return self.filter(finished_at__isnull=True)

    def finished(self):
        return self.filter(finished_at__isnull=False)


class Game(models.Model):
    """One table playing through the contracts. `rules` is a copy taken when the table starts."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="games")
    profile = models.ForeignKey(
        RulesProfile, on_delete=models.SET_NULL, null=True, blank=True, related_name="games"
    )
    rules = models.JSONField()
    first_dealer = models.PositiveSmallIntegerField(default=0)
    # Bumped by every write, so a write based on a stale screen can be refused.
    version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]

    def __str__(self):
        return f"Table {self.pk} ({self.started_at:%Y-%m-%d})"

    def get_absolute_url(self):
        return reverse("game", args=[self.pk])

    @property
    def house_rules(self) -> HouseRules:
        return HouseRules.from_dict(self.rules)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_unique_player"),
        ]

    def __str__(self):
        return f"{self.player} (seat {self.position + 1})"


class Round(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    went_out = models.ForeignKey(
        Seat, on_delete=models.PROTECT, null=True, blank=True, related_name="rounds_won"
    )
    # Went out in one turn, from a full hand: with the rummy bonus, the others' points double.
    rummy = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        return f"Contract {self.number} of {self.game}"


class Hand(models.Model):
    """A seat's part in one round: May I?s spent, went down or not, what it held at the end."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="hands")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="hands")
    may_i_used = models.PositiveSmallIntegerField(default=0)
    # Copied from the table's rules so the database itself holds the limit.
    may_i_limit = models.PositiveSmallIntegerField(default=2)
    went_down = models.BooleanField(default=False)
    # Text: what a hand held is bounded by the rules' card limits, not by a column width.
    cards = models.TextField(blank=True)
    points = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="hand_unique_seat_per_round"),
            models.CheckConstraint(
                condition=models.Q(may_i_used__lte=models.F("may_i_limit")),
                name="hand_may_i_within_limit",
            ),
        ]

    def __str__(self):
        return f"{self.seat.player} in contract {self.round.number}"


class Recorded(models.Model):
    """Something done at a table: who did it, and when."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class Event(Recorded):
    """The table's history: every action and every score change, with what it was and became."""

    class Kind(models.TextChoices):
        MAY_I = "may_i", "May I?"
        WENT_DOWN = "went_down", "Went down"
        WENT_OUT = "went_out", "Went out"
        SHANGHAI_CLAIM = "shanghai_claim", "Shanghai claim"
        SHANGHAI_PROTECT = "shanghai_protect", "Shanghai protect"
        LAID_OFF = "laid_off", "Laid off"
        ROUND_SCORED = "round_scored", "Round scored"
        SCORE_EDITED = "score_edited", "Score edited"
        UNDO = "undo", "Undo"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    round = models.ForeignKey(
        Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )
    kind = models.CharField(max_length=20, choices=Kind)
    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="events"
    )
    other_seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # Text: it names players and cards, so its length follows the table, not a column width.
    description = models.TextField()
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    undoes = models.OneToOneField(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="undone_by"
    )

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["game", "-id"], name="event_game_newest")]

    def __str__(self):
        return self.description

    @staticmethod
    def hands_in(payload: dict) -> dict[int, tuple[str, int]]:
        """Cards and points by seat id, from a payload of a round's hands."""
        return {int(key): tuple(value) for key, value in payload.items() if key.isdecimal()}


class TableMeld(models.Model):
    """A meld on the table in a round: its owner, its cards, and what each joker stands for."""

    class Kind(models.TextChoices):
        BOOK = "book", "Book"
        RUN = "run", "Run"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="melds")
    owner = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="melds")
    kind = models.CharField(max_length=4, choices=Kind)
    # Canonical notation, jokers declared: "5H 6H JK=7H 8H".
    cards = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self):
        return f"{self.owner.player}'s {self.get_kind_display().lower()} {self.cards}"

    @property
    def card_list(self) -> list[Card]:
        return parse_cards(self.cards)


class Check(Recorded):
    """A question asked of the meld checker at a table, and its answer: kept for disputes."""

    class Question(models.TextChoices):
        MELD = "meld", "Is this a book or a run?"
        GOING_DOWN = "down", "Can I go down?"
        LAY_OFF = "layoff", "Can I lay this off?"
        SHANGHAI = "shanghai", "Is this discard a Shanghai?"
        HINT = "hint", "What could I lay down?"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checks")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="checks")
    question = models.CharField(max_length=10, choices=Question)
    cards = models.TextField()
    target = models.ForeignKey(
        TableMeld, on_delete=models.SET_NULL, null=True, blank=True, related_name="checks"
    )
    ok = models.BooleanField()
    answer = models.TextField()

    class Meta:
        ordering = ["-pk"]

    def __str__(self):
        return f"{self.get_question_display()} {self.cards}: {'yes' if self.ok else 'no'}"


class Photo(Recorded):
    """A photo of cards taken at a table, as stored: upright, re-encoded, without EXIF data."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="photos")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="photos")
    check_asked = models.ForeignKey(
        Check, on_delete=models.SET_NULL, null=True, blank=True, related_name="photos"
    )
    image = models.FileField(upload_to="photos/%Y/%m/")
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    # What the recognizer read: [{"card": "10H", "confidence": 0.97, "box": [x0, y0, x1, y1]}].
    detections = models.JSONField(default=list)

    class Meta:
        ordering = ["-pk"]

    def __str__(self):
        return f"Photo {self.pk} of {self.game}"

    def get_absolute_url(self):
        return reverse("photo", args=[self.pk])

    @property
    def unsure_indices(self) -> list[int]:
        """Where the cards read below the sure confidence are, in the order they were read."""
        return [
            index
            for index, found in enumerate(self.detections)
            if found["confidence"] < SURE_CONFIDENCE
        ]

    @property
    def marks(self) -> list[dict]:
        """Each card read, as a box to draw over the photo, flagged when the reading is unsure."""
        label_size = max(self.width, self.height) // 40
        return [
            {
                "card": found["card"],
                "percent": round(found["confidence"] * 100),
                "unsure": found["confidence"] < SURE_CONFIDENCE,
                "x": found["box"][0],
                "y": found["box"][1],
                "width": found["box"][2] - found["box"][0],
                "height": found["box"][3] - found["box"][1],
                "label_y": max(found["box"][1] - label_size // 3, label_size),
                "label_size": label_size,
            }
            for found in self.detections
        ]
