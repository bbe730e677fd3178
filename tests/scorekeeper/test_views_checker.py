import html

import pytest
from django.urls import reverse

import rules
from scorekeeper import services
from scorekeeper.models import Check, Event, Hand, TableMeld
from tests.factories import make_club, make_game, make_user, play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return make_game(players=3)


@pytest.fixture
def member(client, game):
    user = game.club.memberships.get().user
    client.force_login(user)
    return user


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def seats(game):
    return list(game.seats.order_by("position").select_related("player"))


def go_down(game, seat, melds_text):
    game.refresh_from_db()
    return services.melds_record(
        game=game, version=game.version, seat=seat, melds=rules.parse_melds(melds_text), user=None
    )


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
        club=club, name="Aces low", house_rules=rules.HouseRules(ace="high_or_low")
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


def test_recording_a_going_down_lays_melds_and_marks_the_player_down(client, member, game):
    ann = seats(game)[0]
    response = client.post(
        reverse("melds_record", args=[game.pk]),
        {"version": game.version, "seat": ann.pk, "melds": "8H 8S 8D | KC KD JK"},
    )
    assert response.status_code == 302
    melds = list(TableMeld.objects.order_by("pk"))
    assert [meld.kind for meld in melds] == ["book", "book"]
    assert rules.parse_cards(melds[1].cards)[2].declared.rank == "K"
    assert Hand.objects.get(seat=ann).went_down


def test_an_illegal_going_down_is_refused_with_reasons(client, member, game):
    ann = seats(game)[0]
    response = client.post(
        reverse("melds_record", args=[game.pk]),
        {"version": game.version, "seat": ann.pk, "melds": "8H 8S 8D | 9H 10H JH QH"},
    )
    assert response.status_code == 200
    assert "needs 2 books; these melds are 1 book and 1 run" in text_of(response)
    assert not TableMeld.objects.exists()
    assert not Hand.objects.get(seat=ann).went_down


def test_shanghai_check_shows_the_meld_it_fits_and_the_claim_updates_it(client, member, game):
    ann, ben, cleo = seats(game)
    go_down(game, ann, "8H 8S 8D | KC KD KS")
    response = client.post(
        reverse("table_check", args=[game.pk]), {"question": "shanghai", "cards": "KH"}
    )
    body = text_of(response)
    assert "KH could be laid off on 1 meld" in body
    meld = TableMeld.objects.get(cards__contains="KC")
    assert f'name="meld" value="{meld.pk}"' in body
    game.refresh_from_db()
    response = client.post(
        reverse("lay_off", args=[game.pk]),
        {
            "version": game.version,
            "seat": cleo.pk,
            "discarder": ben.pk,
            "meld": meld.pk,
            "melds": "KH",
        },
    )
    assert response.status_code == 302
    meld.refresh_from_db()
    assert "KH" in meld.cards
    claim = Event.objects.get(kind=Event.Kind.SHANGHAI_CLAIM)
    assert (claim.seat, claim.other_seat) == (cleo, ben)


def test_lay_off_needs_the_player_down_and_undo_restores_the_meld(client, member, game):
    ann, ben, _ = seats(game)
    play_round(game, points=[5, 5])  # contract 2: one book, one run
    go_down(game, ann, "5H 6H 7H 8H | QS QD QC")
    run = TableMeld.objects.get(kind="run")
    game.refresh_from_db()
    refused = client.post(
        reverse("lay_off", args=[game.pk]),
        {"version": game.version, "seat": ben.pk, "meld": run.pk, "melds": "9H"},
    )
    assert "has not gone down" in text_of(refused)
    game.refresh_from_db()
    client.post(
        reverse("lay_off", args=[game.pk]),
        {"version": game.version, "seat": ann.pk, "meld": run.pk, "melds": "9H"},
    )
    run.refresh_from_db()
    assert run.cards == "5H 6H 7H 8H 9H"
    game.refresh_from_db()
    services.action_undo(game=game, version=game.version, user=None)
    run.refresh_from_db()
    assert run.cards == "5H 6H 7H 8H"
    services.action_undo(game=game, version=game.version, user=None)
    assert not TableMeld.objects.exists()


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


def test_rules_summary_is_generated_from_the_profile(client):
    user = make_user()
    club = make_club(user)
    profile = services.profile_save(
        club=club, name="Low aces", house_rules=rules.HouseRules(ace="high_or_low", min_run=3)
    )
    client.force_login(user)
    body = text_of(client.get(reverse("rules_summary", args=[profile.pk])))
    assert "Low aces" in body
    for line in rules.rules_summary(profile.house_rules):
        assert line in body
    client.force_login(make_user())
    assert client.get(reverse("rules_summary", args=[profile.pk])).status_code == 404


def test_checker_page_query_count_does_not_grow_with_melds(
    client, member, game, django_assert_max_num_queries
):
    ann, ben, cleo = seats(game)
    go_down(game, ann, "8H 8S 8D | KC KD KS")
    go_down(game, ben, "5H 5S 5D | 9C 9D 9S")
    with django_assert_max_num_queries(10):
        assert client.get(reverse("table_check", args=[game.pk])).status_code == 200


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
    profile = services.profile_save(club=club, name="Eight", house_rules=longer)
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
    services.shanghai_record(game=game, version=game.version, seat=ben, discarder=cat, user=None)
    nineteen = "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2S 3S 4S 5S 6S 7S"
    response = client.post(
        reverse("table_check", args=[game.pk]), {"question": "hint", "cards": nineteen}
    )
    assert "more than a hand can hold" not in text_of(response)
    assert Check.objects.count() == 1


def test_card_faces_show_each_card_with_its_suit_symbol_and_a_jokers_card():
    from django.template import Context, Template

    faces = Template("{% load cards %}{% card_faces cards %}").render(
        Context({"cards": rules.parse_ranks("10H QS JK=9D 7")})
    )
    assert '<span class="card-face suit-H" title="10H">10♥</span>' in faces
    assert '<span class="card-face joker" title="JK=9D">JK=9♦</span>' in faces
    assert '<span class="card-face suit-none" title="7">7</span>' in faces
