"""The table page and its taps, score entry, corrections and history
(scorekeeper/views/games.py)."""

import html
import re

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Event, Game, Hand, Membership, Role
from tests.factories import (
    act,
    bad_seat,
    built_once,
    go_down,
    go_out,
    make_club,
    make_game,
    make_player,
    make_user,
    member_of,
    play_round,
    post_refused,
    seats,
    text_of,
    url,
)

pytestmark = pytest.mark.django_db


SEAT_ACTIONS = ["may_i", "went_down", "went_out"]


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


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "page"])
def test_a_going_down_and_a_shanghai_claim_say_they_were_saved(client, member, game, htmx):
    ann, ben, *_ = list(game.seats.order_by("position"))
    response = post(client, "went_down", game, htmx=htmx, seat=ann.pk)
    saved = f"Saved: {ann.player} went down."
    page = response if htmx else client.get(response["Location"])
    assert saved in text_of(page)
    game.refresh_from_db()
    response = post(client, "shanghai", game, htmx=htmx, seat=ben.pk, discarder=ann.pk)
    page = response if htmx else client.get(response["Location"])
    body = text_of(page)
    assert f"Saved: {ben.player} claimed {ann.player}'s discard: Shanghai!" in body
    assert saved not in body
    assert 'role="status"' in body


def test_a_may_i_says_nothing_more_than_the_undo_bar(client, member, game):
    response = post(client, "may_i", game, htmx=True, seat=first_seat(game).pk)
    assert "Saved:" not in text_of(response)


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


def score_after_going_out(client, game, hands: dict):
    """Seat 1 goes out, then `hands` (seat -> form field -> text) are scored, both by htmx."""
    post(client, "went_out", game, htmx=True, seat=first_seat(game).pk)
    game.refresh_from_db()
    entries = {
        f"{field}_{seat.pk}": text for seat, typed in hands.items() for field, text in typed.items()
    }
    return post(client, "score", game, htmx=True, **entries)


def test_scoring_through_the_view_with_keypad_cards_and_points(client, member, game):
    seats = list(game.seats.order_by("position"))
    response = score_after_going_out(
        client,
        game,
        {
            seats[1]: {"cards": "K K 7 JK"},
            seats[2]: {"cards": "10h, 9s"},
            seats[3]: {"points": "35"},
        },
    )
    assert response.status_code == 200
    assert b"Contract 2 of 7" in response.content
    points = dict(Hand.objects.filter(round__number=1).values_list("seat", "points"))
    assert points == {seats[0].pk: 0, seats[1].pk: 75, seats[2].pk: 20, seats[3].pk: 35}


def test_an_unreadable_card_is_named_and_nothing_is_saved(client, member, game):
    seats = list(game.seats.order_by("position"))
    response = score_after_going_out(client, game, {seat: {"cards": "K 1H"} for seat in seats[1:]})
    assert response.status_code == 200
    assert '"1H" is not a card' in text_of(response)
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
    table = text_of(client.get(response["Location"]))
    assert f"Saved: Contract 1 scores edited: {seats[1].player} 10 → 15." in table
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


@pytest.mark.parametrize("rounds", [1, 3])
def test_history_query_count_does_not_grow(client, member, game, django_assert_num_queries, rounds):
    for _ in range(rounds):
        play_round(game)
        client.post(reverse("table_check", args=[game.pk]), {"question": "meld", "cards": "8H 8S"})
    with django_assert_num_queries(6):
        assert client.get(reverse("history", args=[game.pk])).status_code == 200


@pytest.mark.parametrize(("played", "label"), [(0, "and deal the next"), (6, "and end the game")])
def test_the_save_button_says_what_saving_does(client, member, game, played, label):
    for _ in range(played):
        play_round(game)
    game.refresh_from_db()
    post(client, "went_out", game, seat=first_seat(game).pk)
    body = text_of(client.get(game.get_absolute_url()))
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


def hand_rows(body: str) -> dict[str, str]:
    """The score rows of a page, by seat id."""
    rows = body.split('<fieldset class="hand-entry')[1:]
    return {row.split('data-seat="')[1].split('"')[0]: row for row in rows}


def test_the_round_edit_greys_out_the_hand_of_whoever_went_out(client, member, game):
    play_round(game, points=[10, 20, 30])
    ann, ben, *_ = list(game.seats.order_by("position"))
    edit = reverse("round_edit", args=[game.pk, 1])
    body = text_of(client.get(edit))
    assert 'src="/static/js/round_edit.js"' in body
    rows = hand_rows(body)
    assert rows[str(ann.pk)].startswith(' not-counted"')
    assert f"{ann.player} went out: this hand scores 0 and is not counted." in rows[str(ann.pk)]
    assert [seat for seat, row in rows.items() if row.startswith(' not-counted"')] == [str(ann.pk)]

    # Corrected to Ben, but Ann's hand is missing: the page comes back with Ben's row greyed.
    game.refresh_from_db()
    response = client.post(edit, {"version": game.version, "went_out": ben.pk})
    assert response.status_code == 200
    rows = hand_rows(text_of(response))
    assert [seat for seat, row in rows.items() if row.startswith(' not-counted"')] == [str(ben.pk)]


