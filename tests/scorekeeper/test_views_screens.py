"""What the screens say: the table at a glance, photos shown where they were read, messages by
level, real plurals, the club's time zone, what changed under a stale tap, and what a screen
reader hears where the eye sees a picture or a strike-through."""

import html
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

import rules
from scorekeeper import services
from scorekeeper.models import Club, Event, Membership, Photo, Result, Role
from tests.factories import (
    act,
    finish_game,
    kept_photo,
    make_club,
    make_game,
    make_player,
    make_user,
    play_round,
    record_check,
    run_tasks,
    score_data,
    seats,
)

# slow: finished tables played through the services.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media"), pytest.mark.slow]

PHOTOS = Path(__file__).resolve().parents[1] / "recognition" / "photos"
PHOTO = PHOTOS / "phone_010.jpg"
# 11 of its 12 cards read, its 5C under 95% sure; its 8C is among the unread, at 0.83.
FAN = PHOTOS / "win_024.jpg"


@pytest.fixture
def game():
    return make_game(players=4)


def text_of(response) -> str:
    return html.unescape(response.content.decode())


def row_of(body: str, player) -> str:
    """The round screen's form for one player."""
    start = body.index(f'aria-labelledby="player-{player.pk}"')
    return body[start : body.index("</form>", start)]


# The table at a glance


def test_each_row_shows_tokens_left_calls_and_melds_this_round(client, member, game):
    ann, ben, cleo, dev = seats(game)
    act(services.may_i_spend, game, seat=ben)
    act(
        services.melds_record,
        game,
        seat=dev,
        melds=[rules.parse_cards("7H 7S 7D"), rules.parse_cards("KC KD JK")],
    )
    act(services.shanghai_record, game, seat=cleo, discarder=dev)
    act(services.shanghai_record, game, seat=cleo, discarder=ann)
    act(services.shanghai_record, game, seat=ann, discarder=dev)

    body = text_of(client.get(game.get_absolute_url()))
    assert "2 May I?s left" in row_of(body, ann)
    assert "1 May I? left" in row_of(body, ben)
    assert "2 Shanghai claims" in row_of(body, cleo)
    assert "1 Shanghai claim<" in row_of(body, ann)
    assert "Shanghai claim" not in row_of(body, ben)
    act(services.shanghai_record, game, seat=ben, discarder=None)
    body = text_of(client.get(game.get_absolute_url()))
    # A protect is not a claim: its own badge, its own word.
    assert "1 Shanghai protect<" in row_of(body, ben)
    assert "Shanghai claim" not in row_of(body, ben)
    dev_row = row_of(body, dev)
    assert f"{dev.player} laid 2 melds" in dev_row
    assert dev_row.count('class="card-face') == 6
    assert 'title="JK=K' in dev_row
    assert 'class="badge ok">Down' in dev_row
    assert "card-face" not in row_of(body, ann)


def test_calls_and_melds_of_an_earlier_round_are_not_this_rounds(client, member, game):
    ann, ben, *_ = seats(game)
    act(services.hand_mark_down, game, seat=ann)
    act(services.shanghai_record, game, seat=ben, discarder=ann)
    play_round(game)
    body = text_of(client.get(game.get_absolute_url()))
    assert "Shanghai claim" not in row_of(body, ben)


def scoreboard_cells(body: str, player) -> list[str]:
    """The scoreboard's cells of one player's row, each contract's, as text."""
    board = body[body.rindex("<table", 0, body.index('aria-label="Scoreboard"') + 400) :]
    row = board[board.index(f"<td>{player}</td>") :]
    row = row[: row.index("</tr>")]
    return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)[1:-2]]


def story_of_two_contracts(game):
    """Contract 1: Ben claims Ann's discard twice, then Ann goes out. Contract 2: Cleo goes out
    in one turn."""
    ann, ben, cleo, dev = seats(game)
    act(services.hand_mark_down, game, seat=cleo)
    act(services.shanghai_record, game, seat=ben, discarder=ann)
    act(services.shanghai_record, game, seat=ben, discarder=ann)
    play_round(game, went_out=0, points=[40, 10, 30])
    act(services.round_record_went_out, game, seat=cleo, rummy=True)
    entries = {seat.pk: rules.HandEntry(points=5) for seat in (ann, ben, dev)}
    act(services.round_score, game, entries=entries)
    return ann, ben, cleo, dev


