"""Send to BG Stats (scorekeeper/selectors/bgstats.py): a finished table as a play in the BG
Stats app's documented import format, its ranks, winners and start player, the link's encoding,
and the link on the finished table's page."""

import html
import json
import re
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from django.urls import reverse

from scorekeeper.models import Club, Game, Membership, Player, Role
from scorekeeper.selectors import game_board
from scorekeeper.selectors.bgstats import bgstats_play, bgstats_url
from tests.factories import finish_game, make_club, make_game, make_player, make_user, play_round

# slow: finished tables played through the services.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# The play's fields as BG Stats documents them, with the JSON type of each ("Push plays to BG
# Stats from other apps or websites", bgstatsapp.com/support/): the example play's every field.
# `score` is a number (the example's is 47.3). Anything we send must be one of these.
DOCUMENTED_PLAY = {
    "sourceName": str,
    "sourcePlayId": str,
    "playDate": str,  # "2020-10-23 19:16:58"
    "durationMin": int,
    "location": str,
    "comments": str,
    "board": str,
    "game": dict,
    "players": list,
}
DOCUMENTED_GAME = {
    "name": str,
    "sourceGameId": str,
    "bggId": int,
    "highestWins": bool,
    "noPoints": bool,
}
DOCUMENTED_PLAYER = {
    "name": str,
    "sourcePlayerId": str,
    "score": (int, float),
    "rank": int,
    "winner": bool,
    "startPlayer": bool,
    "role": str,
}
# What we rely on BG Stats reading: who played, what, when, and the outcome (its Android app
# refuses a player without `winner`).
REQUIRED_PLAY = {"sourceName", "sourcePlayId", "playDate", "game", "players"}
REQUIRED_GAME = {"name", "sourceGameId", "highestWins", "noPoints"}
REQUIRED_PLAYER = {"name", "sourcePlayerId", "score", "rank", "winner", "startPlayer"}


def assert_documented(fields: dict, documented: dict, required: set, what: str) -> None:
    assert required <= fields.keys(), f"{what} lacks {required - fields.keys()}"
    for key, value in fields.items():
        assert key in documented, f"{what}.{key} is not a documented field"
        types = documented[key] if isinstance(documented[key], tuple) else (documented[key],)
        # Exact types: JSON keeps true apart from 1, so a bool is no int here.
        assert type(value) in types, f"{what}.{key} is {type(value).__name__}"


def finished_table(players: int = 3, *, first_dealer: int = 0, rounds=None) -> Game:
    club = make_club(name="The Crown")
    game = finish_game(make_game(club, players, first_dealer=first_dealer), rounds)
    return Game.objects.select_related("club").get(pk=game.pk)


def play_of(game: Game) -> dict:
    return bgstats_play(game, game_board(game))


@pytest.mark.parametrize("players", [3, 5])
def test_every_field_sent_is_documented_and_the_needed_ones_are_there(players):
    play = play_of(finished_table(players))
    assert_documented(play, DOCUMENTED_PLAY, REQUIRED_PLAY, "play")
    assert_documented(play["game"], DOCUMENTED_GAME, REQUIRED_GAME, "game")
    assert len(play["players"]) == players
    for player in play["players"]:
        assert_documented(player, DOCUMENTED_PLAYER, REQUIRED_PLAYER, "player")


def test_the_play_names_the_app_the_game_the_club_and_the_table():
    game = finished_table()
    play = play_of(game)
    assert play["sourceName"] == "Shanghai Scorekeeper"
    assert play["sourcePlayId"] == str(game.pk)
    assert play["location"] == "The Crown"
    assert play["game"] == {
        "name": "Shanghai Rummy",
        "sourceGameId": "shanghai-rummy",
        "highestWins": False,
        "noPoints": False,
    }
    seats = game.seats.order_by("position").select_related("player")
    assert [(p["name"], p["sourcePlayerId"]) for p in play["players"]] == [
        (seat.player.name, str(seat.player_id)) for seat in seats
    ]


def test_the_date_is_the_tables_start_in_utc_and_the_duration_its_length():
    game = finished_table()
    started = datetime(2026, 3, 5, 19, 16, 58, 400000, tzinfo=UTC)
    Game.objects.filter(pk=game.pk).update(
        started_at=started, finished_at=started + timedelta(minutes=47, seconds=40)
    )
    game.refresh_from_db()
    play = play_of(game)
    assert play["playDate"] == "2026-03-05 19:16:58"
    assert play["durationMin"] == 48


