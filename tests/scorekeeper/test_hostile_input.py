"""Hostile input, measured: Hypothesis posts random and malicious values to every form endpoint
of the app (long and odd Unicode, control, bidi and zero-width characters, HTML and SQL, huge,
negative, fractional and non-ASCII numbers, wrong types, missing and repeated fields, other
clubs' ids, forged versions) as each signed-in member. Never a 5xx; nothing comes back
unescaped; a refused request changes nothing. CI runs it on SQLite and PostgreSQL.

The endpoints come from the URL resolver: one without an entry in ENDPOINTS (or, with the reason,
in NOT_FORMS) fails `test_every_endpoint_is_fuzzed_or_said_why_not`."""

import os
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from axes.models import AccessAttempt
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.module_loading import import_string
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from scorekeeper.actions import TAPS
from scorekeeper.forms import ProfileForm
from scorekeeper.models import Game, Membership, Role
from tests.depth import examples
from tests.factories import (
    built_once,
    database_state,
    go_down,
    go_out,
    make_game,
    make_other_table,
    make_user,
    member_of,
    play_round,
    seats,
    stray_photo,
)

# slow: Hypothesis inside each of its 161 tests.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def member_as(role: Role) -> Callable[[Game], object]:
    """The table's club's member of `role`: its owner, or a newcomer given the role."""

    def member(game: Game):
        if role == Role.OWNER:
            return member_of(game)
        user = make_user()
        Membership.objects.create(club=game.club, user=user, role=role)
        return user

    return member


# Who posts: a signed-in member of the table's club of each role; every endpoint is fuzzed as
# each of them.
SIGNED_IN: dict[str, Callable[[Game], object]] = {role.value: member_as(role) for role in Role}

# Examples per endpoint and member: 3 in `make test`, 8 in CI (tests/depth.py), on SQLite and
# PostgreSQL. A longer hunt: HOSTILE_EXAMPLES=200.
EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", examples(dev=3, ci=8)))

MARKER = "<script>hostile()</script>"
MALICIOUS = [
    MARKER,
    f'"><img src=x onerror=alert(1)>{MARKER}',
    "'; DROP TABLE scorekeeper_player; --",
    "' OR '1'='1",
    "{{ 7|add:7 }}{% debug %}",
    "\x00",
    "Ann\x00",
    "A\u200bnn",
    "\u202eAnn\u202c",
    "\u2066\u2069\u200e\u200f\ufeff\u2060\u200d",
    "\t\r\n\x0b\x0c\x1b",
    "١٢",
    "²",
    "٣ books",
    "-1",
    "0",
    "1.5",
    "1e309",
    "9" * 25,
    "9" * 5000,
    "NaN",
    "-Infinity",
    "",
    " ",
    "[]",
    '{"a": 1}',
    "null",
    "../../etc/passwd",
    "x" * 5000,
    "🃏" * 300,
    "Z\u0351\u0352\u0357\u035b" * 50,
]
ODD = st.characters(
    codec="utf-8",
    categories=["Cc", "Cf", "Mn", "Zs", "Zl", "Zp", "So", "Nd", "Lo"],
)
HOSTILE = st.one_of(
    st.sampled_from(MALICIOUS),
    st.text(max_size=50),
    st.text(ODD, max_size=30),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.floats().map(str),
)


@dataclass
class Scene:
    """What an endpoint is posted to: the member's table, another club's table, and their ids."""

    game: Game
    stranger: Game

    def ids(self, kind: str) -> list[int]:
        """This club's rows of a kind, then the other club's: a form must refuse the latter."""
        return rows_of(self.game, kind) + rows_of(self.stranger, kind)

    def version(self) -> int:
        return Game.objects.values_list("version", flat=True).get(pk=self.game.pk)


def rows_of(game: Game, kind: str) -> list[int]:
    club = game.club
    match kind:
        case "seat":
            return [seat.pk for seat in seats(game)]
        case "meld":
            return [meld.pk for round_ in game.rounds.all() for meld in round_.melds.all()]
        case "photo":
            return list(game.photos.values_list("pk", flat=True))
    return list(getattr(club, f"{kind}s").values_list("pk", flat=True))


