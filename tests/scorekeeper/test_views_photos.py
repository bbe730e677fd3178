"""Photos at the table: what is accepted, what is refused and why, and who may see them
(scorekeeper/views/photos.py)."""

import io
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image
from pillow_heif import register_heif_opener

from recognizer.reader import MIN_CONFIDENCE
from scorekeeper import services
from scorekeeper.models import Check, Membership, Photo, PhotoStatus, Role
from tests.factories import (
    PHOTO,
    bad_seat,
    database_state,
    finish_game,
    kept_photo,
    make_club,
    make_user,
    play_round,
    post_refused,
    record_check,
    run_tasks,
    score_data,
    seats,
    text_of,
    url,
)

register_heif_opener()


# slow: real photos read by the recognizer.
pytestmark = [pytest.mark.django_db, pytest.mark.players(3), pytest.mark.slow]


def upload(client, game, name, content, content_type="image/jpeg"):
    file = SimpleUploadedFile(name, content, content_type=content_type)
    return client.post(reverse("table_photo", args=[game.pk]), {"photo": file})


def read(client, game, name, content, **options):
    """A photo taken at the table, then read by a worker."""
    response = upload(client, game, name, content, **options)
    run_tasks()
    return response


def encoded(image: Image.Image, format: str, **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=format, **options)
    return buffer.getvalue()


def test_a_photo_is_kept_at_once_and_read_into_the_checker_by_a_worker(client, member, game):
    response = upload(client, game, "meld.jpg", PHOTO.read_bytes())
    assert response.status_code == 200
    photo = Photo.objects.get()
    assert photo.status == PhotoStatus.READING and photo.detections == []
    reading = reverse("photo_reading", args=[photo.pk])
    assert f'hx-get="{reading}"' in text_of(response)
    assert "Reading the photo" in text_of(response)
    # Until a worker has read it, the poll changes nothing and nobody sees the upload.
    assert client.get(reading).status_code == 204
    assert client.get(reverse("photo", args=[photo.pk])).status_code == 404

    run_tasks()
    photo.refresh_from_db()
    assert photo.status == PhotoStatus.READ
    assert "6S" in {found["card"] for found in photo.detections}
    body = text_of(client.get(reading))
    assert 'data-fill="id_cards"' in body
    assert "6S" in body.split('data-cards="')[1].split('"')[0]
    assert f'href="{reverse("photo", args=[photo.pk])}"' in body
    assert client.get(reverse("photo", args=[photo.pk])).status_code == 200


def test_the_photo_answers_htmx_with_the_photo_alone(client, member, game):
    file = SimpleUploadedFile("meld.jpg", PHOTO.read_bytes(), content_type="image/jpeg")
    response = client.post(
        reverse("table_photo", args=[game.pk]), {"photo": file}, headers={"HX-Request": "true"}
    )
    body = text_of(response)
    assert body.lstrip().startswith('<div id="photo-slot">')
    photo = Photo.objects.get()
    assert f'name="photo" value="{photo.pk}" form="checker-form"' in body


def test_a_photo_read_twice_is_read_once(client, member, game):
    upload(client, game, "meld.jpg", PHOTO.read_bytes())
    photo = Photo.objects.get()
    services.photo_read.enqueue(photo.pk)  # as if its worker was killed and it was queued again
    run_tasks()
    photo.refresh_from_db()
    assert photo.status == PhotoStatus.READ
    stored = [path for path in (Path(photo.image.path).parent).iterdir()]
    assert stored == [Path(photo.image.path)]  # the upload and any second copy are gone


def test_not_an_image_is_refused_and_nothing_is_kept(client, member, game):
    response = upload(client, game, "notes.txt", b"7H 8H 9H", content_type="text/plain")
    assert "not a photo we can read" in text_of(response)
    assert not Photo.objects.exists()


def test_a_gif_is_refused_by_name(client, member, game):
    gif = encoded(Image.new("RGB", (40, 40), "white"), "GIF")
    assert "use JPEG, PNG, WebP or HEIC" in text_of(upload(client, game, "a.gif", gif))
    assert not Photo.objects.exists()


