"""Bad input at every view: a clear message in the player's words (or a 4xx), never a 500, and
the database exactly as it was. Another club's objects are a 404 and stay untouched."""

import html

import pytest
from django.urls import reverse

import rules
from scorekeeper import services
from scorekeeper.forms import ProfileForm
from scorekeeper.models import (
    Check,
    Club,
    Event,
    Game,
    Hand,
    Membership,
    Photo,
    Player,
    Round,
    RulesProfile,
    Season,
    Seat,
    TableMeld,
)
from tests.factories import make_club, make_game, make_player, play_round

pytestmark = pytest.mark.django_db

HUGE = "99999999999999999999"  # beyond a 64-bit integer
JUNK = "ZZ ?? <b>&</b> 🂡 " * 40  # 500-odd characters nobody can read as cards


def database_state() -> dict:
    """Every row a view could write, in a form two snapshots can be compared by."""
    return {
        "games": list(Game.objects.order_by("pk").values_list("pk", "version", "finished_at")),
        "seats": list(Seat.objects.order_by("pk").values_list("pk", "player_id", "position")),
        "rounds": list(
            Round.objects.order_by("pk").values_list("pk", "went_out_id", "finished_at")
        ),
        "hands": list(
            Hand.objects.order_by("pk").values_list(
                "pk", "may_i_used", "went_down", "cards", "points"
            )
        ),
        "events": list(Event.objects.order_by("pk").values_list("pk", "kind")),
        "melds": list(TableMeld.objects.order_by("pk").values_list("pk", "cards")),
        "checks": Check.objects.count(),
        "photos": list(Photo.objects.order_by("pk").values_list("pk", "check_asked_id")),
        "players": list(Player.objects.order_by("pk").values_list("pk", "name")),
        "seasons": list(Season.objects.order_by("pk").values_list("pk", "name")),
        "profiles": list(RulesProfile.objects.order_by("pk").values_list("pk", "name", "settings")),
        "clubs": list(Club.objects.order_by("pk").values_list("pk", "name")),
        "memberships": Membership.objects.count(),
    }


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def assert_refused(response, *words, status=(200,)):
    """A page that says, next to the form or at the top, what is wrong."""
    assert response.status_code in status, response.status_code
    body = text_of(response)
    assert 'role="alert"' in body or 'class="error"' in body or "errorlist" in body, body[:400]
    for word in words:
        assert word.lower() in body.lower(), f"{word!r} not in the answer"
    return body


def seats(game) -> list[Seat]:
    return list(game.seats.order_by("position").select_related("player"))


def member_of(game):
    return game.club.memberships.get().user


def go_down(game, seat, melds_text):
    game.refresh_from_db()
    return services.melds_record(
        game=game, version=game.version, seat=seat, melds=rules.parse_melds(melds_text), user=None
    )


def go_out(game, seat):
    game.refresh_from_db()
    services.round_record_went_out(game=game, version=game.version, seat=seat, user=None)
    game.refresh_from_db()


def stray_photo(game) -> Photo:
    """A photo row of `game` without reading a real image (the file is never opened)."""
    return Photo.objects.create(
        game=game,
        round=game.rounds.order_by("number").last(),
        width=1,
        height=1,
        detections=[],
        image="photos/stray.jpg",
    )


@pytest.fixture
def game():
    return make_game(players=4)


@pytest.fixture
def member(client, game):
    client.force_login(member_of(game))
    return member_of(game)


@pytest.fixture
def stranger():
    """Another club's table, with a meld on it and a photo of it."""
    other = make_game(players=4)
    go_down(other, seats(other)[0], "5H 5S 5D | 6C 6H 6S")
    stray_photo(other)
    other.refresh_from_db()
    return other


def url(name, game, *args):
    return reverse(name, args=[game.pk, *args])


# The version every write to a table carries


BAD_VERSIONS = ["", "abc", "-1", "1.5", "1e3", " ", None, "7"]
TABLE_WRITES = ["may_i", "went_down", "went_out", "shanghai", "undo"]


@pytest.mark.parametrize("version", BAD_VERSIONS)
@pytest.mark.parametrize("name", TABLE_WRITES)
def test_a_bad_version_saves_nothing_and_says_why(client, member, game, name, version):
    data = {"seat": seats(game)[0].pk}
    if version is not None:
        data["version"] = version
    before = database_state()
    response = client.post(url(name, game), data)
    assert_refused(response, "nothing was saved", status=(200, 409))
    assert database_state() == before


@pytest.mark.parametrize("name", ["may_i", "undo"])
def test_a_version_too_large_for_the_database_is_stale(client, member, game, name):
    before = database_state()
    response = client.post(url(name, game), {"version": HUGE, "seat": seats(game)[0].pk})
    assert_refused(response, "nothing was saved", status=(200, 409))
    assert database_state() == before