def plausible(kind: str, scene: Scene) -> st.SearchStrategy:
    """Values a player could type or a page could send for a field of this kind, so that some
    requests get past the form to the services and the database."""
    match kind:
        case "version":
            return st.sampled_from([0, 1, -1, 2**63]).map(str) | st.builds(
                lambda: str(scene.version())
            )
        case "seat" | "player" | "season" | "profile" | "meld" | "photo":
            ids = scene.ids(kind)
            return st.sampled_from(ids).map(str) if ids else st.just("1")
        case "cards":
            return st.sampled_from(
                ["7H 8H 9H JK", "K K 7 JK", "5H 5S 5D | 6C 6H 6S", "7H 7S 7D | 9C 9H 9S", "JK"]
            )
        case "name":
            return st.sampled_from(["Ann", "Zoë", "Spring", " New  one ", "Émile"])
        case "int":
            return st.integers(min_value=-5, max_value=60).map(str)
        case "bool":
            return st.sampled_from(["on", "true", "false", "0"])
        case "date":
            return st.sampled_from(["2026-03-01", "2026-02-30", "1-1-1", "99999-01-01"])
        case "question":
            return st.sampled_from([question.value for question in rules.Question])
        case "role":
            return st.sampled_from([*Role.values, "boss"])
        case "expires":
            return st.sampled_from(["", "1", "7", "30", "365"])
        case "time_zone":
            return st.sampled_from(["Europe/Paris", "Mars/Olympus", "UTC"])
        case "email":
            return st.sampled_from(["ann@example.org", "not an address", "a@b"])
        case "invite_code":
            return st.sampled_from([scene.stranger.club.invite_code, "nope"])
        case "contracts":
            return st.sampled_from(["2 books\n1 book 1 run", "3 runs no discard", "1b1r"])
        case "int_list":
            return st.sampled_from(["11, 11", "10,10,10,10,10,10,10", "15"])
        case "sort":
            return st.sampled_from(["place", "total", "-name", "rating"])
        case "file":
            return st.builds(
                SimpleUploadedFile,
                st.sampled_from(["hand.jpg", "../../x.png", f"{MARKER}.heic"]),
                st.binary(max_size=300),
            )
    return st.just(kind)  # a choice field's own value


@dataclass(frozen=True)
class Endpoint:
    """A form endpoint: its address for the scene, the fields it reads (name to kind), how the
    table is set up first, and whether the form is read from GET."""

    url: Callable[[Game], str] | None
    fields: dict[str, str] | Callable[[Scene], dict[str, str]] = field(default_factory=dict)
    setup: Callable[[Game], object] | None = None
    method: str = "post"


def club(name):
    return lambda game: reverse(name, args=[game.club_id])


def table(name, *args):
    return lambda game: reverse(name, args=[game.pk, *args])


def season(name):
    return lambda game: reverse(name, args=[game.club.seasons.first().pk])


def membership(name):
    # The club's newest member: the poster themself, but for the owner.
    return lambda game: reverse(name, args=[game.club.memberships.last().pk])


def fixed(name):
    return lambda game: reverse(name)


def score_fields(scene: Scene) -> dict[str, str]:
    fields = {"version": "version", "went_out": "seat", "rummy": "bool", "photo_seat": "seat"}
    for seat in seats(scene.game):
        fields |= {f"cards_{seat.pk}": "cards", f"points_{seat.pk}": "int"}
        fields[f"photo_{seat.pk}"] = "file"
    return fields


def profile_fields(scene: Scene) -> dict[str, str]:
    """Every field of the profile form, by what it holds."""
    kinds = {"name": "name", "contracts": "contracts", "cards_dealt": "int_list"}
    fields = {}
    for name, form_field in ProfileForm().fields.items():
        choices = [value for value, _ in getattr(form_field, "choices", [])]
        fields[name] = kinds.get(name) or (
            "bool" if getattr(form_field.widget, "input_type", "") == "checkbox" else "int"
        )
        if choices:
            fields[name] = choices[0]
    return fields


