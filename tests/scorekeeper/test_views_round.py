import html

import pytest
from django.urls import reverse

from scorekeeper.models import Event, Game, Hand
from tests.factories import make_club, make_game, make_user, play_round

pytestmark = pytest.mark.django_db

SEAT_ACTIONS = ["may_i", "went_down", "went_out"]


@pytest.fixture
def game():
    return make_game(players=4)


@pytest.fixture
def member(client, game):
    user = game.club.memberships.get().user
    client.force_login(user)
    return user


def post(client, name, game, htmx=False, **data):
    headers = {"HX-Request": "true"} if htmx else {}
    data.setdefault("version", game.version)
    return client.post(reverse(name, args=[game.pk]), data, headers=headers)


def first_seat(game):
    return game.seats.order_by("position").first()


def test_anonymous_visitors_are_sent_to_log_in(client, game):
    response = client.get(game.get_absolute_url())
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    response = post(client, "may_i", game, seat=first_seat(game).pk)
    assert response.status_code == 302
    assert not Hand.objects.filter(may_i_used__gt=0).exists()


@pytest.mark.parametrize("name", [*SEAT_ACTIONS, "shanghai", "score", "undo"])
def test_another_clubs_table_is_a_404_and_stays_untouched(client, game, name):
    client.force_login(make_club().memberships.get().user)
    assert client.get(game.get_absolute_url()).status_code == 404
    response = post(client, name, game, seat=first_seat(game).pk)
    assert response.status_code == 404
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.parametrize("name", [*SEAT_ACTIONS, "shanghai", "score", "undo"])
def test_actions_refuse_get(client, member, game, name):
    assert client.get(reverse(name, args=[game.pk])).status_code == 405


