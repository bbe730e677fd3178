import secrets
from datetime import date
from functools import cached_property
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.db.models import F
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from recognizer.limits import SURE_CONFIDENCE
from rules import Card, HouseRules, Question, parse_cards, parse_ranks
from scorekeeper import actions


def new_invite_code() -> str:
    return secrets.token_urlsafe(8)


# 32 random bytes: 43 URL-safe characters, not guessable by trying addresses.
TV_TOKEN_LENGTH = 43


def new_tv_token() -> str:
    return secrets.token_urlsafe(32)


def default_time_zone() -> str:
    return settings.TIME_ZONE


class Role(models.TextChoices):
    """What a member may do in a club; each role may do all that the ones before it may."""

    VIEWER = "viewer", gettext_lazy("Viewer")
    SCORER = "scorer", gettext_lazy("Scorer")
    OWNER = "owner", gettext_lazy("Owner")

    @classmethod
    def invitable(cls) -> list[tuple[str, str]]:
        # An invite code never makes an owner: owners are made by an owner, one by one.
        return [(cls.SCORER, cls.SCORER.label), (cls.VIEWER, cls.VIEWER.label)]

    def allows(self, role: "Role") -> bool:
        order = list(Role)
        return order.index(self) >= order.index(role)


class ClubQuerySet(models.QuerySet):
    def for_user(self, user):
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)


# A club's tablet idle time, at least and at most: under ten minutes a round's long hand would
# sign the table's tablet out mid-round; over twelve hours it would outlast any club night.
TABLET_IDLE_MINUTES = (10, 720)


class Club(models.Model):
    """The group that plays together: it owns its players, seasons, rule profiles and tables."""

    name = models.CharField(max_length=80)
    invite_code = models.CharField(max_length=20, unique=True, default=new_invite_code)
    # An IANA name ("Europe/Paris"): the club's pages show dates and times there. The forms offer
    # zoneinfo's names; the column holds any, so a newer tzdata needs no migration.
    time_zone = models.CharField(max_length=64, default=default_time_zone)
    # What the invite code gives, set by the club's owners: a role, until a moment (or for ever).
    invite_role = models.CharField(max_length=6, choices=Role.invitable(), default=Role.SCORER)
    invite_expires_at = models.DateTimeField(null=True, blank=True)
    # Opens the club night page (tonight's tables and how the standings moved) to a TV without an
    # account while set, like a table's TV link; cleared to turn it off.
    tv_token = models.CharField(max_length=TV_TOKEN_LENGTH, null=True, blank=True, unique=True)
    # Its members' browsers are signed out after this many minutes without a page opened or a
    # tap (a screen's polls do not count); None: only when the session expires.
    tablet_idle_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(tablet_idle_minutes__isnull=True)
                | models.Q(
                    tablet_idle_minutes__gte=TABLET_IDLE_MINUTES[0],
                    tablet_idle_minutes__lte=TABLET_IDLE_MINUTES[1],
                ),
                name="club_tablet_idle_in_bounds",
            )
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("club", args=[self.pk])

    def owner(self):
        """The club's longest-standing owner, whom commands run for the club act as; None for a
        club with no owner (the services never leave one so, but a command must not crash)."""
        membership = self.memberships.filter(role=Role.OWNER).select_related("user").first()
        return membership.user if membership else None

    def today(self) -> date:
        """The date where the club plays, whatever the server's time zone or the active one."""
        return timezone.localdate(timezone=ZoneInfo(self.time_zone))

    @property
    def invite_open(self) -> bool:
        """Whether the invite code still lets newcomers in."""
        return self.invite_expires_at is None or timezone.now() < self.invite_expires_at


class Membership(models.Model):
    """A user in a club, with the role that says what they may do there."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=6, choices=Role, default=Role.SCORER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user_per_club")
        ]

    def __str__(self):
        return f"{self.user} in {self.club} ({self.get_role_display().lower()})"


class PlayerQuerySet(models.QuerySet):
    def playing(self):
        """The club's roster: players offered for new tables (not deleted after playing)."""
        return self.filter(retired=False)