@pytest.mark.parametrize("name", ["melds_record", "lay_off"])
@pytest.mark.parametrize("version", ["", "abc", "-1", None, "7"])
def test_checker_recordings_with_a_bad_version_save_nothing(client, member, game, name, version):
    first = seats(game)[0]
    go_down(game, first, "7H 7S 7D | 9C 9H 9S")
    meld = TableMeld.objects.filter(owner=first).first()
    data = {"seat": first.pk, "melds": "7C", "meld": meld.pk}
    if version is not None:
        data["version"] = version
    before = database_state()
    response = client.post(url(name, game), data)
    assert_refused(response, "nothing was saved", status=(200, 409))
    assert database_state() == before


# Seats that are not this table's


def bad_seat(value, stranger):
    return seats(stranger)[1].pk if value == "other table" else value


BAD_SEATS = ["999999", "other table", "abc", "", "-1", "1.5"]


@pytest.mark.parametrize("seat", BAD_SEATS)
@pytest.mark.parametrize("name", ["may_i", "went_down", "went_out", "shanghai"])
def test_a_seat_that_is_not_at_this_table_is_refused(client, member, game, stranger, name, seat):
    before = database_state()
    response = client.post(
        url(name, game), {"version": game.version, "seat": bad_seat(seat, stranger)}
    )
    assert_refused(response)
    assert database_state() == before


@pytest.mark.parametrize("discarder", ["999999", "other table", "abc", "-1"])
def test_shanghai_against_a_discarder_not_at_this_table_is_refused(
    client, member, game, stranger, discarder
):
    before = database_state()
    response = client.post(
        url("shanghai", game),
        {
            "version": game.version,
            "seat": seats(game)[0].pk,
            "discarder": bad_seat(discarder, stranger),
        },
    )
    assert_refused(response)
    assert database_state() == before


def test_shanghai_with_the_seat_as_its_own_discarder_is_no_claim_against_itself(
    client, member, game
):
    seat = seats(game)[0]
    response = client.post(
        url("shanghai", game), {"version": game.version, "seat": seat.pk, "discarder": seat.pk}
    )
    assert response.status_code == 302
    assert not Event.objects.filter(kind=Event.Kind.SHANGHAI_CLAIM).exists()
    assert Event.objects.get().kind == Event.Kind.SHANGHAI_PROTECT


@pytest.mark.parametrize(
    ("name", "times", "words"),
    [
        ("may_i", 3, "no May I? left"),
        ("went_down", 2, "already gone down"),
        ("went_out", 2, "already gone out"),
    ],
)
def test_an_action_repeated_past_what_the_rules_allow_is_refused(
    client, member, game, name, times, words
):
    seat = seats(game)[0]
    for _ in range(times - 1):
        game.refresh_from_db()
        assert (
            client.post(url(name, game), {"version": game.version, "seat": seat.pk}).status_code
            == 302
        )
    game.refresh_from_db()
    before = database_state()
    response = client.post(url(name, game), {"version": game.version, "seat": seat.pk})
    assert_refused(response, words)
    assert database_state() == before


# Scores


def test_scores_before_anyone_went_out_are_refused(client, member, game):
    others = seats(game)[1:]
    before = database_state()
    response = client.post(
        url("score", game),
        {"version": game.version, **{f"points_{seat.pk}": 10 for seat in others}},
    )
    assert_refused(response, "Nobody has gone out yet")
    assert database_state() == before


@pytest.fixture
def scoring(game):
    """The table with seat 1 gone out: the other three are to be scored."""
    go_out(game, seats(game)[0])
    return game


def score_data(game, **overrides):
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


BAD_SCORES = {
    "garbage cards": {"cards_1": "ZZ"},
    "a suit as a rank": {"cards_1": "7Q 8"},
    "markup": {"cards_1": "<script>alert(1)</script>"},
    "a card face": {"cards_1": "🂡"},
    "negative points": {"points_2": "-5"},
    "points over the limit": {"points_2": "10001"},
    "points beyond 64 bits": {"points_2": HUGE},
    "words for points": {"points_2": "ten"},
    "a fraction": {"points_2": "2.5"},
    "zero points": {"points_2": "0"},
    "a player left blank": {"points_2": ""},
    "everyone left blank": {"cards_1": "", "points_2": "", "cards_3": ""},
    "more cards than a hand holds": {"cards_1": "2 " * 30},
    "too much text": {"cards_1": "2 " * 150},
    "more jokers than the decks hold": {"cards_1": "JK " * 9},
    "cards and points both": {"points_1": "20"},
    "points no hand makes": {"points_2": "7"},
    "points more than a hand holds": {"points_2": "5000"},
}