def test_the_scoreboard_marks_who_went_out_and_the_shanghai_claims(client, member, game):
    ann, ben, cleo, dev = story_of_two_contracts(game)
    body = text_of(client.get(game.get_absolute_url()))
    # The mark is a picture for the eye; a screen reader hears the words after the points.
    assert scoreboard_cells(body, ann.player) == ["0 ★, went out", "5"]
    assert scoreboard_cells(body, ben.player) == ["40 S×2, 2 Shanghai claims", "5"]
    assert scoreboard_cells(body, cleo.player) == ["10", "0 ★, went out in one turn"]
    assert scoreboard_cells(body, dev.player) == ["30", "5"]
    assert body.count('<span class="mark out" aria-hidden="true">★</span>') == 2
    assert 'class="score-legend muted"' in body


def test_a_protect_is_marked_apart_from_a_claim_and_counted_apart_at_game_over(
    client, member, game
):
    ann, ben, cleo, dev = seats(game)
    act(services.hand_mark_down, game, seat=ann)
    act(services.shanghai_record, game, seat=ben, discarder=ann)
    act(services.shanghai_record, game, seat=cleo, discarder=None)
    act(services.shanghai_record, game, seat=cleo, discarder=None)
    play_round(game, went_out=3, points=[10, 20, 30])
    body = text_of(client.get(game.get_absolute_url()))
    assert scoreboard_cells(body, ben.player) == ["20 S, 1 Shanghai claim"]
    assert scoreboard_cells(body, cleo.player) == ["30 P×2, 2 Shanghai protects"]
    assert 'title="2 Shanghai protects"' in body
    assert "P Shanghai protect: kept one's own discard" in re.sub(r"<[^>]+>", "", body)

    finish_game(game)
    body = text_of(client.get(game.get_absolute_url()))
    summary = body[body.index('class="summary"') :]
    assert "<th>Shanghai claims</th><th>Shanghai protects</th>" in summary
    assert "Shanghai calls" not in body
    row = summary[summary.index(f"<td>{cleo.player}</td>") :]
    # Total, rounds won, claims, protects, May I?s used.
    assert re.findall(r"<td>(\d+)</td>", row[: row.index("</tr>")])[1:] == ["0", "0", "2", "0"]


def test_a_table_with_nothing_scored_shows_no_marks_nor_their_legend(client, member, game):
    body = text_of(client.get(game.get_absolute_url()))
    assert "score-legend" not in body
    assert 'class="mark' not in body


def test_the_game_over_scoreboard_and_the_tv_tell_the_story_too(client, member, game):
    ann, ben, *_ = story_of_two_contracts(game)
    finish_game(game)
    body = text_of(client.get(game.get_absolute_url()))
    assert "Game over" in body
    assert scoreboard_cells(body, ben.player)[:2] == ["40 S×2, 2 Shanghai claims", "5"]
    tv = text_of(
        client.get(services.tv_link_create(game=game, user=game.created_by).get_absolute_url())
    )
    assert "<th>C7</th>" in tv
    assert "0 ★, went out" in re.sub(r"<[^>]+>", "", tv)
    assert "S×2" in tv
    # No round is played any more: no May I? column, empty in every row.
    assert "May I?" not in tv


def test_a_winner_on_one_point_is_said_in_the_singular_at_the_table_and_on_tv(client, member):
    club = make_club(member)
    profile = club.profiles.get()
    profile.settings = {**profile.settings, "points": {"2": 1}}
    profile.save()
    game = make_game(club, profile=profile)
    # Ann is left holding a 2 (1 point) in the first contract and goes out of every other one.
    finish_game(game, [(1, [1, 50, 50])] + [(0, None)] * (game.contract_count - 1))
    ann = seats(game)[0].player
    tv_link = services.tv_link_create(game=game, user=game.created_by)
    for page in (game.get_absolute_url(), tv_link.get_absolute_url()):
        said = re.sub(r"<[^>]+>", "", text_of(client.get(page)))
        assert f"{ann} wins with 1 point." in said


@pytest.mark.parametrize("players,rounds", [(3, 0), (5, 5)])
def test_table_page_query_count_is_fixed(client, django_assert_num_queries, players, rounds):
    game = make_game(players=players)
    for _ in range(rounds):
        play_round(game, points=[10] * (players - 1))
    first, second, *_ = seats(game)
    act(services.hand_mark_down, game, seat=first)
    act(services.shanghai_record, game, seat=second, discarder=first)
    if rounds == 0:
        books = [rules.parse_cards("7H 7S 7D"), rules.parse_cards("9H 9S 9D")]
        act(services.melds_record, game, seat=second, melds=books)
    client.force_login(game.club.memberships.get().user)
    # Session, user, table, the board's six (seats, rounds, hands, events, calls, melds) and
    # the TV link.
    with django_assert_num_queries(10):
        assert client.get(game.get_absolute_url()).status_code == 200