def scoring(game):
    go_out(game, seats(game)[0])


def someone_down(game):
    go_down(game, seats(game)[0], "7H 7S 7D | 9C 9H 9S")


def a_round_played(game):
    play_round(game, went_out=0, points=[10, 20, 30])


PLAY = {"version": "version", "seat": "seat"}
# What each field of a round screen's tap holds: the taps are fuzzed from their declaration
# (scorekeeper/actions.py), each with the fields its form cleans.
TAP_FIELDS = {**PLAY, "discarder": "seat", "rummy": "bool"}
CHECK = {"question": "question", "cards": "cards", "target": "int", "photo": "photo"}

ENDPOINTS: dict[str, Endpoint] = {
    "signup": Endpoint(
        fixed("signup"), {"username": "name", "email": "email", "password1": "name"}
    ),
    "login": Endpoint(fixed("login"), {"username": "name", "password": "name"}),
    "logout": Endpoint(fixed("logout")),
    "password_change": Endpoint(
        fixed("password_change"),
        {"old_password": "name", "new_password1": "name", "new_password2": "name"},
    ),
    "password_reset": Endpoint(fixed("password_reset"), {"email": "email"}),
    "account": Endpoint(fixed("account"), {"email": "email", "password": "name"}),
    "login_code": Endpoint(fixed("login_code"), {"code": "name"}),
    "two_factor_enable": Endpoint(fixed("two_factor_enable"), {"code": "name", "password": "name"}),
    "two_factor_codes": Endpoint(fixed("two_factor_codes"), {"password": "name"}),
    "two_factor_disable": Endpoint(fixed("two_factor_disable"), {"password": "name"}),
    "account_delete": Endpoint(fixed("account_delete"), {"password": "name"}),
    "account_language": Endpoint(fixed("account_language"), {"language": "name"}),
    "club": Endpoint(club("club"), {"page": "int"}, method="get"),
    "club_new": Endpoint(fixed("club_new"), {"name": "name", "time_zone": "time_zone"}),
    "club_join": Endpoint(fixed("club_join"), {"invite_code": "invite_code"}),
    "player_add": Endpoint(club("player_add"), {"name": "name"}),
    "season_add": Endpoint(
        club("season_add"), {"name": "name", "starts_on": "date", "ends_on": "date"}
    ),
    "club_time_zone": Endpoint(club("club_time_zone"), {"time_zone": "time_zone"}),
    "club_tablet_idle": Endpoint(club("club_tablet_idle"), {"minutes": "int"}),
    "invite_set": Endpoint(club("invite_set"), {"role": "role", "expires": "expires"}),
    "invite_rotate": Endpoint(club("invite_rotate")),
    "club_leave": Endpoint(club("club_leave")),
    "member_role": Endpoint(membership("member_role"), {"role": "role"}),
    "member_remove": Endpoint(membership("member_remove")),
    "club_delete": Endpoint(club("club_delete"), {"confirm_name": "name"}),
    "player_delete": Endpoint(
        lambda game: reverse("player_delete", args=[seats(game)[0].player_id])
    ),
    "profile_delete": Endpoint(lambda game: reverse("profile_delete", args=[game.profile_id])),
    "season_delete": Endpoint(season("season_delete")),
    "game_delete": Endpoint(table("game_delete")),
    "club_import": Endpoint(club("club_import"), {"document": "file"}),
    "club_recount": Endpoint(club("club_recount")),
    "profile_new": Endpoint(club("profile_new"), profile_fields),
    "profile_edit": Endpoint(
        lambda game: reverse("profile_edit", args=[game.club.profiles.first().pk]),
        profile_fields,
    ),
    "game_new": Endpoint(
        club("game_new"),
        {
            **{f"seat_{n}": "player" for n in range(6)},
            "first_dealer": "int",
            "season": "season",
            "profile": "profile",
        },
    ),
    **{
        tap.name: Endpoint(
            table(tap.name),
            {name: TAP_FIELDS[name] for name in import_string(tap.paths[0]).base_fields},
        )
        for tap in TAPS.values()
    },
    "undo": Endpoint(table("undo"), {"version": "version"}, setup=someone_down),
    "score": Endpoint(table("score"), score_fields, setup=scoring),
    "score_photo": Endpoint(table("score_photo"), score_fields, setup=scoring),
    "round_edit": Endpoint(table("round_edit", 1), score_fields, setup=a_round_played),
    "melds_record": Endpoint(table("melds_record"), {**PLAY, "melds": "cards"}),
    "lay_off": Endpoint(
        table("lay_off"),
        {**PLAY, "melds": "cards", "meld": "meld", "discarder": "seat"},
        setup=someone_down,
    ),
    "table_check": Endpoint(table("table_check"), CHECK, setup=someone_down),
    "table_photo": Endpoint(table("table_photo"), {"photo": "file"}),
    "photo_delete": Endpoint(
        lambda game: reverse("photo_delete", args=[stray_photo(game).pk]), {"next": "name"}
    ),
    "tv_link_create": Endpoint(table("tv_link_create")),
    "tv_link_revoke": Endpoint(table("tv_link_revoke")),
    "tonight_tv_link_create": Endpoint(club("tonight_tv_link_create")),
    "tonight_tv_link_revoke": Endpoint(club("tonight_tv_link_revoke")),
    "play_again": Endpoint(table("play_again")),
    "season_close": Endpoint(season("season_close")),
    "season_share": Endpoint(season("season_share")),
    "season_unshare": Endpoint(season("season_unshare")),
    "club_standings": Endpoint(
        club("club_standings"), {"sort": "sort", "min_games": "int"}, method="get"
    ),
    "season_standings": Endpoint(
        season("season_standings"), {"sort": "sort", "min_games": "int"}, method="get"
    ),
    "player": Endpoint(
        lambda game: reverse("player", args=[seats(game)[0].player_id]),
        {"season": "season"},
        method="get",
    ),
    "checker": Endpoint(
        fixed("checker"),
        {**CHECK, "profile": "profile", "contract": "int", "table": "cards"},
    ),
    "cards_preview": Endpoint(fixed("cards_preview"), {"cards": "cards"}, method="get"),
    "count_check": Endpoint(
        fixed("count_check"),
        {"box": "cards", "count": "held", "cards": "cards", "held": "int"},
        method="get",
    ),
    "checker_photo": Endpoint(fixed("checker_photo"), {"photo": "file", "question": "question"}),
}