class Player(models.Model):
    """A name at the club's tables; not necessarily somebody with an account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=40)
    # Deleted by an owner after playing: kept, name and all, for the finished tables and the
    # standings, but no longer in the roster nor offered for new tables.
    retired = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # The member who said "This is me": one account a player (this one field), one player an
    # account in each club (the constraint). Unlinked when they leave the club.
    account = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint("club", Lower("name"), name="player_unique_name_per_club"),
            models.UniqueConstraint(
                fields=["club", "account"], name="player_one_per_account_per_club"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("player", args=[self.pk])


class SeasonQuerySet(models.QuerySet):
    def running_on(self, day):
        """Seasons started by `day` and not ended: `ends_on` is the first day a season is over."""
        return self.filter(starts_on__lte=day).exclude(ends_on__lte=day)

    def current(self, club: Club):
        """The club's newest season that has started and not ended: where its new tables go by
        default. Today is the club's (`Club.today`), whatever time zone is active."""
        return self.filter(club=club).running_on(club.today()).first()


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60)
    starts_on = models.DateField()
    # The first day the season is over (closing a season ends it today); none while it runs on.
    ends_on = models.DateField(null=True, blank=True)
    # Opens the season's standings to people without an account while set; cleared to revoke.
    share_token = models.CharField(max_length=64, null=True, blank=True, unique=True)

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-starts_on", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_unique_name_per_club"),
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True) | models.Q(ends_on__gte=F("starts_on")),
                name="season_ends_after_start",
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("season_standings", args=[self.pk])


class RulesProfile(models.Model):
    """A club's named set of house rules: every setting of HouseRules, stored as a dict."""

    # A club's seed rules are named in its creator's language when it is made (services/clubs.py),
    # then they are the club's own name, which an owner may change.
    SEED_NAME = gettext_noop("Seed rules")

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

    @classmethod
    def seed_names(cls) -> set[str]:
        """The names the seed rules are made under, in each language of the app."""
        names = {cls.SEED_NAME}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                names.add(_(cls.SEED_NAME))
        return names

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
        indexes = [models.Index(fields=["club", "-started_at", "-id"], name="game_club_newest")]

    def __str__(self):
        return _("Table %(number)s (%(date)s)") % {
            "number": self.pk,
            "date": f"{self.started_at:%Y-%m-%d}",
        }

    def get_absolute_url(self):
        return reverse("game", args=[self.pk])

    @cached_property
    def house_rules(self) -> HouseRules:
        # A table keeps the rules it started with: read once an object, not once a use.
        return HouseRules.from_dict(self.rules)

    @property
    def contract_count(self) -> int:
        return len(self.rules["contracts"])


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
    # Text: what a hand held is bounded by the rules' card limits, not by a column width. In
    # canonical notation (rules.format_cards) of what the score entry read: cards typed or read
    # from a photo ("KH 7S"), or ranks alone from the keypad ("K 7 JK"); `card_list` reads it.
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

    @property
    def card_list(self) -> list[Card]:
        """What the hand held, read by the parser the score entry wrote it with: suits optional."""
        return parse_ranks(self.cards)


class Recorded(models.Model):
    """Something done at a table: who did it, and when."""

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class TableLink(Recorded):
    """The unguessable address that shows a table on a TV without an account. One per table;
    revoking deletes it, so the old address is a 404 at once."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="tv_link")
    token = models.CharField(max_length=TV_TOKEN_LENGTH, unique=True, default=new_tv_token)

    def __str__(self):
        return f"TV link of {self.game}"

    def get_absolute_url(self):
        return reverse("tv", args=[self.token])


class Event(Recorded):
    """The table's history: every action and every score change, with what it was and became."""

    Kind = actions.Kind  # declared with each kind's words in scorekeeper/actions.py

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    round = models.ForeignKey(
        Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="events"
    )
    # Choices named, not listed: a new kind (scorekeeper/actions.py) needs no migration.
    kind = models.CharField(max_length=20, choices=actions.kind_choices)
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
        BOOK = "book", gettext_lazy("Book")
        RUN = "run", gettext_lazy("Run")

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

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checks")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="checks")
    # The rules engine's questions (rules.Question), stored by their codes.
    question = models.CharField(
        max_length=10, choices=[(question.value, question.label) for question in Question]
    )
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

    @property
    def card_list(self) -> list[Card]:
        return parse_cards(self.cards)


class PhotoStatus(models.TextChoices):
    READING = "reading", gettext_lazy("being read")
    READ = "read", gettext_lazy("read")
    UNREADABLE = "unreadable", gettext_lazy("could not be read")


