"""The meld checker, at a table and on its own, and the live preview of typed cards
(scorekeeper/views/checker.py)."""

import logging

import pytest
from django.urls import reverse

import rules
from scorekeeper import services
from scorekeeper.models import Check, Membership, Role
from tests.factories import (
    JUNK,
    assert_refused,
    go_down,
    kept_photo,
    make_club,
    make_game,
    make_user,
    play_round,
    post_refused,
    record_check,
    seats,
    text_of,
    url,
)

pytestmark = [pytest.mark.django_db, pytest.mark.players(3)]


def test_standalone_checker_answers_with_the_jokers_card(client):
    client.force_login(make_user())
    response = client.post(reverse("checker"), {"question": "meld", "cards": "7H 8H 9H JK"})
    assert response.status_code == 200
    body = text_of(response)
    assert "✔ A legal meld" in body
    assert "JK = 10H" in body or "JK = 6H" in body


def test_standalone_checker_explains_an_illegal_run(client):
    client.force_login(make_user())
    response = client.post(
        reverse("checker"),
        {"question": "meld", "cards": "A♥ 2♥ 3♥ 4♥"},
        headers={"HX-Request": "true"},
    )
    body = text_of(response)
    assert body.lstrip().startswith('<section id="answer"')
    assert "✘ Not a legal meld" in body
    assert "aces" in body.lower()


def test_standalone_checker_uses_the_chosen_profile(client):
    user = make_user()
    club = make_club(user)
    low = services.profile_save(
        club=club,
        name="Aces low",
        house_rules=rules.HouseRules(ace="high_or_low"),
        user=club.owner(),
    )
    client.force_login(user)
    response = client.post(
        reverse("checker"),
        {"question": "meld", "cards": "AH 2H 3H 4H", "profile": low.pk, "contract": 1},
    )
    assert "✔ A legal meld" in text_of(response)


def test_anothers_profile_cannot_be_used(client):
    other = make_club()
    client.force_login(make_user())
    response = client.post(
        reverse("checker"),
        {"question": "meld", "cards": "AH 2H 3H 4H", "profile": other.profiles.get().pk},
    )
    assert "Select a valid choice" in text_of(response)


def test_unreadable_cards_name_the_token_and_save_nothing(client, member, game):
    response = client.post(
        reverse("table_check", args=[game.pk]), {"question": "meld", "cards": "7H 1H 9H"}
    )
    assert response.status_code == 200
    assert '"1H" is not a card' in text_of(response)
    assert not Check.objects.exists()


def test_live_preview_shows_faces_or_the_bad_token(client, member):
    ok = client.get(reverse("cards_preview"), {"cards": "10♠ JK"}, headers={"HX-Request": "true"})
    assert 'class="card-face suit-S"' in ok.content.decode()
    assert "card-face joker" in ok.content.decode()
    bad = client.get(reverse("cards_preview"), {"cards": "10X"})
    assert "10X" in text_of(bad)


def test_the_count_check_says_what_the_cards_entered_lack_as_they_are_entered(client, member):
    """held.html asks as the box or the number said changes, naming the two fields it sends."""

    def said(cards, held):
        query = {"box": "cards_7", "count": "held_7", "cards_7": cards, "held_7": held}
        return client.get(reverse("count_check"), query).content.decode()

    assert said("KH 7", "3") == (
        '<span class="off">One card missing: this hand holds 3 and 2 are entered.'
        " Add it, or tap how many it holds.</span>"
    )
    assert said("KH 7 | 8,9", "3").startswith('<span class="off">One card too many: this hand')
    assert said("K ZZ 7", "3") == "<span>All 3 cards are entered.</span>"  # ZZ: refused on save
    assert said("K", "1") == "<span>The card is entered.</span>"
    assert said("", "3") == said("K", "") == said("K", "x") == ""


def test_the_count_check_is_for_members_only(client):
    assert client.get(reverse("count_check"))["Location"].startswith(reverse("login"))
    client.force_login(make_user())
    assert client.post(reverse("count_check")).status_code == 405


def test_a_check_at_the_table_is_kept_in_the_rounds_history(client, member, game):
    response = client.post(
        reverse("table_check", args=[game.pk]), {"question": "meld", "cards": "8H 8S 8D"}
    )
    assert response.status_code == 200
    check = Check.objects.get()
    assert (check.question, check.ok, check.round.number) == ("meld", True, 1)
    assert "Yes." in check.answer
    page = client.get(reverse("table_check", args=[game.pk]))
    assert "8H 8S 8D" in text_of(page)


def test_too_many_copies_of_a_card_are_refused(client, member, game):
    client.post(reverse("table_check", args=[game.pk]), {"question": "meld", "cards": "9C 9C 9C"})
    assert not Check.objects.get().ok
    assert "9C" in Check.objects.get().answer