def test_score_entry_greys_out_nothing(client, member, scoring):
    body = text_of(client.get(scoring.get_absolute_url()))
    assert "not-counted" not in body
    assert "round_edit.js" not in body


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
    body = text_of(client.get(game.get_absolute_url()))
    assert f'name="cards_{seats[1].pk}" value="K K 7 JK"' in body
    assert f'name="cards_{seats[2].pk}" value="10H 9S"' in body
    assert f'name="points_{seats[3].pk}" value="35"' in body


# Seats that are not this table's


@pytest.mark.parametrize("name", ["may_i", "went_down", "went_out", "shanghai"])
def test_a_seat_that_is_not_at_this_table_is_refused(
    client, member, game, name, not_this_tables_seat
):
    post_refused(client, url(name, game), {"version": game.version, "seat": not_this_tables_seat})


@pytest.mark.parametrize("discarder", ["999999", "other table", "abc", "-1"])
def test_shanghai_against_a_discarder_not_at_this_table_is_refused(
    client, member, game, stranger, discarder
):
    post_refused(
        client,
        url("shanghai", game),
        {
            "version": game.version,
            "seat": seats(game)[0].pk,
            "discarder": bad_seat(discarder, stranger),
        },
    )


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
    post_refused(client, url(name, game), {"version": game.version, "seat": seat.pk}, words)


# Undo


def test_undo_with_nothing_to_undo_says_so(client, member, game):
    post_refused(client, url("undo", game), {"version": game.version}, "nothing to undo")


def test_undo_after_everything_was_undone_says_so(client, member, game):
    client.post(url("may_i", game), {"version": game.version, "seat": seats(game)[0].pk})
    game.refresh_from_db()
    client.post(url("undo", game), {"version": game.version})
    game.refresh_from_db()
    post_refused(client, url("undo", game), {"version": game.version}, "nothing to undo")


# Text as long as the app lets it be is stored whole (PostgreSQL refuses what a column cannot hold)


def test_five_players_with_the_longest_names_score_and_keep_their_history(client):
    club = make_club()
    names = [f"{letter * 39}{n}" for n, letter in enumerate("ABCDE")]
    players = [make_player(club, name) for name in names]
    game = make_game(club, seated=players)
    client.force_login(member_of(game))
    ann, *others = seats(game)
    go_out(game, ann)
    data = {"version": game.version} | {f"cards_{seat.pk}": "A K Q J 10 9" for seat in others}
    assert client.post(url("score", game), data).status_code == 302
    scored = game.events.get(kind=Event.Kind.ROUND_SCORED).description
    assert all(name in scored for name in names[1:])


@pytest.mark.parametrize("played", [0, 5])
def test_saving_scores_takes_the_same_queries_at_any_contract(
    client, member, game, django_assert_num_queries, played
):
    # Session, user, table; the table's hands with their rounds, seats and Shanghai calls, read
    # once for the form, the service and the answer's board; the transaction (BEGIN, COMMIT)
    # with the version's claim, the rounds' upsert (this one finished, the next dealt), the
    # hands' one and the history's event.
    for _ in range(played):
        play_round(game)
    game.refresh_from_db()
    post(client, "went_out", game, seat=first_seat(game).pk)
    game.refresh_from_db()
    entries = {f"cards_{seat.pk}": "K 7" for seat in game.seats.order_by("position")[1:]}
    # 35 when the state check built a whole board; 31 when each hand was saved on its own; 28
    # when the service read the round's hands three times, its seats twice and its Shanghai
    # claims twice, and checked the role apart from claiming the table's version; 22 when the
    # service read the round again and the answer read the whole board
    with django_assert_num_queries(10):
        response = post(client, "score", game, htmx=True, version=game.version, **entries)
    assert response.status_code == 200
    assert game.rounds.filter(number=played + 1, finished_at__isnull=False).exists()


@pytest.mark.parametrize("played", [1, 5])
def test_editing_a_round_takes_the_same_queries_at_any_contract(
    client, member, game, django_assert_num_queries, played
):
    # Session, user, table, the round, its hands for the form; the transaction with the
    # version's claim, the hands and Shanghai calls for the service, the hands' and the round's
    # updates and the history's event. The board is read for the edit page only: a saved edit
    # answers with a redirect (19 when it read the whole board first).
    for _ in range(played):
        play_round(game)
    game.refresh_from_db()
    data = {f"points_{seat.pk}": "15" for seat in game.seats.order_by("position")[1:]}
    with django_assert_num_queries(13):
        response = client.post(
            reverse("round_edit", args=[game.pk, played]), {"version": game.version, **data}
        )
    assert response.status_code == 302