class Photo(Recorded):
    """A photo of cards taken at a table. Kept as uploaded while a worker reads it, then as
    stored: upright, re-encoded, without EXIF data, a JPEG at the size the recognizer reads."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="photos")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="photos")
    check_asked = models.ForeignKey(
        Check, on_delete=models.SET_NULL, null=True, blank=True, related_name="photos"
    )
    # The player whose hand it was taken of, for the score entry; none for the meld checker's.
    seat = models.ForeignKey(
        Seat, on_delete=models.SET_NULL, null=True, blank=True, related_name="photos"
    )
    image = models.FileField(upload_to="photos/%Y/%m/")
    # The file's size in bytes, so a club's photo quota is summed without opening the files.
    size = models.PositiveIntegerField(default=0)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    # What the recognizer read: [{"card": "10H", "confidence": 0.97, "box": [x0, y0, x1, y1]}].
    detections = models.JSONField(default=list)
    # Where it looked but was unsure: its strongest readings too weak to count, alike, for the
    # player to add with a tap a card the count check says was missed.
    unread = models.JSONField(default=list)
    # A second photo of a hand too wide for one: read together with the hand's photo before it.
    second = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=PhotoStatus, default=PhotoStatus.READ)
    # Why it could not be read, in the player's words; its file is then deleted.
    problem = models.CharField(max_length=200, blank=True)

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
    def label_size(self) -> int:
        """The marks' labels' size in the photo's pixels, before photos.js fits them on screen."""
        return max(self.width, self.height) // 40

    @property
    def marks(self) -> list[dict]:
        """Each card read, as a box to draw over the photo, flagged when the reading is unsure."""
        label_size = self.label_size
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


# A result's figures that the standings and a player page add up (its two covering indexes).
RESULT_FIGURES = [
    "place",
    "place_shared",
    "total",
    "rounds",
    "rounds_won",
    "shanghai_claims",
    "may_i_used",
]


class Result(models.Model):
    """A player's finish at a finished table and their rating after it. Written when the table
    finishes and rewritten, with every later table's, when a finished table changes; standings
    and player pages read these rows instead of replaying the rounds."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="results")
    # Copied from the table so standings filter and order without joining it.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="results")
    finished_at = models.DateTimeField()
    place = models.PositiveSmallIntegerField()
    # Another player finished on the same place (a shared win when the place is 1).
    place_shared = models.BooleanField(default=False)
    total = models.IntegerField()
    rounds = models.PositiveSmallIntegerField()
    rounds_won = models.PositiveSmallIntegerField(default=0)
    shanghai_claims = models.PositiveSmallIntegerField(default=0)
    may_i_used = models.PositiveSmallIntegerField(default=0)
    # Points left in hand per contract, [contract 1, contract 2, ...], and the other players'
    # places at the table, {"player id": place}: so a player page reads only the player's rows.
    points_left = models.JSONField(default=list)
    others = models.JSONField(default=dict)
    # Plackett-Luce rating after this table: mean, uncertainty, and the conservative figure
    # (mu - 3 sigma) shown; `trend` is the change of that figure over the player's last 5 tables.
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField()
    rating_before = models.FloatField()
    trend = models.FloatField(default=0)

    class Meta:
        ordering = ["finished_at", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="result_unique_player"),
            models.CheckConstraint(condition=models.Q(place__gte=1), name="result_place_positive"),
        ]
        indexes = [
            models.Index(fields=["player", "finished_at", "game"], name="result_player_order"),
            # Holds every figure a player page adds up, so they are summed from the index alone.
            models.Index(
                fields=["player", "season", *RESULT_FIGURES], name="result_player_figures"
            ),
            models.Index(fields=["club", "finished_at", "game"], name="result_club_order"),
            # Holds every column the standings add up, so they are summed from the index alone.
            models.Index(
                fields=["club", "season", "player", *RESULT_FIGURES], name="result_standings"
            ),
        ]

    def __str__(self):
        return f"{self.player} placed {self.place} at {self.game}"


class Rivalry(models.Model):
    """How a player fared against another at the tables of a season they both finished: kept with
    the results (scorekeeper.services.tallies), so a player page reads a row per rival and season
    however many tables they shared. Removed when its last table is."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField()
    # Tables the player finished ahead of the other, and behind (the rest, level).
    ahead = models.PositiveIntegerField(default=0)
    behind = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "season", "other"], name="rivalry_unique"),
            models.CheckConstraint(
                condition=models.Q(games__gte=1) & models.Q(games__gte=F("ahead") + F("behind")),
                name="rivalry_within_games",
            ),
        ]

    def __str__(self):
        return f"{self.player} against {self.other} in {self.season}"