def test_checker_views_refuse_strangers_and_wrong_methods(client, game):
    client.force_login(make_club().memberships.get().user)
    assert client.get(reverse("table_check", args=[game.pk])).status_code == 404
    assert client.post(reverse("melds_record", args=[game.pk]), {}).status_code == 404
    assert client.get(reverse("melds_record", args=[game.pk])).status_code == 405
    assert client.get(reverse("lay_off", args=[game.pk])).status_code == 405
    client.logout()
    assert client.get(reverse("checker")).status_code == 302


def test_checker_of_a_finished_game_is_a_404(client, member, game):
    for _ in range(7):
        play_round(game, points=[5, 5])
    assert client.get(reverse("table_check", args=[game.pk])).status_code == 404


@pytest.mark.parametrize("gone_down", [0, 2])
def test_checker_page_query_count_does_not_grow_with_melds(
    client, member, game, django_assert_num_queries, gone_down
):
    melds = ["8H 8S 8D | KC KD KS", "5H 5S 5D | 9C 9D 9S"]
    for seat, laid in zip(seats(game)[:gone_down], melds, strict=False):
        go_down(game, seat, laid)
    # Session, user, table; the table's hands, its last action and the round's melds; the
    # round's questions. 10 when the board read seats, rounds, hands and calls apart.
    with django_assert_num_queries(7):
        assert client.get(reverse("table_check", args=[game.pk])).status_code == 200


@pytest.mark.parametrize("claims", [0, 2])
def test_a_question_at_the_table_takes_the_same_queries_with_claims(
    client, member, game, django_assert_num_queries, claims
):
    # The Shanghai claims that let a hand hold more cards come with the board, not a query.
    ann, ben, cat = seats(game)
    services.hand_mark_down(game=game, version=game.version, seat=cat, user=game.created_by)
    for _ in range(claims):
        services.shanghai_record(
            game=game, version=game.version, seat=ben, discarder=cat, user=game.created_by
        )
    question = {"question": "hint", "cards": "7H 7S 7D 8C 9C 10C JC KH KD 2S JK"}
    # 12, and 5 of the member's count of questions in the shared cache table (the throttle).
    # 21 when the board read seats, rounds, hands and calls apart, and the service the role
    # and the round apart.
    with django_assert_num_queries(17):
        response = client.post(reverse("table_check", args=[game.pk]), question)
    assert response.status_code == 200
    assert Check.objects.count() == 1


@pytest.mark.parametrize("photos", [1, 4])
def test_a_refused_recording_shows_the_questions_and_photos_in_a_fixed_number_of_queries(
    client, member, game, django_assert_num_queries, photos
):
    ann = seats(game)[0]
    for _ in range(photos):
        kept_photo(game, check_asked=record_check(game, game.rounds.get()))
    going_down = {"version": game.version, "seat": ann.pk, "melds": "8H 8S 8D | 9H 10H JH QH"}
    # The questions and their photos take two queries, however many there are.
    with django_assert_num_queries(19):
        response = client.post(reverse("melds_record", args=[game.pk]), going_down)
    body = text_of(response)
    assert "needs 2 books; these melds are 1 book and 1 run" in body
    assert body.count(">photo</a>") == photos


def test_the_standalone_checker_offers_each_clubs_rules_once(client):
    user = make_user()
    make_club(user, name="Tuesdays")
    client.force_login(user)
    body = text_of(client.get(reverse("checker")))
    assert body.count("Seed rules") == 1
    make_club(user, name="Fridays")
    body = text_of(client.get(reverse("checker")))
    assert "Seed rules · Fridays" in body
    assert "Seed rules · Tuesdays" in body
    assert body.count("Seed rules") == 2


def test_the_standalone_checker_offers_every_contract_of_a_longer_profile(client):
    user = make_user()
    club = make_club(user)
    longer = rules.HouseRules(contracts=[*rules.CONTRACTS, rules.Contract(4, 0)], cards_dealt=12)
    profile = services.profile_save(user=club.owner(), club=club, name="Eight", house_rules=longer)
    client.force_login(user)
    response = client.post(
        reverse("checker"),
        {
            "question": "down",
            "cards": "7H 7S 7D 8H 8S 8D 9H 9S 9D 10H 10S 10D",
            "contract": 8,
            "profile": profile.pk,
        },
    )
    assert "✔ You can go down" in text_of(response)


def test_a_table_check_may_hold_the_cards_a_shanghai_claim_brought(client, member, game):
    ann, ben, cat = seats(game)
    go_down(game, ann, "8C 8H 8S | 10C 10H 10S")
    game.refresh_from_db()
    services.shanghai_record(
        game=game, version=game.version, seat=ben, discarder=cat, user=game.created_by
    )
    nineteen = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2S 3S 4S 5S 6S 7S"
    response = client.post(
        reverse("table_check", args=[game.pk]), {"question": "hint", "cards": nineteen}
    )
    assert "more than a hand can hold" not in text_of(response)
    assert Check.objects.count() == 1