# A stale tap says what changed


def test_a_stale_tap_names_what_the_other_screen_did(client, member, game):
    ann, ben, *_ = seats(game)
    stale = game.version
    act(services.may_i_spend, game, seat=ben)
    act(services.hand_mark_down, game, seat=ann)
    response = client.post(
        reverse("may_i", args=[game.pk]),
        {"version": stale, "seat": ann.pk},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    body = text_of(response)
    assert (
        f"On another screen a moment ago: {ann.player} went down; {ben.player} called May I?"
        in body
    )
    assert 'class="message refusal" role="alert"' in body


def test_a_stale_score_save_names_who_saved_which_contract(client, member, game):
    ben = make_user("ben")
    Membership.objects.create(club=game.club, user=ben, role=Role.SCORER)
    act(services.round_record_went_out, game, seat=seats(game)[0])
    typed = score_data(game)
    play_round_scores(game, user=ben)
    response = client.post(reverse("score", args=[game.pk]), typed, headers={"HX-Request": "true"})
    assert response.status_code == 409
    body = text_of(response)
    assert "On another screen a moment ago: ben saved contract 1." in body
    assert "nothing was saved from your tap" in body
    assert "Contract 2 of 7" in body


def test_a_stale_score_save_names_the_player_the_member_said_is_them(client, member, game):
    ben = make_user("ben")
    Membership.objects.create(club=game.club, user=ben, role=Role.SCORER)
    services.player_account_link(player=seats(game)[1].player, user=ben)
    act(services.round_record_went_out, game, seat=seats(game)[0])
    typed = score_data(game)
    play_round_scores(game, user=ben)
    response = client.post(reverse("score", args=[game.pk]), typed, headers={"HX-Request": "true"})
    assert response.status_code == 409
    named = f"On another screen a moment ago: {seats(game)[1].player} saved contract 1."
    assert named in text_of(response)


def test_a_stale_save_of_ones_own_other_screen_says_you(client, member, game):
    act(services.round_record_went_out, game, seat=seats(game)[0])
    typed = score_data(game)
    play_round_scores(game, user=member)
    response = client.post(reverse("score", args=[game.pk]), typed)
    assert response.status_code == 409
    assert "On another screen a moment ago: you saved contract 1." in text_of(response)


def test_a_stale_round_edit_names_who_corrected_which_contract(client, member, game):
    play_round(game, points=[10, 20, 30])
    edit = reverse("round_edit", args=[game.pk, 1])
    page = client.get(edit)
    stale = page.context["score_form"].initial["version"]
    ben = make_user("ben")
    Membership.objects.create(club=game.club, user=ben, role=Role.SCORER)
    others = seats(game)[1:]
    game.refresh_from_db()
    services.round_edit(
        game=game,
        version=game.version,
        round_=game.rounds.get(number=1),
        entries={seat.pk: rules.HandEntry(points=15) for seat in others},
        user=ben,
    )
    data = {"version": stale, "went_out": seats(game)[0].pk}
    data |= {f"points_{seat.pk}": 25 for seat in others}
    response = client.post(edit, data)
    assert response.status_code == 409
    assert "On another screen a moment ago: ben corrected contract 1's scores." in text_of(response)


def play_round_scores(game, *, user):
    """Score the round someone went out of, as `user` on another screen."""
    game.refresh_from_db()
    entries = {seat.pk: rules.HandEntry(points=10) for seat in seats(game)[1:]}
    services.round_score(game=game, version=game.version, entries=entries, user=user)


# Photos, shown where they were read


def hand_photo(client, game, seat, content=None):
    file = SimpleUploadedFile("hand.jpg", content or PHOTO.read_bytes(), "image/jpeg")
    return client.post(
        reverse("score_photo", args=[game.pk]),
        {"version": game.version, "photo_seat": seat.pk, f"photo_{seat.pk}": file},
        headers={"HX-Request": "true"},
    )


def test_a_hand_photo_is_read_and_shown_marked_in_that_hands_row(client, member, game):
    ann, ben, cleo, dev = seats(game)
    act(services.round_record_went_out, game, seat=ann)
    response = hand_photo(client, game, cleo, FAN.read_bytes())
    assert response.status_code == 200
    body = text_of(response)
    photo = Photo.objects.get()
    reading = reverse("photo_reading", args=[photo.pk])
    cleo_row = body[body.index(f'data-seat="{cleo.pk}"') :]
    cleo_row = cleo_row[: cleo_row.index("</fieldset>")]
    assert f'hx-get="{reading}"' in cleo_row
    assert f"Reading the photo of {cleo.player}'s cards" in cleo_row
    assert "Reading the photo" not in body.replace(cleo_row, "")

    run_tasks()
    photo.refresh_from_db()
    read = text_of(client.get(reading))
    cards_read = " ".join(found["card"] for found in photo.detections)
    assert f'data-fill="id_cards_{cleo.pk}"' in read
    assert f'href="{reverse("photo", args=[photo.pk])}"' in read
    assert read.count('<g class="mark') == len(photo.detections)
    count = len(photo.detections)
    cards = "card" if count == 1 else "cards"
    assert f"Read {count} {cards}: they are in {cleo.player}'s cards above." in read
    # Where the recognizer was unsure is marked too, a tap adding the card, unless that card was
    # read: not counted as read.
    unread = {found["card"] for found in photo.unread} - set(cards_read.split())
    assert unread
    assert read.count('<g class="candidate"') == len(unread)
    assert read.count('class="secondary outline add-card"') == len(unread)
    flags = ",".join(map(str, photo.unsure_indices))
    assert f'data-unsure="{flags}"' in read
    assert f'data-cards="{cards_read}"' in read


def test_cards_read_unsure_are_found_by_their_place_in_the_hand():
    photo = Photo(
        width=100,
        height=100,
        detections=[
            {"card": "6S", "confidence": 0.99, "box": [0, 0, 10, 10]},
            {"card": "9H", "confidence": 0.41, "box": [20, 0, 30, 10]},
            {"card": "JK", "confidence": 0.60, "box": [40, 0, 50, 10]},
        ],
    )
    assert photo.unsure_indices == [1, 2]
    assert [mark["unsure"] for mark in photo.marks] == [False, True, True]


def test_the_standalone_checker_reads_a_photo_shows_it_and_keeps_nothing(client, member, media):
    file = SimpleUploadedFile("meld.jpg", PHOTO.read_bytes(), "image/jpeg")
    response = client.post(reverse("checker_photo"), {"photo": file})
    assert response.status_code == 200
    body = text_of(response)
    assert "Meld checker" in body and "Reading the photo" in body
    reading = body.split('class="photo-reading" role="status" hx-get="')[1].split('"')[0]
    assert client.get(reading).status_code == 204
    assert [path.name for path in media.rglob("*") if path.is_file()]  # until it is read

    run_tasks()
    read = text_of(client.get(reading))
    assert 'data-fill="id_cards"' in read and 'data-preview="checker-photo-input"' in read
    assert "6S" in read.split('data-cards="')[1].split('"')[0]
    assert '<image href=""' in read  # the page shows the photo it still holds
    assert not Photo.objects.exists()
    assert not [path for path in media.rglob("*") if path.is_file()]
    # Only whoever took it may see what was read.
    client.force_login(make_club().memberships.get().user)
    assert client.get(reading).status_code == 404
    assert client.get(reverse("checker_photo_reading", args=["not-a-task"])).status_code == 404


def test_a_standalone_photo_that_cannot_be_read_says_so(client, member, media):
    content = PHOTO.read_bytes()
    file = SimpleUploadedFile("cut.jpg", content[: len(content) // 2], "image/jpeg")
    body = text_of(client.post(reverse("checker_photo"), {"photo": file}))
    reading = body.split('class="photo-reading" role="status" hx-get="')[1].split('"')[0]
    run_tasks()
    read = text_of(client.get(reading))
    assert "damaged or cut short" in read and "data-cards" not in read
    assert not [path for path in media.rglob("*") if path.is_file()]


def test_the_standalone_checker_refuses_a_file_that_is_no_photo(client, member):
    file = SimpleUploadedFile("notes.txt", b"not a photo", "text/plain")
    response = client.post(reverse("checker_photo"), {"photo": file})
    assert response.status_code == 200
    body = text_of(response)
    assert 'aria-describedby="checker-photo-errors"' in body
    assert "That file is not a photo we can read" in body
    assert not Photo.objects.exists()


def test_the_standalone_photo_needs_a_post_and_a_login(client):
    assert client.post(reverse("checker_photo")).status_code == 302
    client.force_login(make_club().memberships.get().user)
    assert client.get(reverse("checker_photo")).status_code == 405


def test_the_standalone_checker_offers_a_photo_button(client, member):
    body = text_of(client.get(reverse("checker")))
    assert f'action="{reverse("checker_photo")}"' in body
    assert '<button type="button" class="photo-trigger"' in body


# Words


def test_what_could_i_lay_down_is_answered_in_its_own_words(client, member):
    response = client.post(reverse("checker"), {"question": "hint", "cards": "7H 7S 7D 9C 9H 9S"})
    assert "✔ You could lay this down" in text_of(response)
    response = client.post(reverse("checker"), {"question": "hint", "cards": "7H 8S 2D"})
    assert "✘ Nothing to lay down yet" in text_of(response)


def test_the_first_dealer_is_named_by_the_players_picked(client):
    club = make_club()
    ann, ben = make_player(club, "Ann"), make_player(club, "Ben")
    client.force_login(club.memberships.get().user)
    data = {"seat_0": ann.pk, "seat_1": ben.pk, "first_dealer": 7}
    body = text_of(client.post(reverse("game_new", args=[club.pk]), data))
    menu = body[
        body.index('name="first_dealer"') : body.index("</select>", body.index("first_dealer"))
    ]
    assert re.search(r'value="0"[^>]*>Ann<', menu)
    assert re.search(r'value="1"[^>]*>Ben<', menu)
    assert re.search(r'value="2"[^>]*>Seat 3<', menu)


def test_field_errors_are_tied_to_their_inputs(client):
    club = make_club()
    client.force_login(club.memberships.get().user)
    response = client.post(reverse("season_add", args=[club.pk]), {"name": "", "starts_on": "x"})
    body = response.content.decode()
    assert 'aria-describedby="id_season_name_error"' in body
    assert 'id="id_season_name_error"' in body


# The club's time zone


def test_a_club_chooses_its_time_zone(client):
    club = make_club()
    client.force_login(club.memberships.get().user)
    url = reverse("club_time_zone", args=[club.pk])
    response = client.post(url, {"time_zone": "Pacific/Auckland"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.time_zone == "Pacific/Auckland"
    page = client.get(club.get_absolute_url()).content.decode()
    assert '<option value="Pacific/Auckland" selected>Pacific/Auckland</option>' in page
    assert page.count(" selected>") == page.count("<select")  # one chosen in each menu
    assert '<option value="America/New_York">America/New York</option>' in page


@pytest.mark.parametrize("value", ["Mars/Olympus", "", "x" * 500, "../../etc/passwd"])
def test_a_time_zone_not_in_the_list_is_refused_and_changes_nothing(client, value):
    club = make_club()
    client.force_login(club.memberships.get().user)
    response = client.post(reverse("club_time_zone", args=[club.pk]), {"time_zone": value})
    assert response.status_code == 200
    assert 'id="id_time_zone_error"' in response.content.decode()
    club.refresh_from_db()
    assert club.time_zone == "UTC"


def test_time_zone_needs_a_post_a_member_and_a_login(client):
    club = make_club()
    url = reverse("club_time_zone", args=[club.pk])
    assert client.post(url, {"time_zone": "Europe/Paris"}).status_code == 302
    client.force_login(make_club().memberships.get().user)
    assert client.post(url, {"time_zone": "Europe/Paris"}).status_code == 404
    assert client.get(url).status_code == 405
    assert Club.objects.get(pk=club.pk).time_zone == "UTC"


def test_a_new_club_can_start_in_its_time_zone(client):
    client.force_login(make_club().memberships.get().user)
    response = client.post(reverse("club_new"), {"name": "Kiwis", "time_zone": "Pacific/Auckland"})
    assert response.status_code == 302
    assert Club.objects.get(name="Kiwis").time_zone == "Pacific/Auckland"


def test_history_shows_date_and_time_in_the_clubs_time_zone(client, member, game):
    services.club_set_time_zone(user=game.club.owner(), club=game.club, time_zone="Asia/Tokyo")
    act(services.may_i_spend, game, seat=seats(game)[0])
    Event.objects.update(created_at=datetime(2026, 3, 5, 20, 30, 15, tzinfo=UTC))
    body = text_of(client.get(reverse("history", args=[game.pk])))
    assert "Fri 6 Mar, 05:30:15" in body  # 20:30 UTC on Thursday is 05:30 on Friday in Tokyo
    assert timezone.get_current_timezone_name() == "UTC"  # and the next request starts in UTC


def test_a_player_page_shows_dates_in_the_clubs_time_zone(client, member, game):
    services.club_set_time_zone(user=member, club=game.club, time_zone="Asia/Tokyo")
    finish_game(game)
    Result.objects.update(finished_at=datetime(2026, 3, 5, 20, 30, tzinfo=UTC))
    body = text_of(client.get(seats(game)[0].player.get_absolute_url()))
    assert "Fri 6 Mar 2026, 05:30" in body  # the last games: 05:30 on Friday in Tokyo
    assert ">6 Mar<" in body  # and the charts' dates
    assert "5 Mar" not in body


def test_the_player_pages_tables_scroll_in_boxes_of_their_own(client, member, game):
    finish_game(game)
    body = text_of(client.get(seats(game)[0].player.get_absolute_url()))
    for name in ["Head to head", "Points left per contract", "Last games"]:
        assert f'<div class="table-scroll" tabindex="0" role="region" aria-label="{name}">' in body
    # The heading no longer holds the player's name, however long: the line under it does.
    assert "<th>Ahead</th>" in body


# What a screen reader hears


def test_a_line_taken_back_says_so_in_words_not_only_by_its_strike_through(client, member, game):
    ann, ben, *_ = seats(game)
    act(services.may_i_spend, game, seat=ann)
    act(services.may_i_spend, game, seat=ben)
    act(services.action_undo, game)
    body = text_of(client.get(reverse("history", args=[game.pk])))
    rows = re.findall(r"<tr[^>]*>.*?</tr>", body, flags=re.DOTALL)
    taken_back = [row for row in rows if "taken back" in row]
    assert len(taken_back) == 1 and f"{ben.player}" in taken_back[0]
    assert 'class="undone"' in taken_back[0]


def test_a_photo_is_described_by_whose_hand_which_contract_and_when(client, member, game):
    services.club_set_time_zone(user=member, club=game.club, time_zone="Asia/Tokyo")
    kept_photo(game, seat=seats(game)[1])
    check = record_check(game, game.rounds.get(number=1))
    kept_photo(game, check_asked=check)
    kept_photo(game)
    Photo.objects.update(created_at=datetime(2026, 3, 5, 20, 30, tzinfo=UTC))
    body = text_of(client.get(reverse("table_photos", args=[game.pk])))
    when = "contract 1, taken Fri 6 Mar, 05:30"
    assert re.findall(r'<img [^>]*alt="([^"]*)"', body) == [
        f"Photo of {seats(game)[1].player}'s hand, {when}",
        f"Photo for the meld checker's question Is this a book or a run?, {when}",
        f"Photo read into the meld checker, {when}",
    ]


def test_the_tvs_may_i_coins_are_a_picture_with_a_name(client, game):
    act(services.may_i_spend, game, seat=seats(game)[0])
    link = services.tv_link_create(game=game, user=game.created_by)
    body = client.get(link.get_absolute_url()).content.decode()
    # A name on a plain <span> is not announced (invalid ARIA): the coins are an image.
    assert not re.search(r"<(span|div)(?![^>]*\brole=)[^>]*aria-label", body)
    assert body.count('role="img" aria-label="1 May I? left"') == 1
    assert body.count('role="img" aria-label="2 May I?s left"') == 3


def test_the_round_edit_names_players_not_seats(client, member, game):
    play_round(game)
    body = text_of(client.get(reverse("round_edit", args=[game.pk, 1])))
    menu = body[body.index('name="went_out"') : body.index("</select>", body.index("went_out"))]
    assert "seat" not in menu.lower().replace('name="went_out"', "")
    for seat in seats(game):
        assert f">{seat.player}</option>" in menu


def test_where_tasks_run_in_the_request_the_standalone_photo_is_read_at_once(
    client, member, media, settings
):
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    file = SimpleUploadedFile("meld.jpg", PHOTO.read_bytes(), "image/jpeg")
    body = text_of(client.post(reverse("checker_photo"), {"photo": file}))
    assert "Reading the photo" not in body
    assert "6S" in body.split('data-cards="')[1].split('"')[0]
    assert not [path for path in media.rglob("*") if path.is_file()]