TAP = {"HX-Request": "true", "X-Tap-Id": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"}


def test_a_queued_tap_sent_again_with_its_id_is_answered_as_saved_and_counts_once(
    client, member, game
):
    # A tablet's offline queue sends each tap with its id; a reload or a cut connection can
    # lose the first answer, and the tablet sends the tap again with the same id.
    data = {"version": game.version, "seat": first_seat(game).pk}
    first = client.post(url("may_i", game), data, headers=TAP)
    assert first.status_code == 200 and "X-Tap-Saved" not in first
    again = client.post(url("may_i", game), data, headers=TAP)
    assert again.status_code == 200
    assert again["X-Tap-Saved"] == "before"
    assert again.content.lstrip().startswith(b'<div id="table"')
    assert f'data-version="{game.version + 1}"' in again.content.decode()
    assert Event.objects.filter(kind=Event.Kind.MAY_I).count() == 1
    assert Hand.objects.get(seat=first_seat(game)).may_i_used == 1


@pytest.mark.parametrize("tap_id", [None, "short", "not/an/id-0123456789abcdef", "x" * 65])
def test_a_copy_without_a_good_tap_id_is_refused_as_stale(client, member, game, tap_id):
    headers = {"HX-Request": "true"} | ({"X-Tap-Id": tap_id} if tap_id else {})
    data = {"version": game.version, "seat": first_seat(game).pk}
    assert client.post(url("may_i", game), data, headers=headers).status_code == 200
    again = client.post(url("may_i", game), data, headers=headers)
    assert again.status_code == 409
    assert "X-Tap-Saved" not in again
    assert Event.objects.filter(kind=Event.Kind.MAY_I).count() == 1


def test_a_tap_id_is_its_members_only(client, member, game):
    data = {"version": game.version, "seat": first_seat(game).pk}
    client.post(url("may_i", game), data, headers=TAP)
    other = make_user()
    Membership.objects.create(club=game.club, user=other, role=Role.SCORER)
    client.force_login(other)
    again = client.post(url("may_i", game), data, headers=TAP)
    assert again.status_code == 409
    assert "X-Tap-Saved" not in again


def test_a_tap_id_is_its_tables_only(client, member, game):
    # Replayed to another table of the club, the id was saved nowhere there: refused as stale.
    other = make_game(game.club, players=3)
    data = {"version": game.version, "seat": first_seat(game).pk}
    assert "X-Tap-Saved" not in client.post(url("may_i", game), data, headers=TAP)
    stale = {"version": other.version + 7, "seat": first_seat(other).pk}
    again = client.post(url("may_i", other), stale, headers=TAP)
    assert again.status_code == 409
    assert "X-Tap-Saved" not in again
    assert not Event.objects.filter(game=other).exists()


def test_a_queued_tap_refused_the_first_time_is_refused_again(client, member, game):
    stale = game.version
    post(client, "may_i", game, htmx=True, seat=first_seat(game).pk)
    data = {"version": stale, "seat": first_seat(game).pk}
    for _ in range(2):
        response = client.post(url("went_down", game), data, headers=TAP)
        assert response.status_code == 409
        assert "X-Tap-Saved" not in response
    assert not Hand.objects.get(seat=first_seat(game)).went_down


def test_a_queued_score_sent_again_is_answered_as_saved(client, member, game):
    go_out(game, first_seat(game))
    data = {"version": game.version} | {
        f"points_{seat.pk}": "10" for seat in game.seats.order_by("position")[1:]
    }
    assert client.post(url("score", game), data, headers=TAP).status_code == 200
    again = client.post(url("score", game), data, headers=TAP)
    assert (again.status_code, again["X-Tap-Saved"]) == (200, "before")
    assert Event.objects.filter(kind=Event.Kind.ROUND_SCORED).count() == 1


def test_a_scorers_round_screen_carries_every_players_row_for_score_entry_offline(
    client, member, game
):
    page = text_of(client.get(game.get_absolute_url()))
    template = page[page.index('<template id="score-entry-offline">') :]
    template = template[: template.index("</template>")]
    for seat in game.seats.all():
        assert f'name="cards_{seat.pk}"' in template
        assert f'name="points_{seat.pk}"' in template
    assert "Save contract 1 and deal the next" in template
    assert 'type="file"' not in template  # a photo is read by a worker: not without a connection


def test_a_round_being_scored_or_a_viewers_screen_has_no_offline_score_entry(client, member, game):
    viewer = make_user()
    Membership.objects.create(club=game.club, user=viewer, role=Role.VIEWER)
    client.force_login(viewer)
    assert "score-entry-offline" not in text_of(client.get(game.get_absolute_url()))
    go_out(game, first_seat(game))
    client.force_login(member)
    assert "score-entry-offline" not in text_of(client.get(game.get_absolute_url()))


# A tap's answer is built from what the tap read and changed, not read again: it must be the table
# as a fresh read shows it.


# Melds that go down in a contract with a discard.
GOING_DOWN = {1: "7H 7S 7D | 9C 9H 9S", 6: "7H 7S 7D | 5C 6C 7C 8C | 9D 10D JD QD"}


def busy_table(game, *, played: int):
    """`played` contracts scored, then in the next: Ann down with melds and Ben's claim of Cat's
    discard (where going down is not going out), Cat's protected discard and a May I? of Dan's
    taken back."""
    for _ in range(played):
        play_round(game, went_out=1)
    ann, ben, cat, dan = seats(game)
    if played + 1 in GOING_DOWN:
        go_down(game, ann, GOING_DOWN[played + 1])
        act(services.shanghai_record, game, seat=ben, discarder=cat)
    act(services.shanghai_record, game, seat=cat, discarder=None)
    act(services.may_i_spend, game, seat=dan)
    act(services.action_undo, game)
    game.refresh_from_db()


@pytest.fixture(scope="module")
def busy_tables(django_db_setup, django_db_blocker):
    """A busy table after 0, 5 and 6 contracts scored, each built once for the module's tests
    (up to 28 writes through the services): their ids."""
    with built_once(django_db_blocker):
        tables = {}
        for played in (0, 5, 6):
            game = make_game(players=4)
            busy_table(game, played=played)
            tables[played] = game.pk
        yield tables


@pytest.fixture
def busy(client, busy_tables, played):
    """The busy table after `played` contracts, read afresh (what an earlier test changed was
    undone in the database), its club's member logged in."""
    game = Game.objects.get(pk=busy_tables[played])
    client.force_login(member_of(game))
    return game


def without_csrf_tokens(page: str) -> str:
    # Each render masks the token anew: the same token, other characters.
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)