# Addresses that read no form: why each is left out.
NOT_FORMS = {
    "home": "a list, no input",
    "members": "a list, no input",
    "table_photos": "a list, no input",
    "healthz": "no input",
    "healthz_tasks": "no input",
    "sessions_end": "a button, no input",
    "security_txt": "no input",
    "service_worker": "a static script, no input",
    "game": "the round screen: its forms post to the endpoints above",
    "game_live": "the poll: only If-None-Match, checked in test_views_live",
    "history": "a list, no input",
    "tv": "its address is its only input (test_views_screens)",
    "club_tonight": "a page and its poll, no input",
    "game_sheet": "a picture, no input",
    "player_me": "a button, no input",
    "player_unlink": "a button, no input",
    "tonight_sheet": "a picture, no input",
    "tonight_tv": "its address is its only input (test_views_tonight)",
    "shared_standings": "its address is its input; the same StandingsForm as season_standings",
    "photo": "an image, no input",
    "photo_reading": "a poll: its address is its only input (test_views_photos)",
    "checker_photo_reading": "a poll: its address is its only input (test_views_screens)",
    "club_import_progress": "a poll: its address and the status shown, compared, never stored "
    "(test_views_exports)",
    "club_recounting": "a poll: its address is its only input (test_views_clubs)",
    "rules_summary": "a page, no input",
    "club_export_json": "a download, no input",
    "club_export_csv": "a download, no input",
    "season_export_csv": "a download, no input",
    "password_change_done": "a page, no input",
    "password_reset_done": "a page, no input",
    "password_reset_complete": "a page, no input",
    "password_reset_confirm": "Django's own view; its address is a token Django checks",
    "email_confirm": "a button; its address is a signed token (test_views_accounts)",
}