@pytest.mark.parametrize("overrides", BAD_SCORES.values(), ids=BAD_SCORES.keys())
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_bad_scores_are_refused_and_the_round_stays_open(client, member, scoring, overrides, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    before = database_state()
    response = client.post(url("score", scoring), score_data(scoring, **overrides), headers=headers)
    assert_refused(response)
    assert database_state() == before
    assert Round.objects.get(game=scoring, number=1).finished_at is None


def test_the_valid_score_entry_used_above_is_accepted(client, member, scoring):
    """The baseline of the bad-score cases, so each of them fails for its own reason."""
    response = client.post(url("score", scoring), score_data(scoring))
    assert response.status_code == 302
    assert Round.objects.get(game=scoring, number=1).finished_at is not None


@pytest.mark.parametrize("photo_seat", ["", "abc", "1.5"])
def test_a_photo_for_an_unreadable_seat_is_refused(client, member, scoring, photo_seat):
    before = database_state()
    response = client.post(
        url("score_photo", scoring), {**score_data(scoring), "photo_seat": photo_seat}
    )
    assert_refused(response, "photo")
    assert database_state() == before


@pytest.mark.parametrize("photo_seat", ["999999", "-1", "other table"])
def test_a_photo_for_a_seat_not_being_scored_asks_for_a_photo(
    client, member, scoring, stranger, photo_seat
):
    before = database_state()
    response = client.post(
        url("score_photo", scoring),
        {**score_data(scoring), "photo_seat": bad_seat(photo_seat, stranger)},
    )
    assert_refused(response, "Take or choose a photo first")
    assert database_state() == before


# Editing a round


@pytest.fixture
def one_round_played(game):
    play_round(game, went_out=0, points=[10, 20, 30])
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("number", [0, 2, 3, 99, 2**40])
@pytest.mark.parametrize("method", ["get", "post"])
def test_editing_a_round_that_is_missing_or_unfinished_is_a_404(
    client, member, one_round_played, number, method
):
    game = one_round_played
    before = database_state()
    response = getattr(client, method)(url("round_edit", game, number), score_data(game))
    assert response.status_code == 404
    assert database_state() == before


@pytest.mark.parametrize(
    "overrides",
    [
        {"cards_1": "ZZ"},
        {"points_2": "-5"},
        {"points_2": HUGE},
        {"points_1": "", "cards_1": ""},
        {"points_2": "0"},
        {"cards_1": "JK " * 20},
    ],
    ids=["garbage", "negative", "huge", "blank", "zero", "too many"],
)
def test_bad_corrections_of_a_round_are_refused(client, member, one_round_played, overrides):
    game = one_round_played
    before = database_state()
    response = client.post(url("round_edit", game, 1), score_data(game, **overrides))
    assert_refused(response)
    assert database_state() == before


@pytest.mark.parametrize("version", ["", "abc", "-1", "0"])
def test_a_correction_with_a_bad_version_is_refused(client, member, one_round_played, version):
    game = one_round_played
    before = database_state()
    response = client.post(url("round_edit", game, 1), {**score_data(game), "version": version})
    assert_refused(response, "nothing was saved", status=(200, 409))
    assert database_state() == before


def test_a_correction_that_changes_nothing_saves_nothing(client, member, one_round_played):
    game = one_round_played
    before = database_state()
    response = client.post(
        url("round_edit", game, 1),
        score_data(game, cards_1="", points_1="10", points_2="20", cards_3="", points_3="30"),
    )
    assert_refused(response, "Nothing changed")
    assert database_state() == before


# Undo


def test_undo_with_nothing_to_undo_says_so(client, member, game):
    before = database_state()
    response = client.post(url("undo", game), {"version": game.version})
    assert_refused(response, "nothing to undo")
    assert database_state() == before


def test_undo_after_everything_was_undone_says_so(client, member, game):
    client.post(url("may_i", game), {"version": game.version, "seat": seats(game)[0].pk})
    game.refresh_from_db()
    client.post(url("undo", game), {"version": game.version})
    game.refresh_from_db()
    before = database_state()
    response = client.post(url("undo", game), {"version": game.version})
    assert_refused(response, "nothing to undo")
    assert database_state() == before


# Lay-offs and Shanghai claims onto a meld


@pytest.fixture
def down(game):
    """Seat 1 has gone down with two books; nobody else has."""
    go_down(game, seats(game)[0], "7H 7S 7D | 9C 9H 9S")
    game.refresh_from_db()
    return game


def lay_off_data(game, **overrides):
    data = {
        "version": game.version,
        "seat": seats(game)[0].pk,
        "meld": TableMeld.objects.filter(round__game=game).order_by("pk").first().pk,
        "melds": "7C",
        "discarder": "",
    }
    data.update(overrides)
    return data


def test_the_valid_lay_off_used_below_is_accepted(client, member, down):
    response = client.post(url("lay_off", down), lay_off_data(down))
    assert response.status_code == 302
    assert Event.objects.filter(kind=Event.Kind.LAID_OFF).count() == 1


LAY_OFF_REFUSALS = {
    "a meld number": ({"meld": "999999"}, ""),
    "words for a meld": ({"meld": "abc"}, ""),
    "no meld": ({"meld": ""}, ""),
    "garbage cards": ({"melds": "ZZ"}, ""),
    "no cards": ({"melds": ""}, ""),
    "only separators": ({"melds": "| ; /"}, ""),
    "too much text": ({"melds": JUNK}, ""),
    "a card that does not fit": ({"melds": "2C"}, ""),
    "a seat not down yet": ({"seat": "second"}, "has not gone down"),
    "a claim on one's own discard": (
        {"seat": "second", "discarder": "second"},
        "cannot claim their own discard",
    ),
    "a claim of two cards": (
        {"seat": "second", "discarder": "third", "melds": "7C 7C"},
        "one card",
    ),
    "a discarder number": ({"discarder": "999999"}, ""),
    "words for a discarder": ({"discarder": "abc"}, ""),
}


@pytest.mark.parametrize(
    ("overrides", "words"), LAY_OFF_REFUSALS.values(), ids=LAY_OFF_REFUSALS.keys()
)
def test_bad_lay_offs_are_refused(client, member, down, overrides, words):
    by_name = {"second": seats(down)[1].pk, "third": seats(down)[2].pk}
    overrides = {key: by_name.get(value, value) for key, value in overrides.items()}
    before = database_state()
    response = client.post(url("lay_off", down), lay_off_data(down, **overrides))
    assert_refused(response, *([words] if words else []))
    assert database_state() == before


@pytest.mark.parametrize("field", ["meld", "seat", "discarder"])
def test_a_lay_off_onto_another_tables_meld_or_by_its_players_is_refused(
    client, member, down, stranger, field
):
    theirs = {
        "meld": TableMeld.objects.get(round__game=stranger, cards__startswith="6").pk,
        "seat": seats(stranger)[0].pk,
        "discarder": seats(stranger)[1].pk,
    }
    before = database_state()
    response = client.post(url("lay_off", down), lay_off_data(down, **{field: theirs[field]}))
    assert_refused(response)
    assert database_state() == before


def test_a_lay_off_onto_a_meld_of_an_earlier_round_is_refused(client, member, down):
    old_meld = TableMeld.objects.filter(round__game=down).first()
    play_round(down, went_out=0, points=[10, 20, 30])
    down.refresh_from_db()
    before = database_state()
    response = client.post(url("lay_off", down), lay_off_data(down, meld=old_meld.pk, melds="7C"))
    assert_refused(response)
    assert database_state() == before


# Going down through the checker


MELDS_REFUSALS = {
    "a run for two books": ("7H 8H 9H 10H", ""),
    "one book short": ("7H 7S 7D", ""),
    "garbage": ("ZZ QQ", ""),
    "only separators": ("|||", ""),
    "nothing": ("", ""),
    "too much text": (JUNK, ""),
    "a rank too many": ("7H 7S 7D | 9C 9H 9S | 11H 11S 11D", ""),
}


@pytest.mark.parametrize(("melds", "words"), MELDS_REFUSALS.values(), ids=MELDS_REFUSALS.keys())
def test_illegal_or_unreadable_melds_are_not_recorded(client, member, game, melds, words):
    before = database_state()
    response = client.post(
        url("melds_record", game),
        {"version": game.version, "seat": seats(game)[0].pk, "melds": melds},
    )
    assert_refused(response, *([words] if words else []))
    assert database_state() == before


@pytest.mark.parametrize("seat", BAD_SEATS)
def test_melds_for_a_seat_not_at_this_table_are_not_recorded(client, member, game, stranger, seat):
    before = database_state()
    response = client.post(
        url("melds_record", game),
        {"version": game.version, "seat": bad_seat(seat, stranger), "melds": "7H 7S 7D | 9C 9H 9S"},
    )
    assert_refused(response)
    assert database_state() == before


def test_going_down_twice_is_refused(client, member, down):
    before = database_state()
    response = client.post(
        url("melds_record", down),
        {"version": down.version, "seat": seats(down)[0].pk, "melds": "8C 8H 8S | 10C 10H 10S"},
    )
    assert_refused(response, "already down")
    assert database_state() == before


def test_going_down_after_someone_went_out_is_refused(client, member, scoring):
    before = database_state()
    response = client.post(
        url("melds_record", scoring),
        {
            "version": scoring.version,
            "seat": seats(scoring)[1].pk,
            "melds": "8C 8H 8S | 10C 10H 10S",
        },
    )
    assert_refused(response, "someone went out")
    assert database_state() == before


# The checker at a table


TABLE_CHECK_REFUSALS = {
    "no cards": {"cards": ""},
    "only spaces": {"cards": "   "},
    "junk": {"cards": JUNK},
    "unreadable cards": {"cards": "7X 8Y"},
    "a target out of range": {"question": "layoff", "target": "2"},
    "more cards than a hand holds": {"question": "down", "cards": "7H 8S 9D JK " * 15},
    "150 jokers": {"cards": "*, " * 150},
    "a hint for more cards than a hand holds": {"question": "hint", "cards": "7H 8S 9D " * 7},
    "a target far out of range": {"question": "layoff", "target": "99"},
    "a negative target": {"question": "layoff", "target": "-1"},
    "words for a target": {"question": "layoff", "target": "abc"},
    "an unknown question": {"question": "bogus"},
    "no question": {"question": ""},
}


@pytest.mark.parametrize(
    "overrides", TABLE_CHECK_REFUSALS.values(), ids=TABLE_CHECK_REFUSALS.keys()
)
def test_bad_questions_at_a_table_are_answered_with_a_message_and_not_kept(
    client, member, down, overrides
):
    data = {"question": "meld", "cards": "7C", "target": "", **overrides}
    before = database_state()
    response = client.post(url("table_check", down), data)
    assert_refused(response)
    assert database_state() == before


@pytest.mark.parametrize("photo", ["abc", "-1", "999999", "1.5"])
def test_a_check_naming_an_unreadable_photo_is_kept_without_one(client, member, down, photo):
    response = client.post(
        url("table_check", down), {"question": "meld", "cards": "7H 8H 9H 10H", "photo": photo}
    )
    assert response.status_code == 200
    assert Check.objects.get().photos.count() == 0


def test_a_check_cannot_take_another_tables_photo(client, member, down, stranger):
    theirs = stranger.photos.get()
    response = client.post(
        url("table_check", down),
        {"question": "meld", "cards": "7H 8H 9H 10H", "photo": theirs.pk},
    )
    assert response.status_code == 200
    theirs.refresh_from_db()
    assert theirs.check_asked is None


# The standalone checker and the live preview


@pytest.fixture
def short_rules(game):
    """A profile of the member's club with three contracts."""
    house_rules = rules.HouseRules.from_dict(
        {"contracts": [[2, 0], [1, 1], [0, 2]], "cards_dealt": [10, 10, 10]}
    )
    return services.profile_save(club=game.club, name="Short", house_rules=house_rules)


CHECKER_REFUSALS = {
    "no cards": ({"cards": ""}, ""),
    "junk": ({"cards": JUNK}, ""),
    "unreadable cards": ({"cards": "7X 8Y"}, ""),
    "another club's profile": ({"profile": "stranger"}, ""),
    "words for a profile": ({"profile": "abc"}, ""),
    "a profile number": ({"profile": "999999"}, ""),
    "contract 0": ({"contract": "0"}, ""),
    "contract 99": ({"contract": "99"}, ""),
    "contract -1": ({"contract": "-1"}, ""),
    "words for a contract": ({"contract": "abc"}, ""),
    "a contract beyond the profile's": ({"profile": "short", "contract": "5"}, "3 contracts"),
    "junk table melds": ({"question": "layoff", "table": JUNK}, ""),
    "more cards than a hand holds": (
        {"question": "down", "contract": "4", "cards": " ".join(["7H", "8S", "9D", "JK"] * 15)},
        "more than a hand can hold",
    ),
    "a hint for more cards than a hand holds": (
        {"question": "hint", "contract": "4", "cards": "7H 8S 9D " * 7},
        "at most 18",
    ),
    "an unknown question": ({"question": "bogus"}, ""),
}


def test_the_valid_standalone_question_used_below_is_answered(client, member):
    response = client.post(
        reverse("checker"),
        {"question": "down", "cards": "7H 7S 7D 9C 9H 9S", "contract": "1", "table": ""},
    )
    assert "✔ You can go down" in text_of(response)


@pytest.mark.parametrize(
    ("overrides", "words"), CHECKER_REFUSALS.values(), ids=CHECKER_REFUSALS.keys()
)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_bad_questions_to_the_standalone_checker_are_answered_with_a_message(
    client, member, stranger, short_rules, overrides, words, htmx
):
    names = {"stranger": stranger.club.profiles.first().pk, "short": short_rules.pk}
    data = {"question": "down", "cards": "7H 7S 7D 9C 9H 9S", "contract": "1", "table": ""}
    data.update({key: names.get(value, value) for key, value in overrides.items()})
    before = database_state()
    headers = {"HX-Request": "true"} if htmx else {}
    response = client.post(reverse("checker"), data, headers=headers)
    body = assert_refused(response, *([words] if words else []))
    assert "✔ You can go down" not in body
    assert database_state() == before


@pytest.mark.parametrize(
    "cards", ["ZZ", "7H | 8X", "<script>alert(1)</script>", "x" * 5000, "10♠ J♠ Q♠ K♠ 🂡", "JK=7X"]
)
def test_the_preview_names_what_cannot_be_read(client, member, cards):
    response = client.get(reverse("cards_preview"), {"cards": cards})
    assert_refused(response)
    assert "<script>" not in response.content.decode()


def test_the_preview_of_nothing_is_empty_and_posting_to_it_is_refused(client, member):
    assert client.get(reverse("cards_preview"), {"cards": "   "}).status_code == 200
    assert client.post(reverse("cards_preview"), {"cards": "7H"}).status_code == 405


# Starting a table


@pytest.fixture
def club(member, game):
    club = game.club
    for _ in range(3):
        make_player(club)
    return club


def start_data(club, players=4, **overrides):
    chosen = list(club.players.order_by("pk"))[:players]
    data = {f"seat_{n}": player.pk for n, player in enumerate(chosen)}
    data.update(
        {
            "first_dealer": "0",
            "season": club.seasons.first().pk,
            "profile": club.profiles.get(name=RulesProfile.SEED_NAME).pk,
        }
    )
    data.update(overrides)
    return data


def test_the_valid_start_used_below_is_accepted(client, club):
    response = client.post(reverse("game_new", args=[club.pk]), start_data(club))
    assert response.status_code == 302


def start_case(name, overrides, words="", marks=()):
    return pytest.param(overrides, words, id=name, marks=marks)


START_REFUSALS = [
    start_case("two players", {"players": 2}, "3 to 5"),
    start_case("no players", {"players": 0}, "you picked 0"),
    start_case("the same player twice", {"seat_1": "seat_0"}, "only once"),
    start_case("a first dealer beyond the players", {"first_dealer": "4"}, "first dealer"),
    start_case("a first dealer beyond the seats", {"first_dealer": "9"}),
    start_case("a negative first dealer", {"first_dealer": "-1"}),
    start_case("words for a first dealer", {"first_dealer": "x"}),
    start_case("words for a player", {"seat_0": "abc"}),
    start_case("a player number", {"seat_0": "999999"}),
    start_case("another club's player", {"seat_0": "their player"}),
    start_case("another club's season", {"season": "their season"}),
    start_case("another club's profile", {"profile": "their profile"}),
    start_case("no season", {"season": ""}),
]


@pytest.mark.parametrize(("overrides", "words"), START_REFUSALS)
def test_a_table_that_cannot_start_is_refused(client, club, stranger, overrides, words):
    overrides = dict(overrides)
    data = start_data(club, players=overrides.pop("players", 4))
    theirs = {
        "seat_0": data.get("seat_0"),
        "their player": stranger.club.players.first().pk,
        "their season": stranger.club.seasons.first().pk,
        "their profile": stranger.club.profiles.first().pk,
    }
    data.update({key: theirs.get(value, value) for key, value in overrides.items()})
    before = database_state()
    response = client.post(reverse("game_new", args=[club.pk]), data)
    assert_refused(response, *([words] if words else []))
    assert database_state() == before


def test_six_players_are_refused_rather_than_one_left_out(client, club):
    make_player(club)
    make_player(club)
    players = list(club.players.order_by("pk"))[:6]
    data = start_data(club, players=0)
    data.update({f"seat_{n}": player.pk for n, player in enumerate(players)})
    before = database_state()
    response = client.post(reverse("game_new", args=[club.pk]), data)
    assert_refused(response)
    assert database_state() == before


# Rule profiles


def profile_data(**overrides):
    """The seed rules as the profile form posts them, with some fields replaced."""
    form = ProfileForm(name="House")
    data = {}
    for name in form.fields:
        value = form[name].initial
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = value
    data.update(overrides)
    return data


def test_the_valid_profile_used_below_is_accepted(client, member, game):
    response = client.post(reverse("profile_new", args=[game.club.pk]), profile_data())
    assert response.status_code == 302
    assert game.club.profiles.filter(name="House").exists()


PROFILE_REFUSALS = {
    "fewest above most players": ({"min_players": "5", "max_players": "3"}, "fewest players"),
    "a contract that is not one": ({"contracts": "banana"}, "not a contract"),
    "a contract of nothing": ({"contracts": "0 books"}, "not a contract"),
    "a superscript number": ({"contracts": "² books"}, "not a contract"),
    "a number of a hundred digits": ({"contracts": "9" * 100 + " books"}, "not a contract"),
    "no contracts": ({"contracts": "  \n "}, ""),
    "a contract nobody can hold": (
        {"contracts": "\n".join(["2 books"] * 6 + ["99 runs"])},
        "needs at least",
    ),
    "letters for cards dealt": ({"cards_dealt": "a,b"}, "whole numbers"),
    "an empty number in cards dealt": ({"cards_dealt": "11,,11"}, "whole numbers"),
    "one number for seven contracts": ({"cards_dealt": "11"}, "one number per contract"),
    "no cards dealt": ({"cards_dealt": ",".join(["0"] * 7)}, "above 0"),
    "negative cards dealt": ({"cards_dealt": ",".join(["-3"] * 7)}, "above 0"),
    "no decks": ({"decks": "0"}, ""),
    "negative jokers": ({"jokers": "-1"}, ""),
    "words for a number": ({"min_book": "three"}, ""),
    "negative points": ({"points_A": "-5"}, ""),
    "an unknown choice": ({"stock_exhausted": "explode"}, ""),
    "no name": ({"name": ""}, ""),
    "a name of spaces": ({"name": "   "}, ""),
    "a name already taken": ({"name": RulesProfile.SEED_NAME}, "already has"),
    "too many players for the cards": ({"max_players": "40"}, "too few"),
}


@pytest.mark.parametrize(
    ("overrides", "words"), PROFILE_REFUSALS.values(), ids=PROFILE_REFUSALS.keys()
)
@pytest.mark.parametrize("page", ["new", "edit"])
def test_contradictory_or_unreadable_profiles_are_refused(
    client, member, game, short_rules, overrides, words, page
):
    if page == "new":
        target = reverse("profile_new", args=[game.club.pk])
    else:
        target = reverse("profile_edit", args=[short_rules.pk])
    before = database_state()
    response = client.post(target, profile_data(**overrides))
    assert_refused(response, *([words] if words else []))
    assert database_state() == before


def test_a_may_i_limit_too_large_to_store_is_refused(client, member, game):
    before = database_state()
    response = client.post(
        reverse("profile_new", args=[game.club.pk]), profile_data(may_i_limit=HUGE)
    )
    assert_refused(response)
    assert database_state() == before


def test_points_too_large_to_score_are_refused(client, member, game):
    before = database_state()
    response = client.post(
        reverse("profile_new", args=[game.club.pk]), profile_data(points_JK=HUGE)
    )
    assert_refused(response)
    assert database_state() == before


# Players, seasons, clubs


@pytest.mark.parametrize(
    "name", ["", "   ", "\t\n", "x" * 41], ids=["empty", "spaces", "tabs", "too long"]
)
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_player_needs_a_name(client, member, game, name, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    before = database_state()
    response = client.post(
        reverse("player_add", args=[game.club.pk]), {"name": name}, headers=headers
    )
    assert_refused(response)
    assert database_state() == before


def test_a_player_name_already_taken_in_other_spacing_or_case_is_refused(client, member, game):
    taken = seats(game)[0].player.name
    before = database_state()
    response = client.post(
        reverse("player_add", args=[game.club.pk]),
        {"name": "  " + taken.upper().replace(" ", "   ")},
    )
    assert_refused(response, "already has a player")
    assert database_state() == before


@pytest.mark.parametrize(
    "data",
    [
        {"name": "", "starts_on": "2025-01-01"},
        {"name": "   ", "starts_on": "2025-01-01"},
        {"name": "Spring", "starts_on": "2025-13-45"},
        {"name": "Spring", "starts_on": "soon"},
        {"name": "Spring", "starts_on": ""},
        {"name": "taken", "starts_on": "2025-01-01"},
    ],
    ids=["no name", "spaces", "no such day", "words", "no date", "taken"],
)
def test_a_season_needs_a_name_and_a_real_day(client, member, game, data):
    if data["name"] == "taken":
        data = {**data, "name": game.club.seasons.first().name}
    before = database_state()
    response = client.post(reverse("season_add", args=[game.club.pk]), data)
    assert_refused(response)
    assert database_state() == before


@pytest.mark.parametrize("code", ["", "   ", "no-such-code", "x" * 21, "' OR 1=1 --"])
def test_joining_needs_a_real_invite_code(client, member, stranger, code):
    before = database_state()
    response = client.post(reverse("club_join"), {"invite_code": code})
    assert_refused(response)
    assert database_state() == before


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_a_club_needs_a_name(client, member, name):
    before = database_state()
    response = client.post(reverse("club_new"), {"name": name})
    assert_refused(response)
    assert database_state() == before


# A table that is over


@pytest.fixture
def finished(game):
    for _ in range(7):
        play_round(game, went_out=0, points=[10, 20, 30])
    game.refresh_from_db()
    assert game.finished_at is not None
    return game


@pytest.mark.parametrize(
    "name",
    [
        "may_i",
        "went_down",
        "went_out",
        "shanghai",
        "score",
        "melds_record",
    ],
)
def test_writes_to_a_finished_table_are_refused(client, member, finished, name):
    before = database_state()
    response = client.post(
        url(name, finished),
        {
            "version": finished.version,
            "seat": seats(finished)[0].pk,
            "melds": "7H 7S 7D | 9C 9H 9S",
        },
    )
    assert_refused(response, "game is over")
    assert database_state() == before


@pytest.mark.parametrize("name", ["lay_off", "table_check", "table_photo"])
def test_the_checker_of_a_finished_table_is_a_404(client, member, finished, name):
    before = database_state()
    response = client.post(
        url(name, finished),
        {"version": finished.version, "seat": seats(finished)[0].pk, "cards": "7H"},
    )
    assert response.status_code == 404
    assert database_state() == before


# Another club's objects


def their_url(name, stranger):
    photo = stranger.photos.get()
    by_name = {
        "round_edit": [stranger.pk, 1],
        "photo": [photo.pk],
        "photo_delete": [photo.pk],
        "rules_summary": [stranger.club.profiles.first().pk],
        "profile_edit": [stranger.club.profiles.first().pk],
        "club": [stranger.club.pk],
        "player_add": [stranger.club.pk],
        "season_add": [stranger.club.pk],
        "profile_new": [stranger.club.pk],
        "game_new": [stranger.club.pk],
    }
    return reverse(name, args=by_name.get(name, [stranger.pk]))


OWNED = {
    "get": [
        "game",
        "history",
        "table_check",
        "round_edit",
        "photo",
        "rules_summary",
        "profile_edit",
        "club",
        "profile_new",
        "game_new",
    ],
    "post": [
        "may_i",
        "went_down",
        "went_out",
        "shanghai",
        "score",
        "undo",
        "score_photo",
        "round_edit",
        "table_check",
        "melds_record",
        "lay_off",
        "table_photo",
        "photo_delete",
        "player_add",
        "season_add",
        "profile_edit",
        "profile_new",
        "game_new",
    ],
}


@pytest.mark.parametrize(
    ("method", "name"), [(method, name) for method, names in OWNED.items() for name in names]
)
def test_another_clubs_objects_are_a_404_and_stay_untouched(client, member, stranger, method, name):
    play_round(stranger, went_out=1, points=[10, 20, 30])
    stranger.refresh_from_db()
    theirs = seats(stranger)
    data = {
        "version": stranger.version,
        "seat": theirs[0].pk,
        "melds": "5C",
        "cards": "5C",
        "question": "meld",
        "name": "Mine now",
        "starts_on": "2025-01-01",
        **score_data(stranger),
    }
    before = database_state()
    response = getattr(client, method)(their_url(name, stranger), data)
    assert response.status_code == 404
    assert database_state() == before


@pytest.mark.parametrize("target", ["", None])
def test_a_lay_off_question_with_no_meld_picked_asks_for_one_and_is_not_kept(
    client, member, down, target
):
    data = {"question": "layoff", "cards": "9H"}
    if target is not None:
        data["target"] = target
    before = database_state()
    response = client.post(url("table_check", down), data)
    assert_refused(response, "pick the meld")
    assert database_state() == before


def test_a_lay_off_question_before_any_meld_is_down_says_there_is_none(client, member, game):
    before = database_state()
    response = client.post(url("table_check", game), {"question": "layoff", "cards": "9H"})
    assert_refused(response, "no meld is on the table")
    assert database_state() == before


# Text as long as the app lets it be is stored whole (PostgreSQL refuses what a column cannot hold)


def test_five_players_with_the_longest_names_score_and_keep_their_history(client):
    club = make_club()
    names = [f"{letter * 39}{n}" for n, letter in enumerate("ABCDE")]
    players = [make_player(club, name) for name in names]
    game = services.game_start(
        club=club,
        user=None,
        players=players,
        first_dealer=0,
        season=club.seasons.get(),
        profile=club.profiles.get(),
    )
    client.force_login(member_of(game))
    ann, *others = seats(game)
    go_out(game, ann)
    data = {"version": game.version} | {f"cards_{seat.pk}": "A K Q J 10 9" for seat in others}
    assert client.post(url("score", game), data).status_code == 302
    scored = game.events.get(kind=Event.Kind.ROUND_SCORED).description
    assert all(name in scored for name in names[1:])


def test_a_book_of_every_copy_under_many_decks_lies_on_the_table_whole(client):
    club = make_club()
    many = rules.HouseRules(decks=4, jokers=8)
    profile = services.profile_save(club=club, name="Four decks", house_rules=many)
    game = services.game_start(
        club=club,
        user=None,
        players=[make_player(club) for _ in range(3)],
        first_dealer=0,
        season=club.seasons.get(),
        profile=profile,
    )
    book = " ".join(["10H", "10S", "10D", "10C"] * 4 + ["JK"])
    go_down(game, seats(game)[0], f"{book} | 9H 9S 9D")
    meld = TableMeld.objects.get(owner__position=0, cards__startswith="10")
    assert len(meld.card_list) == 17