def test_table_page_is_whole_and_the_htmx_answer_is_the_fragment(client, member, game):
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert b"<html" in page.content
    assert b"Contract 1 of 7" in page.content
    fragment = client.get(game.get_absolute_url(), headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    assert b"<html" not in fragment.content
    assert fragment.content.lstrip().startswith(b'<div id="table"')


def test_may_i_by_htmx_spends_a_token_and_answers_the_fragment(client, member, game):
    seat = first_seat(game)
    response = post(client, "may_i", game, htmx=True, seat=seat.pk)
    assert response.status_code == 200
    assert b"<html" not in response.content
    assert b"called May I?" in response.content
    assert Hand.objects.get(seat=seat).may_i_used == 1


def test_may_i_without_htmx_redirects_back_to_the_table(client, member, game):
    response = post(client, "may_i", game, seat=first_seat(game).pk)
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()


def test_a_third_may_i_is_refused_with_a_message(client, member, game):
    seat = first_seat(game)
    for _ in range(2):
        game.refresh_from_db()
        post(client, "may_i", game, htmx=True, seat=seat.pk)
    game.refresh_from_db()
    response = post(client, "may_i", game, htmx=True, seat=seat.pk)
    assert response.status_code == 200
    assert "the limit is 2 a round" in response.content.decode()
    assert Hand.objects.get(seat=seat).may_i_used == 2


def test_a_stale_screen_gets_409_the_fresh_state_and_changes_nothing(client, member, game):
    seat = first_seat(game)
    stale = game.version
    post(client, "may_i", game, htmx=True, seat=seat.pk)
    response = client.post(
        reverse("went_down", args=[game.pk]),
        {"version": stale, "seat": seat.pk},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    content = html.unescape(response.content.decode())
    assert f"On another screen a moment ago: {seat.player} called May I? (1 left)" in content
    assert "nothing was saved from your tap" in content
    assert "1 May I? left" in content
    assert not Hand.objects.get(seat=seat).went_down


def test_a_seat_of_another_table_is_refused(client, member, game):
    other = make_game(game.club)
    response = post(client, "may_i", game, htmx=True, seat=first_seat(other).pk)
    assert response.status_code == 200
    assert not Hand.objects.filter(may_i_used__gt=0).exists()


def test_shanghai_claim_through_the_view(client, member, game):
    ann, ben, cat = list(game.seats.order_by("position"))[:3]
    post(client, "went_down", game, seat=cat.pk)
    game.refresh_from_db()
    response = post(client, "shanghai", game, htmx=True, seat=ann.pk, discarder=ben.pk)
    assert response.status_code == 200
    event = Event.objects.get(kind=Event.Kind.SHANGHAI_CLAIM)
    assert (event.kind, event.seat, event.other_seat) == (Event.Kind.SHANGHAI_CLAIM, ann, ben)


def test_scoring_through_the_view_with_keypad_cards_and_points(client, member, game):
    seats = list(game.seats.order_by("position"))
    post(client, "went_out", game, htmx=True, seat=seats[0].pk)
    game.refresh_from_db()
    response = post(
        client,
        "score",
        game,
        htmx=True,
        **{
            f"cards_{seats[1].pk}": "K K 7 JK",
            f"cards_{seats[2].pk}": "10h, 9s",
            f"points_{seats[3].pk}": "35",
        },
    )
    assert response.status_code == 200
    assert b"Contract 2 of 7" in response.content
    points = dict(Hand.objects.filter(round__number=1).values_list("seat", "points"))
    assert points == {seats[0].pk: 0, seats[1].pk: 75, seats[2].pk: 20, seats[3].pk: 35}


def test_an_unreadable_card_is_named_and_nothing_is_saved(client, member, game):
    seats = list(game.seats.order_by("position"))
    post(client, "went_out", game, htmx=True, seat=seats[0].pk)
    game.refresh_from_db()
    response = post(
        client,
        "score",
        game,
        htmx=True,
        **{f"cards_{seat.pk}": "K 1H" for seat in seats[1:]},
    )
    assert response.status_code == 200
    assert '"1H" is not a card' in html.unescape(response.content.decode())
    assert not Hand.objects.filter(points__isnull=False).exists()


def test_round_edit_page_and_save(client, member, game):
    play_round(game, points=[10, 20, 30])
    seats = list(game.seats.order_by("position"))
    url = reverse("round_edit", args=[game.pk, 1])
    assert client.get(url).status_code == 200
    game.refresh_from_db()
    response = client.post(
        url,
        {
            "version": game.version,
            f"points_{seats[1].pk}": "15",
            f"points_{seats[2].pk}": "20",
            f"points_{seats[3].pk}": "30",
        },
    )
    assert response.status_code == 302
    assert Hand.objects.get(round__number=1, seat=seats[1]).points == 15
    assert client.get(reverse("round_edit", args=[game.pk, 2])).status_code == 404


def test_history_lists_every_change(client, member, game):
    play_round(game)
    client.post(reverse("table_check", args=[game.pk]), {"question": "meld", "cards": "8H 8S 8D"})
    response = client.get(reverse("history", args=[game.pk]))
    assert response.status_code == 200
    assert "Contract 1 scored" in response.content.decode()
    assert "8H 8S 8D" in response.content.decode()


def test_history_page_shows_each_section_once_under_a_plain_title(client, member, game):
    client.post(reverse("table_check", args=[game.pk]), {"question": "meld", "cards": "8H 8S 8D"})
    page = client.get(reverse("history", args=[game.pk])).content.decode()

    title = page[page.index("<title>") + len("<title>") : page.index("</title>")]
    assert title.startswith("History · ") and "<" not in title
    assert page.count("Questions asked of the meld checker") == 1
    assert page.count("8H 8S 8D") == 1


def test_history_query_count_does_not_grow(client, member, game, django_assert_max_num_queries):
    for _ in range(3):
        play_round(game)
        client.post(reverse("table_check", args=[game.pk]), {"question": "meld", "cards": "8H 8S"})
    with django_assert_max_num_queries(8):
        assert client.get(reverse("history", args=[game.pk])).status_code == 200


@pytest.mark.parametrize("players,rounds", [(3, 0), (5, 6)])
def test_table_page_query_count_does_not_grow(
    client, django_assert_max_num_queries, players, rounds
):
    game = make_game(players=players)
    for _ in range(rounds):
        play_round(game, points=[10] * (players - 1))
    client.force_login(game.club.memberships.get().user)
    with django_assert_max_num_queries(9):
        assert client.get(game.get_absolute_url()).status_code == 200


def test_club_page_query_count_does_not_grow(client, django_assert_max_num_queries):
    club = make_club()
    for _ in range(4):
        play_round(make_game(club, players=5), points=[5, 5, 5, 5])
    client.force_login(club.memberships.get().user)
    with django_assert_max_num_queries(10):
        assert client.get(club.get_absolute_url()).status_code == 200


def test_starting_a_table_through_the_form(client):
    user = make_user()
    club = make_club(user)
    from tests.factories import make_player

    players = [make_player(club, name) for name in ["Ann", "Ben", "Cleo"]]
    client.force_login(user)
    url = reverse("game_new", args=[club.pk])
    assert client.get(url).status_code == 200
    data = {
        "seat_0": players[2].pk,
        "seat_1": players[0].pk,
        "seat_2": players[1].pk,
        "first_dealer": 1,
        "season": club.seasons.get().pk,
        "profile": club.profiles.get().pk,
    }
    response = client.post(url, data)
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert [seat.player.name for seat in game.seats.all()] == ["Cleo", "Ann", "Ben"]
    assert game.first_dealer == 1


def test_starting_a_table_with_a_player_twice_is_refused(client):
    user = make_user()
    club = make_club(user)
    from tests.factories import make_player

    ann, ben = make_player(club), make_player(club)
    client.force_login(user)
    response = client.post(
        reverse("game_new", args=[club.pk]),
        {
            "seat_0": ann.pk,
            "seat_1": ann.pk,
            "seat_2": ben.pk,
            "first_dealer": 0,
            "season": club.seasons.get().pk,
            "profile": club.profiles.get().pk,
        },
    )
    assert response.status_code == 200
    assert "only once" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(("played", "label"), [(0, "and deal the next"), (6, "and end the game")])
def test_the_save_button_says_what_saving_does(client, member, game, played, label):
    for _ in range(played):
        play_round(game)
    game.refresh_from_db()
    post(client, "went_out", game, seat=first_seat(game).pk)
    body = html.unescape(client.get(game.get_absolute_url()).content.decode())
    assert f"Save contract {played + 1} {label}" in body


def test_a_round_edit_can_change_who_went_out(client, member, game):
    play_round(game, points=[10, 20, 30])
    seats = list(game.seats.order_by("position"))
    url = reverse("round_edit", args=[game.pk, 1])
    assert 'name="went_out"' in client.get(url).content.decode()
    game.refresh_from_db()
    response = client.post(
        url,
        {
            "version": game.version,
            "went_out": seats[1].pk,
            f"cards_{seats[0].pk}": "K",
            f"points_{seats[2].pk}": "20",
            f"points_{seats[3].pk}": "30",
        },
    )
    assert response.status_code == 302
    points = dict(Hand.objects.filter(round__number=1).values_list("seat", "points"))
    assert points == {seats[0].pk: 10, seats[1].pk: 0, seats[2].pk: 20, seats[3].pk: 30}


def test_out_in_one_turn_is_offered_only_under_the_rummy_bonus(client, member, game):
    assert "Out in one turn" not in client.get(game.get_absolute_url()).content.decode()


def test_undo_of_a_saved_round_brings_back_what_was_entered(client, member, game):
    seats = list(game.seats.order_by("position"))
    post(client, "went_out", game, seat=seats[0].pk)
    game.refresh_from_db()
    entered = {
        f"cards_{seats[1].pk}": "K K 7 JK",
        f"cards_{seats[2].pk}": "10H 9S",
        f"points_{seats[3].pk}": "35",
    }
    post(client, "score", game, **entered)
    game.refresh_from_db()
    post(client, "undo", game)
    body = html.unescape(client.get(game.get_absolute_url()).content.decode())
    assert f'name="cards_{seats[1].pk}" value="K K 7 JK"' in body
    assert f'name="cards_{seats[2].pk}" value="10H 9S"' in body
    assert f'name="points_{seats[3].pk}" value="35"' in body
