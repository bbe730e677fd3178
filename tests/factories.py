"""Small builders of test data, made in code (no fixtures files), and the few readers the app's
tests share: a snapshot of every row a view could write, and what a refusal must look like."""

import dataclasses
import html
import time
from binascii import unhexlify
from contextlib import contextmanager
from itertools import count
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.urls import reverse
from django_otp.oath import TOTP
from django_otp.util import random_hex
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

import rules
from scorekeeper import models, services
from scorekeeper.models import (
    Club,
    Game,
    Hand,
    Photo,
    Player,
    Round,
    RulesProfile,
    Season,
    Seat,
)

_serial = count(1)

# A phone photo of a meld of sixes, one of the recognizer's development photos.
PHOTO = Path(__file__).resolve().parent / "recognition" / "photos" / "phone_010.jpg"

HUGE = "99999999999999999999"  # beyond a 64-bit integer
JUNK = "ZZ ?? <b>&</b> 🂡 " * 40  # 500-odd characters nobody can read as cards


# The password every account the tests make is given unless told otherwise.
PASSWORD = "a-long-test-password"


def make_user(username: str | None = None, password: str = PASSWORD):
    username = username or f"user{next(_serial)}"
    return get_user_model().objects.create_user(username=username, password=password)


def app_code(key: str, steps_ahead: int = 1) -> str:
    """The code an authenticator app given `key` (hex) shows, computed by django-otp's own TOTP,
    `steps_ahead` steps of 30 s from now (a code already used, by its step, is refused again)."""
    app = TOTP(unhexlify(key))
    app.time = time.time() + 30 * steps_ahead
    return f"{app.token():06d}"


def two_factor_turn_on(user, password: str = "a-long-test-password") -> tuple[str, list[str]]:
    """Two-factor sign-in turned on for `user` by the service the page calls: the app's key
    and the recovery codes."""
    key = random_hex(20)
    codes = services.two_factor_enable(
        user=user, password=password, key=key, code=app_code(key, steps_ahead=0)
    )
    return key, codes


def log_in_with_code(client, user, key: str, steps_ahead: int = 1):
    """Log in through the forms, the password then the app's code; the code step's answer."""
    form = {"username": user.get_username(), "password": "a-long-test-password"}
    assert client.post(reverse("login"), form)["Location"] == reverse("login_code")
    return client.post(reverse("login_code"), {"code": app_code(key, steps_ahead)})


def make_club(user=None, name: str | None = None) -> Club:
    return services.club_create(user=user or make_user(), name=name or f"Club {next(_serial)}")


def make_player(club: Club, name: str | None = None, *, owner=None) -> Player:
    return services.player_create(
        user=owner or club.owner(), club=club, name=name or f"Player {next(_serial)}"
    )


def make_game(
    club: Club | None = None,
    players: int | list[Player] = 4,
    *,
    user=None,
    first_dealer: int = 0,
    profile: RulesProfile | None = None,
    seated: list[Player] | None = None,
    season: Season | None = None,
) -> Game:
    """A table of `players` new players, or of the players given, in that order."""
    club = club or make_club(user)
    user = user or club.memberships.first().user
    if isinstance(players, list):
        seated = players
    if not seated:
        owner = club.owner()
        seated = [make_player(club, owner=owner) for _ in range(players)]
    return services.game_start(
        club=club,
        user=user,
        players=seated,
        first_dealer=first_dealer,
        season=season or club.seasons.first(),
        profile=profile or club.profiles.first(),
    )


def play_round(game: Game, *, went_out: int = 0, points: list[int] | None = None, user=None):
    """Play the current round: seat `went_out` goes out, the others score `points` in seat order."""
    seats = list(game.seats.all())
    user = user or game.created_by
    game.refresh_from_db()
    services.round_record_went_out(game=game, version=game.version, seat=seats[went_out], user=user)
    others = [seat for seat in seats if seat.position != went_out]
    points = points or [10 * (n + 1) for n in range(len(others))]
    entries = {
        seat.pk: rules.HandEntry(points=value) for seat, value in zip(others, points, strict=True)
    }
    services.round_score(game=game, version=game.version, entries=entries, user=user)
    return game


def seats(game: Game) -> list[Seat]:
    return list(game.seats.order_by("position").select_related("player"))


def hand_of(game: Game, seat: Seat) -> Hand:
    """The seat's hand in the round being played."""
    return Hand.objects.get(round__game=game, round__finished_at__isnull=True, seat=seat)


def member_of(game: Game):
    return game.club.memberships.get().user


def go_down(game: Game, seat: Seat, melds_text: str):
    game.refresh_from_db()
    return services.melds_record(
        game=game,
        version=game.version,
        seat=seat,
        melds=rules.parse_melds(melds_text),
        user=game.created_by,
    )