def url_names(patterns, namespace="") -> set[str]:
    """Every named address of the app (Django's admin is Django's and left out)."""
    names = set()
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace != "admin":
                names |= url_names(pattern.url_patterns)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


def test_every_endpoint_is_fuzzed_or_said_why_not():
    names = url_names(get_resolver().url_patterns)
    assert names == set(ENDPOINTS) | set(NOT_FORMS)
    assert not set(ENDPOINTS) & set(NOT_FORMS)


def form_data(fields: dict[str, str], scene: Scene) -> st.SearchStrategy:
    """Each field missing, sent once or repeated, with a hostile or a plausible value; sometimes
    a field nobody asked for."""

    def sent(kind):
        # The marker often, so that the pages showing what was stored are checked for it.
        value = st.one_of(st.just(MARKER), HOSTILE, plausible(kind, scene))
        return st.one_of(value, st.none(), value, st.lists(value, min_size=2, max_size=3))

    known = st.fixed_dictionaries({name: sent(kind) for name, kind in fields.items()})
    extra = st.dictionaries(st.sampled_from(["seat_9", "id", "club", MARKER]), HOSTILE, max_size=1)
    return st.tuples(known, extra).map(
        lambda pair: {k: v for k, v in {**pair[1], **pair[0]}.items() if v is not None}
    )


REFUSED = ('role="alert"', 'class="error"', "errorlist", 'class="refusal"')


def refused(response) -> bool:
    body = response.content.decode(errors="replace")
    return response.status_code >= 400 or any(sign in body for sign in REFUSED)


def assert_escaped(response):
    assert MARKER.encode() not in response.content, "a hostile value came back unescaped"


@pytest.fixture(scope="module")
def stranger(django_db_setup, django_db_blocker):
    """Another club's table, as conftest's `stranger`, built once for the module's tests."""
    with built_once(django_db_blocker):
        yield make_other_table()


@pytest.mark.parametrize("who", SIGNED_IN)
@pytest.mark.parametrize("name", ENDPOINTS)
def test_hostile_input_is_refused_safely(client, name, who, stranger):
    endpoint = ENDPOINTS[name]
    game = make_game(players=4)
    if endpoint.setup:
        endpoint.setup(game)
    game.refresh_from_db()
    scene = Scene(game=game, stranger=stranger)
    user = SIGNED_IN[who](game)
    address = endpoint.url(game)
    fields = endpoint.fields(scene) if callable(endpoint.fields) else endpoint.fields

    accepted = []  # what was not refused

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
    @given(data=form_data(fields, scene), htmx=st.booleans())
    def post(data, htmx):
        if client.session.get("_auth_user_id") != str(user.pk):
            client.force_login(user)  # a sign-up, log-in or log-out in an earlier example moved it
        headers = {"HX-Request": "true"} if htmx else {}
        before = database_state()
        if endpoint.method == "get":
            response = client.get(address, data, headers=headers)
        else:
            response = client.post(address, data, headers=headers)
        assert response.status_code < 500
        assert_escaped(response)
        if refused(response):
            assert database_state() == before, f"a refused request changed rows: {data!r}"
        else:
            accepted.append(data)

    post()
    # What was stored shows escaped on the pages that show it (a refused request stored nothing).
    if accepted:
        client.force_login(user)
        for page in [game.club.get_absolute_url(), game.get_absolute_url()]:
            assert_escaped(client.get(page))


# What the fuzzing found, pinned.


def test_a_username_too_long_to_store_is_refused_before_a_login_is_tried(client):
    """Django's log-in form never checked the username's length, and a failed attempt stores it
    (django-axes, 255 characters): PostgreSQL refused it with a 500."""
    response = client.post(reverse("login"), {"username": "9" * 300, "password": "x"})
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    assert not AccessAttempt.objects.exists()