TAPS = {
    "may_i": lambda ann, ben, cat, dan: {"seat": dan.pk},
    "went_down": lambda ann, ben, cat, dan: {"seat": cat.pk},
    "went_out": lambda ann, ben, cat, dan: {"seat": ben.pk},
    "went_out in one turn": lambda ann, ben, cat, dan: {"seat": dan.pk, "rummy": "on"},
    "shanghai": lambda ann, ben, cat, dan: {"seat": cat.pk, "discarder": ben.pk},
    "shanghai protecting": lambda ann, ben, cat, dan: {"seat": ben.pk, "discarder": ""},
    "score": lambda ann, ben, cat, dan: {f"cards_{seat.pk}": "K 7 JK" for seat in (ann, cat, dan)},
}


@pytest.mark.parametrize(
    ("tap", "played"),
    # Nobody can be down in contract 7 (going down goes out): no meld to claim a discard onto.
    [(tap, played) for tap in TAPS for played in (0, 5, 6) if (tap, played) != ("shanghai", 6)],
)
def test_a_taps_answer_is_the_table_as_read_afresh(client, busy, tap, played):
    game = busy
    if tap == "score":
        go_out(game, seats(game)[1])
    response = post(client, tap.split()[0], game, htmx=True, **TAPS[tap](*seats(game)))
    game.refresh_from_db()
    assert response.status_code == 200
    assert 'role="alert"' not in text_of(response)  # accepted
    fresh = client.get(game.get_absolute_url(), headers={"HX-Request": "true"})
    # The answer may also say what was saved (a going-down, a Shanghai call): the rest is equal.
    saved = r'<p class="message success" role="status">Saved: [^<]*</p>'
    answer = re.sub(saved, "", response.content.decode())
    assert without_csrf_tokens(answer) == without_csrf_tokens(fresh.content.decode())


@pytest.mark.parametrize("played", [0, 5])
@pytest.mark.parametrize(
    ("tap", "queries"),
    [
        # Session, user, table; the table's hands with their rounds, seats and Shanghai calls,
        # read once; BEGIN, the version's claim, the hand's UPDATE, the event, COMMIT; the
        # melds on the table, for the answer.
        ("may_i", 10),
        ("went_down", 10),
        # As May I?, with the round's UPDATE, what a save taken back had entered, and the photos
        # of the round's hands (each hand keeps its own); the melds are not on the score
        # entry's screen.
        ("went_out", 12),
        # No hand changes: the event is the call.
        ("shanghai", 9),
    ],
)
def test_a_tap_takes_the_same_queries_at_any_contract(
    client, busy, django_assert_num_queries, played, tap, queries
):
    game = busy
    data = TAPS[tap](*seats(game))
    with django_assert_num_queries(queries):
        response = post(client, tap, game, htmx=True, **data)
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).version == game.version + 1