# Bad questions at a table


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
    post_refused(client, url("table_check", down), data)


@pytest.mark.parametrize("photo", ["abc", "-1", "999999", "1.5", "²", "9" * 5000, str(2**64), "0"])
def test_a_check_naming_an_unreadable_photo_is_kept_without_one(client, member, game, photo):
    response = client.post(
        url("table_check", game), {"question": "meld", "cards": "7H 8H 9H 10H", "photo": photo}
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


@pytest.mark.parametrize("target", ["", None])
def test_a_lay_off_question_with_no_meld_picked_asks_for_one_and_is_not_kept(
    client, member, down, target
):
    data = {"question": "layoff", "cards": "9H"}
    if target is not None:
        data["target"] = target
    post_refused(client, url("table_check", down), data, "pick the meld")


def test_a_lay_off_question_before_any_meld_is_down_says_there_is_none(client, member, game):
    post_refused(
        client,
        url("table_check", game),
        {"question": "layoff", "cards": "9H"},
        "no meld is on the table",
    )


def test_a_standalone_lay_off_with_no_meld_typed_says_where_to_type_it(client, member):
    data = {"question": "layoff", "cards": "9H", "contract": "1", "table": ""}
    body = post_refused(client, reverse("checker"), data, "type the meld you lay off on")
    assert "Pick the meld" not in body  # there is no menu to pick from


# Bad questions to the standalone checker and the live preview


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
def test_bad_questions_to_the_standalone_checker_are_answered_with_a_message(
    client, member, stranger, short_rules, overrides, words, htmx_headers
):
    names = {"stranger": stranger.club.profiles.first().pk, "short": short_rules.pk}
    data = {"question": "down", "cards": "7H 7S 7D 9C 9H 9S", "contract": "1", "table": ""}
    data.update({key: names.get(value, value) for key, value in overrides.items()})
    body = post_refused(client, reverse("checker"), data, words, headers=htmx_headers)
    assert "✔" not in body


@pytest.mark.parametrize(
    "cards", ["ZZ", "7H | 8X", "<script>alert(1)</script>", "x" * 5000, "10♠ J♠ Q♠ K♠ 🂡", "JK=7X"]
)
def test_the_preview_names_what_cannot_be_read(client, member, cards):
    response = client.get(reverse("cards_preview"), {"cards": cards})
    assert_refused(response)
    assert "<script>" not in response.content.decode()


def test_a_bug_behind_the_preview_is_a_logged_server_error_not_a_message(
    client, member, monkeypatch, caplog
):
    # No typed text makes the engine raise anything but its CardError (fuzzed), so a bug is
    # planted: the preview answers only the rules' refusals itself.
    def broken(text):
        raise KeyError("a bug")

    monkeypatch.setattr(rules, "parse_melds", broken)
    client.raise_request_exception = False
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get(reverse("cards_preview"), {"cards": "7H 8H 9H"})
    assert response.status_code == 500
    assert "a bug" not in text_of(response)
    logged = [record for record in caplog.records if record.name == "django.request"]
    assert logged and logged[0].exc_info[0] is KeyError


def test_the_preview_of_nothing_is_empty_and_posting_to_it_is_refused(client, member):
    assert client.get(reverse("cards_preview"), {"cards": "   "}).status_code == 200
    assert client.post(reverse("cards_preview"), {"cards": "7H"}).status_code == 405


def test_a_member_asking_the_checker_in_a_loop_is_slowed_down_alone(client, member, game):
    question = {"question": "meld", "cards": "6S 6H 6D"}
    for _ in range(30):
        assert client.post(reverse("table_check", args=[game.pk]), question).status_code == 200
    response = client.post(reverse("table_check", args=[game.pk]), question)
    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    # Looking is not asking, and another member of the table asks on.
    assert client.get(reverse("table_check", args=[game.pk])).status_code == 200
    other = make_user()
    Membership.objects.create(club=game.club, user=other, role=Role.SCORER)
    client.force_login(other)
    assert client.post(reverse("table_check", args=[game.pk]), question).status_code == 200


# At the house-rule bounds some hands hold more arrangements than the engine tries in a request

BOUNDS = rules.HouseRules(
    decks=4, jokers=8, cards_dealt=15, jokers_per_meld=4, may_i_limit=2, may_i_penalty_cards=3
)
# 24 cards found by a hill-climb: contract 7 takes more steps than a question's budget.
TOO_MANY_FOR_7 = "3D JK 6H 9H 8H 8C 4H JK 4H 7D QH 7H 4D JK JH 5D JK KH JK JK 10D JK 5H 10H"


def bounds_profile(user):
    club = make_club(user)
    return services.profile_save(user=club.owner(), club=club, name="Bounds", house_rules=BOUNDS)


@pytest.mark.parametrize("question", ["hint", "down"])
def test_the_standalone_checker_says_when_there_are_too_many_possibilities(
    client, question, htmx_headers
):
    user = make_user()
    profile = bounds_profile(user)
    client.force_login(user)
    response = client.post(
        reverse("checker"),
        {"question": question, "cards": TOO_MANY_FOR_7, "contract": 7, "profile": profile.pk},
        headers=htmx_headers,
    )
    assert response.status_code == 200
    body = text_of(response)
    assert '<h2 class="verdict gave-up">⚠ Too many possibilities</h2>' in body
    assert "type the melds you have in mind" in body or "separate the melds" in body
    # Neither a yes nor a no, and not an error.
    assert "✔" not in body and "✘" not in body
    assert 'role="alert"' not in body


def test_too_many_possibilities_at_a_table_are_kept_as_said_and_offer_nothing_to_record(client):
    user = make_user()
    profile = bounds_profile(user)
    game = make_game(profile.club, players=3, profile=profile)
    for _ in range(6):
        play_round(game, points=[5, 5])
    client.force_login(user)
    response = client.post(url("table_check", game), {"question": "down", "cards": TOO_MANY_FOR_7})
    assert response.status_code == 200
    body = text_of(response)
    assert "⚠ Too many possibilities" in body
    assert "Record the going-down" not in body
    check = Check.objects.get()
    assert (check.round.number, check.ok) == (7, False)
    assert check.answer.startswith("Too many possibilities to try every arrangement")


SEVEN = "3H 4H 5H 6H | 7S 8S 9S 10S | JC QC KC AC"


def test_contract_7s_going_down_is_going_out_and_recording_it_returns_to_the_table(
    client, member, game
):
    for _ in range(6):
        play_round(game, points=[10, 20])
    ann = seats(game)[0]
    response = client.post(url("table_check", game), {"question": "down", "cards": SEVEN})
    body = text_of(response)
    assert "✔ You can go out" in body
    assert "so this hand goes out." in body
    assert "Record as going out for" in body and ">Record going out</button>" in body
    assert "Record the going-down" not in body

    game.refresh_from_db()
    melds = body.split('name="melds" value="')[-1].split('"')[0]
    data = {"version": game.version, "seat": ann.pk, "melds": melds}
    response = client.post(url("melds_record", game), data)
    assert response["Location"] == game.get_absolute_url()
    table = text_of(client.get(response["Location"]))
    assert f"Saved: {ann.player} went out: " in table
    assert f"{ann.player} went out. What were the others left holding?" in table
    assert game.rounds.get(number=7).went_out == ann


def test_a_going_down_of_a_discard_contract_goes_down_and_stays_on_the_checker(
    client, member, game
):
    response = client.post(
        url("table_check", game), {"question": "down", "cards": "8H 8S 8D | KC KD KH"}
    )
    body = text_of(response)
    assert "✔ You can go down" in body and "goes out" not in body
    assert ">Record the going-down</button>" in body


def test_the_standalone_checker_says_contract_7s_going_down_goes_out(client, member):
    response = client.post(reverse("checker"), {"question": "down", "cards": SEVEN, "contract": 7})
    body = text_of(response)
    assert "✔ You can go out" in body
    assert "Contract 7 has no discard" in body


def test_the_shanghai_claim_form_never_starts_with_a_player_claiming_their_own_discard(
    client, member, game
):
    ann, ben, cleo = seats(game)
    go_down(game, ann, "8H 8S 8D | KC KD KS")
    body = text_of(client.post(url("table_check", game), {"question": "shanghai", "cards": "KH"}))
    claim = body[
        body.index("Record the Shanghai claim") - 2000 : body.index("Record the Shanghai claim")
    ]

    def chosen(menu):
        options = claim.split(f'<select name="{menu}">')[1].split("</select>")[0]
        marked = [option for option in options.split("<option")[1:] if " selected" in option]
        first = options.split("<option")[1]
        return (marked or [first])[0].split('value="')[1].split('"')[0]

    assert chosen("seat") == str(ann.pk)
    assert chosen("discarder") == str(ben.pk)


def test_a_question_asked_in_spanish_is_answered_in_spanish(client, member, game):
    response = client.post(
        reverse("table_check", args=[game.pk]),
        {"question": "meld", "cards": "8H 8S 8D"},
        headers={"accept-language": "es"},
    )
    body = text_of(response)
    assert "✔ Una combinación válida" in body
    assert '<small class="muted">Trío</small>' in body  # the meld's kind
    assert "Preguntado en esta mesa" in body