def test_scores_ranks_and_the_winner():
    # Seat 0 goes out of every contract, the others keep 10 and 20: 0, 70, 140.
    players = play_of(finished_table())["players"]
    assert [(p["score"], p["rank"], p["winner"]) for p in players] == [
        (0, 1, True),
        (70, 2, False),
        (140, 3, False),
    ]


def test_a_tie_shares_the_rank_and_the_win():
    # Seats 0 and 1 take turns going out, then seat 2 does: 40, 40, 120.
    rounds = [(n % 2, [10, 20]) for n in range(6)] + [(2, [10, 10])]
    players = play_of(finished_table(rounds=rounds))["players"]
    assert [(p["score"], p["rank"], p["winner"]) for p in players] == [
        (40, 1, True),
        (40, 1, True),
        (120, 3, False),
    ]


@pytest.mark.parametrize(("players", "first_dealer", "starts"), [(3, 0, 1), (3, 2, 0), (5, 3, 4)])
def test_the_start_player_is_who_played_first_in_contract_1(players, first_dealer, starts):
    game = make_game(players=players, first_dealer=first_dealer)
    first = game_board(game).first_player  # what the round screen said in contract 1
    finish_game(game)
    game = Game.objects.select_related("club").get(pk=game.pk)
    play = play_of(game)
    assert [p["startPlayer"] for p in play["players"]] == [n == starts for n in range(players)]
    assert play["players"][starts]["name"] == first.player.name


def test_the_link_opens_bg_stats_and_round_trips_through_url_encoding():
    game = finished_table()
    names = ["Zoë & Co", "A+B=C #1", "50%?"]
    for seat, name in zip(game.seats.order_by("position"), names, strict=True):
        Player.objects.filter(pk=seat.player_id).update(name=name)
    Club.objects.filter(pk=game.club_id).update(name='Café "L\'As" / Nord')
    game = Game.objects.select_related("club").get(pk=game.pk)
    url = bgstats_url(game, game_board(game))
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "bgstats",
        "app.bgstatsapp.com",
        "/createPlay.html",
    )
    assert re.fullmatch(r"data=[A-Za-z0-9%._~-]+", parts.query)  # nothing left unencoded
    (data,) = parse_qs(parts.query)["data"]
    play = json.loads(data)
    assert play == json.loads(unquote(parts.query.removeprefix("data=")))
    assert play == play_of(game)
    assert [p["name"] for p in play["players"]] == names
    assert play["location"] == 'Café "L\'As" / Nord'


@pytest.mark.parametrize("players", [3, 5])
def test_the_play_is_built_from_the_board_without_a_query(django_assert_num_queries, players):
    game = finished_table(players)
    board = game_board(game)
    with django_assert_num_queries(0):
        bgstats_url(game, board)


def test_a_table_still_being_played_is_no_play():
    game = make_game(players=3)
    with pytest.raises(ValueError):
        bgstats_play(game, game_board(game))


# The link on the table's page


def page_of(client, game: Game) -> str:
    return html.unescape(client.get(game.get_absolute_url()).content.decode())


def test_a_finished_table_offers_send_to_bg_stats(client):
    game = finished_table()
    client.force_login(game.club.owner())
    page = page_of(client, game)
    href = re.search(
        r'<a role="button" class="secondary outline" href="([^"]+)">Send to BG Stats</a>', page
    )[1]
    assert href == bgstats_url(game, game_board(game))


def test_a_viewer_may_send_it_too(client):
    game = finished_table()
    viewer = make_user()
    Membership.objects.create(club=game.club, user=viewer, role=Role.VIEWER)
    client.force_login(viewer)
    assert "Send to BG Stats" in page_of(client, game)


def test_a_table_in_play_does_not_offer_it(client):
    club = make_club()
    game = play_round(make_game(club, [make_player(club) for _ in range(3)]))
    client.force_login(club.owner())
    assert "Send to BG Stats" not in page_of(client, game)
    response = client.get(reverse("game", args=[game.pk]), headers={"HX-Request": "true"})
    assert "Send to BG Stats" not in response.content.decode()