class PointsLeft(models.Model):
    """The points a player was left holding at one contract over a season's finished tables, and
    in how many rounds: kept with the results like `Rivalry`, for the player page's averages.
    Removed when its last table is."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    contract = models.PositiveSmallIntegerField()
    rounds = models.PositiveIntegerField()
    points = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name_plural = "points left"
        constraints = [
            models.UniqueConstraint(
                fields=["player", "season", "contract"], name="points_left_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(contract__gte=1, rounds__gte=1), name="points_left_counted"
            ),
        ]

    def __str__(self):
        return f"{self.player}'s points left at contract {self.contract} in {self.season}"


class MemberSession(models.Model):
    """A browser signed in to an account: the sessions themselves name no user, so the ones to
    end for "log out everywhere else" are found here."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signed_in"
    )
    session_key = models.CharField(max_length=40, unique=True)
    signed_in_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"{self.user} since {self.signed_in_at:%Y-%m-%d %H:%M}"


class AccountLanguage(models.Model):
    """The language a member chose for the app's pages and the e-mails sent to them (a code of
    settings.LANGUAGES); an account without one reads the app in its browser's language."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="language"
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)

    def __str__(self):
        return f"{self.user}: {self.language}"


class OwnerAction(models.Model):
    """What an owner did that changed who runs the club or what it keeps (roles, the invite
    code, removals, deletions, imports), in words, for the members page: the club's audit
    trail. Kept when the owner leaves; gone with the club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="owner_actions")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    summary = models.CharField(max_length=300)
    done_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-done_at", "-pk"]

    def __str__(self):
        who = self.user or _("A former member")
        return f"{who} {self.summary}"


class ImportStatus(models.TextChoices):
    QUEUED = "queued", gettext_lazy("waiting for a worker")
    IMPORTING = "importing", gettext_lazy("being imported")
    IMPORTED = "imported", gettext_lazy("imported")
    REFUSED = "refused", gettext_lazy("refused")


UNDER_WAY = [ImportStatus.QUEUED, ImportStatus.IMPORTING]


class ClubImport(Recorded):
    """A club export being imported into a club by a worker. The file is kept here only until
    the worker has imported or refused it; then what was imported, or why not, is."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="imports")
    status = models.CharField(max_length=10, choices=ImportStatus, default=ImportStatus.QUEUED)
    document = models.BinaryField(default=b"", editable=False)
    # The tables the file holds, counted when it was queued, to say what is being imported.
    tables = models.PositiveIntegerField(default=0)
    # The rows restored by model ({"player": 4, ...}), or why nothing was, in the player's words.
    counts = models.JSONField(default=dict, blank=True)
    problem = models.TextField(blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            # A second file would find the club no longer empty: one import a club at a time.
            models.UniqueConstraint(
                fields=["club"],
                condition=models.Q(status__in=UNDER_WAY),
                name="club_import_one_under_way",
            ),
        ]

    def __str__(self):
        return f"Import {self.pk} into {self.club_id} ({self.status})"

    def get_absolute_url(self):
        return reverse("club_import_progress", args=[self.pk])

    @property
    def under_way(self) -> bool:
        return self.status in UNDER_WAY


class Recount(models.Model):
    """A recount of a club's standings waiting for a worker: the ratings replayed from a table on
    (a finished table deleted or changed with later tables after it), or every result rewritten
    from the rounds (`rebuild`, the owners' button). One a club; the worker deletes it when done,
    so while it exists the standings are out of date."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    rebuild = models.BooleanField(default=False)
    # Replay from this place in game order (finished_at, table id) on; from the first table when
    # empty. The table itself may be gone, so its id is a number, not a key.
    since_finished_at = models.DateTimeField(null=True, blank=True)
    since_game_id = models.PositiveBigIntegerField(null=True, blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club"], name="recount_one_a_club"),
            models.CheckConstraint(
                condition=models.Q(since_finished_at__isnull=True, since_game_id__isnull=True)
                | models.Q(since_finished_at__isnull=False, since_game_id__isnull=False),
                name="recount_since_whole",
            ),
        ]

    def __str__(self):
        return f"Recount of club {self.club_id}"

    @property
    def since(self) -> tuple | None:
        """Where the replay starts, (finished_at, table id), or None for the first table."""
        if self.rebuild or self.since_finished_at is None:
            return None
        return (self.since_finished_at, self.since_game_id)
