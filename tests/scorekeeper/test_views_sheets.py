"""The sheet to send to the family chat (selectors/sheets.py, sheet_image.py, views/sheets.py):
game over and the club night offer their sheet as a picture and as text, both built from the
sheet their page is built from, for the club's members only."""

import html
import io
import re

import pytest
from django.urls import reverse
from PIL import Image

from scorekeeper import selectors, services
from scorekeeper.selectors import sheets
from scorekeeper.selectors.sheet_image import sheet_drawing
from scorekeeper.selectors.tonight import tonight_for
from tests.factories import act, finish_game, make_club, make_game, make_player, seats

# slow: finished tables played through the services.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def over(game):
    """Contract 1: Ben claims Ann's discard, Cleo protects her own twice; then the table ends:
    Ann goes out of contracts 1 to 4, Ben of 5 to 7."""
    ann, ben, cleo, _ = seats(game)
    act(services.hand_mark_down, game, seat=ann)
    act(services.shanghai_record, game, seat=ben, discarder=ann)
    act(services.shanghai_record, game, seat=cleo, discarder=None)
    act(services.shanghai_record, game, seat=cleo, discarder=None)
    return finish_game(game, [(0, None)] * 4 + [(1, None)] * 3)


def picture(response) -> Image.Image:
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(response.content))


def rows_drawn(drawing) -> list[list[str]]:
    """The picture's texts, a list a line of it, top to bottom, left to right."""
    by_y = {}
    for text in drawing.texts:
        by_y.setdefault(text.y, []).append(text)
    return [
        [text.text for text in sorted(row, key=lambda t: t.x)] for _, row in sorted(by_y.items())
    ]


def test_the_picture_draws_the_numbers_of_the_page(over):
    board = selectors.game_board(over)
    sheet = sheets.table_sheet(over, board)
    drawn = rows_drawn(sheet_drawing(sheet))
    by_place = sorted(board.lines, key=lambda line: line.place)
    for line in by_place:
        cells = [str(line.place), str(line.seat.player), *map(str, line.points), str(line.total)]
        assert cells in drawn
        counts = [line.rounds_won, line.shanghai_claims, line.shanghai_protects, line.may_i_used]
        assert [str(line.seat.player), *map(str, counts)] in drawn
    ann, ben, cleo, dev = (line for line in board.lines)
    assert [str(ben.seat.player), "3", "1", "0", "0"] in drawn
    assert [str(cleo.seat.player), "0", "0", "2", "0"] in drawn
    assert [f"{ann.seat.player} wins with {ann.total} points."] in drawn
    assert [f"Went out most: {ann.seat.player}, 4 contracts."] in drawn
    assert ["Running totals"] in drawn


def test_game_over_offers_the_picture_and_the_text_of_one_sheet(client, member, over):
    board = selectors.game_board(over)
    sheet = sheets.table_sheet(over, board)
    page = html.unescape(client.get(over.get_absolute_url()).content.decode())
    url = reverse("game_sheet", args=[over.pk])
    assert f'href="{url}" download="{sheet.filename}.png"' in page
    text = sheets.sheet_text(sheet)
    first, *others = sorted(board.lines, key=lambda line: line.place)
    assert text.splitlines()[1:3] == [
        f"{first.seat.player} wins with {first.total} points.",
        f"1. {first.seat.player} {first.total}",
    ]
    assert text.splitlines()[-1] == f"Went out most: {first.seat.player}, 4 contracts."
    assert f">{text}</textarea>" in page
    image = picture(client.get(url))
    drawing = sheet_drawing(sheet)
    assert image.size == (drawing.width, drawing.height)
    low, high = image.convert("L").getextrema()
    assert high == 255 and low < 64  # white paper with ink on it


def test_a_table_still_playing_offers_no_sheet_but_its_picture_says_so_far(client, member, game):
    assert "data-share" not in client.get(game.get_absolute_url()).content.decode()
    sheet = sheets.table_sheet(game, selectors.game_board(game))
    assert sheet.lines == ("No contract scored yet.",)
    picture(client.get(reverse("game_sheet", args=[game.pk])))


def test_a_club_night_offers_its_sheet(client):
    club = make_club(name="The Crown")
    ann, ben, cat = (make_player(club, name) for name in ["Ann", "Ben", "Cat"])
    finish_game(make_game(club, [ann, ben, cat]))
    client.force_login(club.owner())
    url = reverse("tonight_sheet", args=[club.pk])
    page = html.unescape(client.get(reverse("club_tonight", args=[club.pk])).content.decode())
    assert f'href="{url}"' in page
    sheet = sheets.night_sheet(tonight_for(club=club))
    text = sheets.sheet_text(sheet)
    assert f">{text}</textarea>" in page
    assert re.search(r"\d\d:\d\d: 1\. Ann 0, 2\. Ben 70, 3\. Cat 140", text)
    assert "Went out most: Ann, 7 contracts." in text
    drawn = rows_drawn(sheet_drawing(sheet))
    assert any(row[1:] == ["1. Ann 0 · 2. Ben 70 · 3. Cat 140"] for row in drawn)
    assert ["1", "Ann", "new", any_rating(drawn)] in drawn
    image = picture(client.get(url))
    assert image.size == (sheet_drawing(sheet).width, sheet_drawing(sheet).height)


def any_rating(drawn) -> str:
    return next(row[3] for row in drawn if row[:3] == ["1", "Ann", "new"])


def test_a_night_with_nothing_finished_offers_no_sheet(client):
    club = make_club()
    client.force_login(club.owner())
    assert "data-share" not in client.get(reverse("club_tonight", args=[club.pk])).content.decode()


@pytest.mark.parametrize("name", ["game_sheet", "tonight_sheet"])
def test_only_the_clubs_members_get_the_picture_and_only_by_get(client, over, name):
    target = over if name == "game_sheet" else over.club
    url = reverse(name, args=[target.pk])
    assert client.get(url)["Location"].startswith(reverse("login"))
    client.force_login(make_club().owner())
    assert client.get(url).status_code == 404
    client.force_login(over.club.owner())
    assert client.post(url).status_code == 405
    assert client.get(url).status_code == 200


def test_the_picture_reads_a_fixed_number_of_queries(
    client, member, over, django_assert_num_queries
):
    # Session, user, the table with its club and the member's role; the board of a finished
    # table: seats, rounds, their hands, the last action, the Shanghai calls.
    with django_assert_num_queries(8):
        assert client.get(reverse("game_sheet", args=[over.pk])).status_code == 200