def go_out(game: Game, seat: Seat):
    game.refresh_from_db()
    services.round_record_went_out(game=game, version=game.version, seat=seat, user=game.created_by)
    game.refresh_from_db()


def eleventh_sign_up(client, address: str = "10.0.0.5"):
    """Ten sign-ups from one address, then the answer to the eleventh (user "u10"): the limit."""
    for n in range(11):
        data = {"username": f"u{n}", "password1": "Tab1e-talk!", "password2": "Tab1e-talk!"}
        response = client.post(reverse("signup"), data, REMOTE_ADDR=address)
        client.logout()
    return response


@contextmanager
def built_once(django_db_blocker):
    """For a module-scoped fixture: rows built once for the module's tests, in a transaction that
    each test's own nests in (what a test did is undone with it), rolled back when the module is
    done."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


def make_other_table() -> Game:
    """Another club's table, with a meld on it and a photo of it: what no form of this club's
    table may reach."""
    other = make_game(players=4)
    go_down(other, seats(other)[0], "5H 5S 5D | 6C 6H 6S")
    stray_photo(other)
    other.refresh_from_db()
    return other


def stray_photo(game: Game) -> Photo:
    """A photo row of `game` without reading a real image (the file is never opened)."""
    return Photo.objects.create(
        game=game,
        round=game.rounds.order_by("number").last(),
        width=1,
        height=1,
        detections=[],
        image="photos/stray.jpg",
    )


def kept_photo(game: Game, size: int = 1000, content: bytes | None = None, **fields) -> Photo:
    """A photo of the table's latest round with a real file in the media folder: `content`, or
    `size` bytes that are not an image (nothing but a browser reads a kept photo's file)."""
    content = content if content is not None else b"x" * size
    return Photo.objects.create(
        game=game,
        round=game.rounds.order_by("number").last(),
        width=1,
        height=1,
        size=len(content),
        image=ContentFile(content, name="kept.jpg"),
        **fields,
    )


def make_worker(name: str = "tests", *, interval: float = 0) -> Worker:
    """django-tasks-db's own worker, as `db_worker` makes it, taking tasks from every queue."""
    return Worker(
        queue_names=["*"],
        interval=interval,
        batch=False,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=name,
        excluded_queue_names=[],
    )


def run_tasks() -> int:
    """Run every queued task (photos to read, ...) with django-tasks-db's own worker, claiming
    each as `db_worker` does, until none is left; returns how many. Not `db_worker` itself: its
    loop closes the database connection between tasks, which would end the test's transaction."""
    worker = make_worker()
    ran = 0
    while (queued := DBTaskResult.objects.ready().get_locked()) is not None:
        queued.claim(worker.worker_id)
        worker.run_task(queued)
        ran += 1
    return ran


def url(name: str, game: Game, *args) -> str:
    return reverse(name, args=[game.pk, *args])


def bad_seat(value: str, stranger: Game):
    """A seat a table's forms must refuse, as a form posts it: "other table" stands for a seat
    of `stranger`."""
    return seats(stranger)[1].pk if value == "other table" else value


def score_data(game: Game, **overrides) -> dict:
    """A valid score entry for the three who did not go out, with some fields replaced:
    `overrides` keys are cards_N / points_N, N being the seat's position."""
    first, second, third = seats(game)[1:]
    data = {
        "version": game.version,
        f"cards_{first.pk}": "7 8",
        f"points_{first.pk}": "",
        f"cards_{second.pk}": "",
        f"points_{second.pk}": "25",
        f"cards_{third.pk}": "K JK",
        f"points_{third.pk}": "",
    }
    by_position = {seat.position: seat.pk for seat in seats(game)}
    for key, value in overrides.items():
        field, position = key.rsplit("_", 1)
        data[f"{field}_{by_position[int(position)]}"] = value
    return data


def profile_data(house_rules: rules.HouseRules | None = None, name="House", **changes) -> dict:
    """What the profile form posts for these rules (the seed rules by default), with some fields
    changed."""
    from scorekeeper.forms import ProfileForm

    return profile_posted(ProfileForm(house_rules=house_rules, name=name)) | changes


def profile_posted(form) -> dict:
    """What a profile form, as a page shows it, posts when nothing on it is changed."""
    data = {}
    for bound in form:
        value = bound.initial if bound.initial is not None else bound.field.initial
        if isinstance(value, bool):
            if value:
                data[bound.html_name] = "on"
        elif value is not None:
            data[bound.html_name] = value
    return data


def _state_queries() -> dict:
    """What `database_state` reads: every row a view could write."""
    rows = {
        models.Game: ("version", "finished_at"),
        models.Seat: ("player_id", "position"),
        models.Round: ("went_out_id", "finished_at"),
        models.Hand: ("may_i_used", "went_down", "cards", "points"),
        models.Event: ("kind",),
        models.TableMeld: ("cards",),
        models.Check: (),
        models.Photo: ("check_asked_id",),
        models.Player: ("name",),
        models.Season: ("name", "ends_on", "share_token"),
        models.RulesProfile: ("name", "settings"),
        models.Club: (
            "name",
            "time_zone",
            "invite_code",
            "invite_role",
            "invite_expires_at",
            "tv_token",
        ),
        models.Membership: ("user_id", "role"),
        models.TableLink: ("token",),
        models.ClubImport: ("status",),
        models.Recount: ("rebuild", "since_finished_at", "since_game_id"),
    }
    return {
        model.__name__: model.objects.order_by("pk").values_list("pk", *fields)
        for model, fields in rows.items()
    }


_STATE_SQL: dict[str, list] = {}


def database_state() -> dict:
    """Every row a view could write, in a form two snapshots can be compared by (as the
    database stores it). Hundreds of tests take it twice a request, so its queries are
    compiled once for each database vendor."""
    if connection.vendor not in _STATE_SQL:
        _STATE_SQL[connection.vendor] = [
            (name, *queryset.query.sql_with_params()) for name, queryset in _state_queries().items()
        ]
    state = {}
    with connection.cursor() as cursor:
        for name, sql, params in _STATE_SQL[connection.vendor]:
            cursor.execute(sql, params)
            state[name] = cursor.fetchall()
    return state


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def assert_refused(response, *words, status=(200,)):
    """A page that says, next to the form or at the top, what is wrong."""
    assert response.status_code in status, response.status_code
    body = text_of(response)
    assert 'role="alert"' in body or 'class="error"' in body or "errorlist" in body, body[:400]
    for word in filter(None, words):  # a table's case may name no words ("")
        assert word.lower() in body.lower(), f"{word!r} not in the answer"
    return body


def record_check(game: Game, round_: Round, cards: str = "8H 8S 8D"):
    """Ask the meld checker about `cards` at the table in `round_`; the question kept."""
    services.check_ask(
        game=game,
        round_=round_,
        question=rules.Question.MELD,
        cards=rules.parse_melds(cards),
        user=game.created_by,
    )
    return game.checks.latest("pk")


def table_rows(game: Game):
    """What undo must restore: the round's hands, who went out, the melds on the table."""
    round_ = game.rounds.get(finished_at__isnull=True)
    return (
        round_.went_out_id,
        list(round_.hands.order_by("pk").values_list("went_down", "may_i_used", "cards")),
        list(round_.melds.values_list("cards")),
    )


def post_refused(client, target: str, data: dict, *words, status=(200,), **extra) -> str:
    """POST `data` to `target`: the answer says what is wrong (see assert_refused), and every
    row stays as it was. Returns the answer's text."""
    before = database_state()
    body = assert_refused(client.post(target, data, **extra), *words, status=status)
    assert database_state() == before
    return body


def finish_game(game: Game, rounds: list[tuple[int, list[int]]] | None = None) -> Game:
    """Play every contract left: each (went_out, points) plays one round as `play_round` does;
    by default seat 0 goes out of every round and the others score 10, 20, 30..."""
    left = game.contract_count - game.rounds.filter(finished_at__isnull=False).count()
    for went_out, points in rounds or [(0, None)] * left:
        play_round(game, went_out=went_out, points=points)
    game.refresh_from_db()
    assert game.finished_at is not None
    return game


def act(service, game: Game, **kwargs):
    """Call a table service as the table's creator would, from an up-to-date screen."""
    game.refresh_from_db()
    return service(game=game, version=game.version, user=game.created_by, **kwargs)


def make_tables(user, *, club: str, players: list[str]) -> dict[str, str]:
    """A club with five players, the first of them the user's ("This is me"), and three tables:
    one in play (May I?s, one of them taken back, melds and Shanghai claims on the table, a TV
    link), one whose round is being scored, one finished (a Shanghai claim in its first
    contract), and four short tables finished (one contract each), so that every player is
    rated. Returns each page type's URL."""
    club = make_club(user, name=club)
    seated = [make_player(club, name) for name in players]
    # The user is the first player: the home page shows their tables and seasons.
    services.player_account_link(player=seated[0], user=user)
    profile = club.profiles.get()

    def start(rules_profile=profile):
        return make_game(club, seated, user=user, profile=rules_profile)

    playing = start()
    ann, ben, cleo, dev, eve = seats(playing)
    act(services.may_i_spend, playing, seat=ben)
    act(services.may_i_spend, playing, seat=eve)
    act(services.may_i_spend, playing, seat=eve)
    books = [rules.parse_cards("7H 7S 7D"), rules.parse_cards("KC KD JK")]
    act(services.melds_record, playing, seat=dev, melds=books)
    act(services.shanghai_record, playing, seat=cleo, discarder=dev)
    act(services.shanghai_record, playing, seat=cleo, discarder=eve)
    act(services.may_i_spend, playing, seat=ann)
    act(services.action_undo, playing)

    scoring = start()
    act(services.round_record_went_out, scoring, seat=seats(scoring)[2])

    finished = start()
    first, second, *_ = seats(finished)
    act(services.hand_mark_down, finished, seat=first)
    act(services.shanghai_record, finished, seat=second, discarder=first)
    for number in range(7):
        play_round(finished, went_out=number % 5, points=[5, 10, 15, 20])
    kept_photo(playing, content=PHOTO.read_bytes(), seat=ben)

    seed = profile.house_rules
    short = services.profile_save(
        club=club,
        user=user,
        name="One contract",
        house_rules=dataclasses.replace(
            seed, contracts=seed.contracts[:1], cards_dealt=seed.cards_dealt[:1]
        ),
    )
    for number in range(4):
        play_round(start(short), went_out=number % 5, points=[40, 5, 25, 60])
    season = club.seasons.get()
    services.season_share(season=season, user=user)
    # What an import's page says once a worker has imported a file (into another club).
    imported = models.ClubImport.objects.create(
        club=make_club(user, name=f"{club.name}, imported"),
        created_by=user,
        status=models.ImportStatus.IMPORTED,
        counts={"player": 5, "season": 1, "game": 7},
    )
    return {
        "home": "/",
        "club": club.get_absolute_url(),
        "new table": reverse("game_new", args=[club.pk]),
        "round screen": playing.get_absolute_url(),
        "score entry": scoring.get_absolute_url(),
        "game over": finished.get_absolute_url(),
        "round edit": reverse("round_edit", args=[finished.pk, 1]),
        "history": reverse("history", args=[playing.pk]),
        "tv": services.tv_link_create(game=playing, user=user).get_absolute_url(),
        "table photos": reverse("table_photos", args=[playing.pk]),
        "table deletion": reverse("game_delete", args=[finished.pk]),
        "club deletion": reverse("club_delete", args=[club.pk]),
        "checker": reverse("checker"),
        "table checker": reverse("table_check", args=[playing.pk]),
        "rules summary": reverse("rules_summary", args=[profile.pk]),
        "profile form": reverse("profile_edit", args=[profile.pk]),
        "account": reverse("account"),
        "two-factor sign-in": reverse("two_factor_enable"),
        "standings": reverse("club_standings", args=[club.pk]),
        # Sorted by one of the columns shown on asking: every column is shown.
        "standings, every column": f"{reverse('club_standings', args=[club.pk])}?sort=-best",
        "season standings": season.get_absolute_url(),
        "shared standings": reverse("shared_standings", args=[season.share_token]),
        "player": seated[0].get_absolute_url(),
        "members": reverse("members", args=[club.pk]),
        "new club": reverse("club_new"),
        "club import": reverse("club_import", args=[club.pk]),
        "new profile": reverse("profile_new", args=[club.pk]),
        "player deletion": reverse("player_delete", args=[seated[0].pk]),
        "profile deletion": reverse("profile_delete", args=[short.pk]),
        "season deletion": reverse("season_delete", args=[season.pk]),
        "password change": reverse("password_change"),
        "password changed": reverse("password_change_done"),
        "club import done": imported.get_absolute_url(),
        "tv at game over": services.tv_link_create(game=finished, user=user).get_absolute_url(),
        "tonight": reverse("club_tonight", args=[club.pk]),
        "tonight on the tv": reverse(
            "tonight_tv", args=[services.club_tv_link_create(club=club, user=user).tv_token]
        ),
    }


# The pages of a signed-in member are the ones make_tables lists; these are the
# pages of a visitor without an account. Together they are every page of the app (checked by
# browser/test_screens.py's test_the_screens_cover_every_page).
ANONYMOUS_PAGES = {
    "login": "/accounts/login/",
    "signup": "/accounts/signup/",
    "password reset": "/accounts/password_reset/",
    "password reset sent": "/accounts/password_reset/done/",
    "password reset link": "/accounts/reset/MQ/not-a-token/",
    "password reset done": "/accounts/reset/done/",
    # With nothing pending, the log-in again (the code's page is test_two_factor's).
    "log-in code": "/accounts/login/code/",
    "e-mail confirmation link": "/accounts/email/confirm/not-a-token/",
}