def test_too_many_bytes_is_refused(client, member, game, settings):
    settings.PHOTO_MAX_BYTES = 10_000
    response = upload(client, game, "big.jpg", PHOTO.read_bytes())
    assert "photos up to 0 MB" in text_of(response) or "MB are accepted" in text_of(response)
    assert not Photo.objects.exists()


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
def test_a_decompression_bomb_is_refused_before_it_is_decoded(client, member, game):
    bomb = encoded(Image.new("1", (12_000, 12_000)), "PNG")
    assert len(bomb) < 1_000_000
    response = upload(client, game, "bomb.png", bomb, content_type="image/png")
    assert "too large to read" in text_of(response)
    assert not Photo.objects.exists()


def test_a_truncated_photo_is_said_to_be_damaged_once_the_worker_tried(client, member, game, media):
    content = PHOTO.read_bytes()
    upload(client, game, "cut.jpg", content[: len(content) // 2])
    run_tasks()
    photo = Photo.objects.get()
    assert photo.status == PhotoStatus.UNREADABLE and not photo.image
    body = text_of(client.get(reverse("photo_reading", args=[photo.pk])))
    assert "damaged or cut short" in body
    assert "data-cards" not in body
    assert not [path for path in media.rglob("*") if path.is_file()]


def test_heic_from_an_ipad_is_accepted_and_stored_as_jpeg(client, member, game):
    heic = encoded(Image.open(PHOTO), "HEIF")
    response = read(client, game, "IMG_0001.HEIC", heic, content_type="image/heic")
    assert response.status_code == 200
    photo = Photo.objects.get()
    with photo.image.open("rb") as stored, Image.open(stored) as image:
        assert image.format == "JPEG"


def test_location_data_is_stripped_and_orientation_applied(client, member, game):
    original = Image.open(PHOTO)
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: turned 90 degrees
    exif[0x8825] = {2: (52.0, 22.0, 1.0), 4: (4.0, 53.0, 2.0)}  # GPS latitude and longitude
    content = encoded(original, "JPEG", exif=exif)
    read(client, game, "gps.jpg", content)
    photo = Photo.objects.get()
    with photo.image.open("rb") as stored, Image.open(stored) as image:
        assert not image.getexif()
        assert image.size == (original.height, original.width)
    assert (photo.width, photo.height) == (original.height, original.width)


def test_a_jpeg_comment_is_stripped_too(client, member, game):
    content = encoded(Image.open(PHOTO), "JPEG", comment=b"Kitchen at 12 Elm Street")
    read(client, game, "note.jpg", content)
    with Photo.objects.get().image.open("rb") as stored:
        assert b"Elm Street" not in stored.read()


def test_photos_are_served_to_members_only_and_can_be_deleted(
    client, member, game, django_capture_on_commit_callbacks
):
    read(client, game, "meld.jpg", PHOTO.read_bytes())
    photo = Photo.objects.get()
    url = reverse("photo", args=[photo.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg"
    stranger = make_user()
    make_club(stranger)
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    assert client.post(reverse("photo_delete", args=[photo.pk])).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302
    client.force_login(game.club.memberships.get().user)
    assert client.get(reverse("photo_delete", args=[photo.pk])).status_code == 405
    path = Path(photo.image.path)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(reverse("photo_delete", args=[photo.pk])).status_code == 302
    assert not Photo.objects.exists()
    assert not path.exists()


def test_the_check_asked_about_a_photo_keeps_it(client, member, game):
    upload(client, game, "meld.jpg", PHOTO.read_bytes())
    photo = Photo.objects.get()
    client.post(
        reverse("table_check", args=[game.pk]),
        {"question": "meld", "cards": "6S 6H 6D", "photo": photo.pk},
    )
    photo.refresh_from_db()
    assert photo.check_asked == Check.objects.get()


def score_a_hand_from_a_photo(client, game, photo: Path, typed: dict[int, str]):
    """Seat 0 went out; seat 1's hand is photographed, the others' as ``typed`` (seat -> cards)."""
    seats = list(game.seats.order_by("position"))
    client.post(reverse("went_out", args=[game.pk]), {"version": 0, "seat": seats[0].pk})
    game.refresh_from_db()
    response = client.post(
        reverse("score_photo", args=[game.pk]),
        {
            "version": game.version,
            "photo_seat": seats[1].pk,
            f"photo_{seats[1].pk}": SimpleUploadedFile("hand.jpg", photo.read_bytes()),
        }
        | {f"cards_{seats[seat].pk}": cards for seat, cards in typed.items()},
        headers={"HX-Request": "true"},
    )
    return seats, text_of(response)


def test_score_entry_reads_a_hand_from_a_photo_and_keeps_what_was_typed(client, member, game):
    seats, body = score_a_hand_from_a_photo(client, game, PHOTO, {2: "K 7"})

    photo = Photo.objects.get()
    assert photo.seat == seats[1]
    assert f'name="cards_{seats[2].pk}" value="K 7"' in body
    assert f"Reading the photo of {seats[1].player}'s cards" in body
    reading = reverse("photo_reading", args=[photo.pk])
    assert client.get(reading).status_code == 204
    run_tasks()
    read = text_of(client.get(reading))
    assert f'data-fill="id_cards_{seats[1].pk}"' in read
    assert read.split('data-cards="')[1].startswith("6S")


def test_a_joker_in_a_hand_photo_is_filled_in_once(client, member, game):
    # The joker's word "Joker" is read as several letter pairs: still one joker, 50 points.
    score_a_hand_from_a_photo(client, game, PHOTO.with_name("phone_073.jpg"), {})
    run_tasks()
    read = text_of(client.get(reverse("photo_reading", args=[Photo.objects.get().pk])))
    assert 'data-cards="JK"' in read


def test_a_photo_being_read_is_polled_by_the_clubs_members_only(client, member, game, stranger):
    upload(client, game, "meld.jpg", PHOTO.read_bytes())
    reading = reverse("photo_reading", args=[Photo.objects.get(game=game).pk])
    assert client.post(reading).status_code == 405
    client.force_login(stranger.created_by)
    assert client.get(reading).status_code == 404
    client.logout()
    assert client.get(reading).status_code == 302


def test_a_photo_is_served_privately(client, member, game):
    read(client, game, "meld.jpg", PHOTO.read_bytes())
    response = client.get(reverse("photo", args=[Photo.objects.get().pk]))
    assert "private" in response["Cache-Control"]
    assert "public" not in response["Cache-Control"]


def test_a_photo_is_checked_with_the_server_each_time_so_a_member_taken_out_loses_it(
    client, member, game
):
    read(client, game, "meld.jpg", PHOTO.read_bytes())
    url = reverse("photo", args=[Photo.objects.get().pk])
    first = client.get(url)
    assert "no-cache" in first["Cache-Control"] and "max-age" not in first["Cache-Control"]
    unchanged = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert unchanged.status_code == 304
    assert "no-cache" in unchanged["Cache-Control"]
    game.club.memberships.filter(user=member).delete()
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 404


def test_a_photo_whose_file_is_gone_is_a_clear_404(client, member, game):
    read(client, game, "meld.jpg", PHOTO.read_bytes())
    photo = Photo.objects.get()
    Path(photo.image.path).unlink()
    assert client.get(reverse("photo", args=[photo.pk])).status_code == 404


@pytest.mark.players(4)
@pytest.mark.parametrize(
    "photo_seat", ["", "abc", "1.5", "999999", "-1", "other table", "²", "9" * 5000, str(2**64)]
)
def test_a_photo_for_a_seat_not_being_scored_asks_for_a_photo(
    client, member, scoring, stranger, photo_seat
):
    post_refused(
        client,
        url("score_photo", scoring),
        {**score_data(scoring), "photo_seat": bad_seat(photo_seat, stranger)},
        "Take or choose a photo first",
    )


def test_the_tables_photos_are_listed_by_contract_with_what_each_was_for(
    client, member, game, htmx_headers
):
    first = kept_photo(game, seat=seats(game)[1])
    play_round(game, went_out=0, points=[10, 20])
    check = record_check(game, game.rounds.get(number=2))
    for_check = kept_photo(game, check_asked=check)
    unasked = kept_photo(game)
    response = client.get(reverse("table_photos", args=[game.pk]), headers=htmx_headers)
    body = text_of(response)
    assert ("<html" in body) is not bool(htmx_headers)
    one, two = body.index("Contract 1"), body.index("Contract 2")
    assert one < body.index(f"{seats(game)[1].player}</strong>'s hand") < two
    assert two < body.index("Is this a book or a run?</strong> 8H 8S 8D")
    assert "no question was asked with it" in body
    for photo in [first, for_check, unasked]:
        assert f'src="{reverse("photo", args=[photo.pk])}"' in body
        assert reverse("photo_delete", args=[photo.pk]) in body
    assert 'name="back" value="photos"' in body
    # Each delete button says which photo it deletes, never a row number.
    player = seats(game)[1].player
    assert f'Delete<span class="sr-only"> the photo of {player}\'s hand, contract 1' in body
    assert f"Delete photo {first.pk}<" not in body


def test_the_history_links_to_the_photos(client, member, game):
    assert reverse("table_photos", args=[game.pk]) in text_of(client.get(url("history", game)))


def test_viewers_see_the_photos_without_delete_buttons(client, game):
    photo = kept_photo(game)
    viewer = make_user()
    Membership.objects.create(club=game.club, user=viewer, role=Role.VIEWER)
    client.force_login(viewer)
    body = text_of(client.get(reverse("table_photos", args=[game.pk])))
    assert reverse("photo", args=[photo.pk]) in body
    assert reverse("photo_delete", args=[photo.pk]) not in body
    before = database_state()
    response = client.post(reverse("photo_delete", args=[photo.pk]), {"back": "photos"})
    assert response.status_code == 403
    assert database_state() == before
    assert Path(photo.image.path).exists()


def test_a_scorer_deletes_a_photo_and_returns_to_the_list(
    client, game, django_capture_on_commit_callbacks
):
    finish_game(game)
    photo = kept_photo(game)
    scorer = make_user()
    Membership.objects.create(club=game.club, user=scorer, role=Role.SCORER)
    client.force_login(scorer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("photo_delete", args=[photo.pk]), {"back": "photos"}, follow=True
        )
    assert response.redirect_chain == [(reverse("table_photos", args=[game.pk]), 302)]
    assert "Deleted the photo." in text_of(response)
    assert not Photo.objects.exists()
    assert not Path(photo.image.path).exists()


def test_the_photo_list_is_for_the_clubs_members(client, member, game, stranger):
    assert client.get(reverse("table_photos", args=[stranger.pk])).status_code == 404
    assert client.post(reverse("table_photos", args=[game.pk])).status_code == 405
    client.logout()
    target = reverse("table_photos", args=[game.pk])
    assert client.get(target).url == f"{reverse('login')}?next={target}"


# session, user, table, photos with their contracts, questions, players and takers
@pytest.mark.parametrize("photos", [1, 12])
def test_the_photo_list_runs_a_fixed_number_of_queries(
    client, member, game, django_assert_num_queries, photos
):
    for number in range(photos):
        if number % 4 == 3:
            play_round(game, went_out=0, points=[10, 20])
        check = record_check(game, game.rounds.order_by("number").last())
        kept_photo(game, check_asked=check if number % 2 else None, seat=seats(game)[number % 3])
    with django_assert_num_queries(4):
        response = client.get(reverse("table_photos", args=[game.pk]))
    assert text_of(response).count('class="thumbnail"') == photos


@pytest.mark.players(4)  # score_data enters three hands
def test_a_photo_for_the_score_entry_is_kept_with_the_players_seat(client, member, scoring):
    seat = seats(scoring)[1]
    file = SimpleUploadedFile("hand.jpg", PHOTO.read_bytes(), content_type="image/jpeg")
    data = {**score_data(scoring), "photo_seat": seat.pk, f"photo_{seat.pk}": file}
    client.post(url("score_photo", scoring), data)
    assert Photo.objects.get().seat == seat


def test_a_full_club_refuses_a_photo_and_keeps_nothing(client, member, game, settings, media):
    kept_photo(game)
    settings.PHOTO_QUOTA_COUNT = 1
    files_before = sorted(media.rglob("*"))
    body = text_of(upload(client, game, "meld.jpg", PHOTO.read_bytes()))
    assert "This club's photos are full (1 photos, 200 MB): delete old ones" in body
    assert Photo.objects.count() == 1
    assert sorted(media.rglob("*")) == files_before


@pytest.mark.players(4)  # score_data enters three hands
def test_a_photo_beyond_the_clubs_bytes_is_refused(client, member, scoring, settings, media):
    settings.PHOTO_QUOTA_BYTES = 1024 * 1024
    kept_photo(scoring, size=1024 * 1024 - 10)
    files_before = sorted(media.rglob("*"))
    seat = seats(scoring)[1]
    file = SimpleUploadedFile("hand.jpg", PHOTO.read_bytes(), content_type="image/jpeg")
    data = {**score_data(scoring), "photo_seat": seat.pk, f"photo_{seat.pk}": file}
    before = database_state()
    body = text_of(client.post(url("score_photo", scoring), data))
    assert "This club's photos are full (500 photos, 1 MB)" in body
    assert database_state() == before
    assert sorted(media.rglob("*")) == files_before


def test_another_clubs_photos_do_not_count(client, member, game, stranger, settings):
    kept_photo(stranger)
    settings.PHOTO_QUOTA_COUNT = 1
    upload(client, game, "meld.jpg", PHOTO.read_bytes())
    assert Photo.objects.filter(game=game).count() == 1


def test_a_member_sending_photos_in_a_loop_is_slowed_down(client, member, game):
    for _ in range(20):
        upload(client, game, "meld.jpg", PHOTO.read_bytes())
    response = upload(client, game, "meld.jpg", PHOTO.read_bytes())
    assert response.status_code == 429
    assert Photo.objects.count() == 20


@pytest.mark.players(4)  # score_data enters three hands
def test_a_members_photos_are_counted_together_on_every_page(client, member, scoring):
    seat = seats(scoring)[1]

    def table_photo():
        return upload(client, scoring, "meld.jpg", PHOTO.read_bytes())

    def score_photo():
        file = SimpleUploadedFile("hand.jpg", PHOTO.read_bytes(), content_type="image/jpeg")
        data = {**score_data(scoring), "photo_seat": seat.pk, f"photo_{seat.pk}": file}
        return client.post(url("score_photo", scoring), data)

    def checker_photo():
        file = SimpleUploadedFile("hand.jpg", PHOTO.read_bytes(), content_type="image/jpeg")
        return client.post(reverse("checker_photo"), {"photo": file})

    pages = [table_photo, score_photo, checker_photo]
    assert [pages[n % 3]().status_code for n in range(20)] == [200] * 20
    for page in pages:  # the 21st photo of the minute, wherever it is taken
        response = page()
        assert response.status_code == 429
        assert "Too many attempts" in text_of(response)
    assert Photo.objects.count() == 14  # the standalone checker's are not kept


def hand_photo(client, game, seat, photo: Path, *, second=False, **typed):
    """A photo of `seat`'s hand taken on the score entry (a second photo of it, with `second`),
    with what else the page holds (`typed`: field name -> value)."""
    field = "photo_second" if second else "photo_seat"
    return client.post(
        reverse("score_photo", args=[game.pk]),
        {
            "version": game.version,
            field: seat.pk,
            f"photo_{seat.pk}": SimpleUploadedFile("hand.jpg", photo.read_bytes()),
            **typed,
        },
        headers={"HX-Request": "true"},
    )


def scored_by_ann(game):
    """Ann went out: the others' hands are to be entered."""
    ann = seats(game)[0]
    game.refresh_from_db()
    services.round_record_went_out(game=game, version=game.version, user=game.created_by, seat=ann)
    game.refresh_from_db()
    return seats(game)


def test_where_the_recognizer_was_unsure_is_kept_with_the_photo(client, member, game):
    ann, ben, cleo = scored_by_ann(game)
    hand_photo(client, game, ben, PHOTO.with_name("win_004.jpg"))
    run_tasks()
    photo = Photo.objects.get()
    assert "KC" in [found["card"] for found in photo.unread]
    assert all(found["confidence"] < MIN_CONFIDENCE for found in photo.unread)
    read = text_of(client.get(reverse("photo_reading", args=[photo.pk])))
    assert 'data-add-card="KC"' in read
    assert "Perhaps missed, marked dashed on the photo" in read


def test_each_hand_keeps_its_photo_while_another_is_photographed(client, member, game):
    ann, ben, cleo = scored_by_ann(game)
    hand_photo(client, game, ben, PHOTO.with_name("win_029.jpg"))
    run_tasks()
    typed = {f"cards_{ben.pk}": "2S 2H", f"held_{ben.pk}": "9"}
    body = text_of(hand_photo(client, game, cleo, PHOTO, **typed))
    ben_row = body[body.index(f'data-seat="{ben.pk}"') :]
    ben_row = ben_row[: ben_row.index("</fieldset>")]
    ben_photo = Photo.objects.get(seat=ben)
    # Ben's photo is shown read and marked, his cards as he left them (not filled again), the
    # count he said still chosen and not yet checked: nothing is being saved.
    assert f'href="{reverse("photo", args=[ben_photo.pk])}"' in ben_row
    assert "data-filled" in ben_row
    assert f'name="cards_{ben.pk}" value="2S 2H"' in ben_row
    assert 'value="9" checked' in ben_row
    assert 'class="error"' not in ben_row
    assert f"Reading the photo of {cleo.player}'s cards" in body
    assert "Reading the photo" not in ben_row


def test_a_second_photo_is_read_with_the_first_and_each_card_says_where_it_came_from(
    client, member, game
):
    ann, ben, cleo = scored_by_ann(game)
    hand_photo(client, game, ben, PHOTO.with_name("win_029.jpg"))
    run_tasks()
    hand_photo(client, game, ben, PHOTO.with_name("win_031.jpg"), second=True)
    first, second = Photo.objects.filter(seat=ben).order_by("pk")
    assert (first.second, second.second) == (False, True)
    assert client.get(reverse("photo_reading", args=[second.pk])).status_code == 204
    run_tasks()
    read = text_of(client.get(reverse("photo_reading", args=[second.pk])))
    cards = read.split('data-cards="')[1].split('"')[0].split()
    eights = {"8S", "8H", "8D", "8C"}
    both = [found["card"] for found in first.detections if found["card"] in eights]
    assert sorted(cards) == sorted(found["card"] for found in first.detections)
    assert read.count('<figure class="photo"') == 2
    for card in both:
        assert f'<li data-card="{card}"><strong>{card}</strong> both photos</li>' in read
    assert '<li data-card="2H"><strong>2H</strong> photo 1</li>' in read
    listed = text_of(client.get(reverse("table_photos", args=[game.pk])))
    assert "hand, a second photo read with the one before it" in listed
    # A photo taken again (not a second one) starts the hand afresh; a second photo of a hand
    # with none is its first.
    hand_photo(client, game, cleo, PHOTO, second=True)
    assert Photo.objects.get(seat=cleo).second is False
    hand_photo(client, game, ben, PHOTO.with_name("win_022.jpg"))
    run_tasks()
    latest = Photo.objects.filter(seat=ben).latest("pk")
    read = text_of(client.get(reverse("photo_reading", args=[latest.pk])))
    assert read.count('<figure class="photo"') == 1


def test_the_count_check_refuses_a_hand_with_cards_missing_and_saves_nothing(client, member, game):
    ann, ben, cleo = scored_by_ann(game)
    data = {
        "version": game.version,
        f"cards_{ben.pk}": "7 8 K",
        f"held_{ben.pk}": "5",
        f"cards_{cleo.pk}": "JK",
        f"held_{cleo.pk}": "",
    }
    post_refused(
        client,
        reverse("score", args=[game.pk]),
        data,
        "Two cards missing: this hand holds 5 and 3 are entered. Add them, or tap how many it "
        "holds.",
    )
    post_refused(
        client,
        reverse("score", args=[game.pk]),
        data | {f"cards_{ben.pk}": "7 8 K Q Q 2"},
        "One card too many: this hand holds 5 and 6 are entered.",
    )
    post_refused(
        client,
        reverse("score", args=[game.pk]),
        data | {f"held_{ben.pk}": "99"},
        f"How many cards {ben.player} holds: Ensure this value is less than or equal to 24.",
    )
    response = client.post(
        reverse("score", args=[game.pk]), data | {f"cards_{ben.pk}": "7 8 K Q Q"}
    )
    assert response.status_code == 302
    first = game.rounds.get(number=1)
    assert [hand.points for hand in first.hands.order_by("seat__position")] == [
        0,
        5 + 10 + 10 + 10 + 10,
        50,
    ]


def test_a_photo_read_in_the_request_is_shown_at_once(client, member, game, settings):
    # Where tasks run in the request, the answer shows the cards: no poll to wait for.
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    ann, ben, cleo = scored_by_ann(game)
    body = text_of(hand_photo(client, game, ben, PHOTO))
    assert "Reading the photo" not in body
    assert f'data-fill="id_cards_{ben.pk}" data-cards="6S"' in body
    assert "data-filled" not in body  # its cards go into the box


def test_a_hand_whose_photo_could_not_be_read_is_typed_without_a_count(client, member, game, media):
    ann, ben, cleo = scored_by_ann(game)
    content = PHOTO.read_bytes()
    hand_photo(client, game, ben, PHOTO)
    # The upload is cut short in the store before the worker reads it.
    photo = Photo.objects.get()
    photo.image.save("cut.jpg", SimpleUploadedFile("cut.jpg", content[: len(content) // 3]))
    run_tasks()
    read = text_of(client.get(reverse("photo_reading", args=[photo.pk])))
    assert "That photo is damaged or cut short" in read
    assert f"Type {ben.player}'s cards instead." in read
    assert "data-cards" not in read
    body = text_of(client.get(reverse("game", args=[game.pk])))
    assert 'class="held"' not in body
