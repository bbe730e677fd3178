"""What the photos of a hand read (scorekeeper/selectors/photos.py): two photos merged without
counting a card twice, where a missed card may be, and how many cards a hand usually holds."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules
from scorekeeper import services
from scorekeeper.models import Photo, PhotoStatus, TableMeld
from scorekeeper.selectors import game_board
from scorekeeper.selectors.photos import (
    Shot,
    cards_merged,
    hand_reading,
    hand_readings,
    hand_shots,
    held_counts,
)
from tests.factories import act, kept_photo, seats


def found(*cards: str, confidence: float = 0.99) -> list[dict]:
    return [{"card": card, "confidence": confidence, "box": [0, 0, 10, 10]} for card in cards]


def merged(*photos: list[dict]) -> list[tuple[str, tuple[int, ...]]]:
    return [(card.card, card.shots) for card in cards_merged(list(photos))]


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        # One photo: its cards, each from it.
        ("7H KS", None, [("7H", (1,)), ("KS", (1,))]),
        # The same card in both shots is one physical card: it counts once.
        ("7H KS", "KS 2C", [("7H", (1,)), ("KS", (1, 2)), ("2C", (2,))]),
        # Two decks: two 7H seen in one photo are two cards, the one in the other among them.
        ("7H 7H", "7H", [("7H", (1, 2)), ("7H", (1,))]),
        ("7H", "7H 7H", [("7H", (1, 2)), ("7H", (2,))]),
        # Nothing tells a second 7H in the other photo from the same 7H seen again.
        ("7H QD", "7H", [("7H", (1, 2)), ("QD", (1,))]),
        ("", "JK", [("JK", (2,))]),
    ],
)
def test_two_photos_of_a_hand_count_each_card_once(first, second, expected):
    photos = [found(*first.split())] + ([found(*second.split())] if second is not None else [])
    assert merged(*photos) == expected


def test_a_card_seen_twice_keeps_its_surer_reading():
    surer = cards_merged([found("7H", confidence=0.9), found("7H", confidence=0.98)])
    assert [(card.card, card.confidence, card.unsure) for card in surer] == [("7H", 0.98, False)]


cards = st.lists(st.sampled_from(["7H", "KS", "2C", "JK", "10D"]), max_size=8)


@given(first=cards, second=cards)
def test_merging_keeps_as_many_copies_of_a_card_as_the_photo_that_saw_most(first, second):
    result = cards_merged([found(*first), found(*second)])
    counted = Counter(card.card for card in result)
    assert counted == Counter(first) | Counter(second)  # the larger count of each card
    for card in set(first) | set(second):
        shots = [one.shots for one in result if one.card == card]
        assert sum(1 in seen for seen in shots) == Counter(first)[card]
        assert sum(2 in seen for seen in shots) == Counter(second)[card]
    # The first photo's cards come first, in its order.
    assert [card.card for card in result][: len(first)] == first


def photo(number: int, *cards: str, unread=(), second=False, pk=None, **fields) -> Photo:
    return Photo(
        pk=pk or number,
        width=100,
        height=100,
        detections=found(*cards),
        unread=[
            {"card": card, "confidence": share, "box": [5, 5, 20, 20]} for card, share in unread
        ],
        status=fields.pop("status", PhotoStatus.READ),
        second=second,
        **fields,
    )


def test_a_card_perhaps_missed_is_offered_once_and_never_when_it_was_read():
    reading = hand_reading(
        [
            Shot(photo(1, "7H", unread=[("JC", 0.8), ("KS", 0.6)]), 1, ""),
            Shot(photo(2, "KS", unread=[("JC", 0.84), ("7H", 0.7)], second=True), 2, ""),
        ]
    )
    assert [(one.card, one.percent, one.shot) for one in reading.unread] == [("JC", 84, 2)]
    assert reading.card_text == "7H KS"


def test_a_photo_still_read_or_unreadable_is_said_and_the_other_still_counts():
    reading = hand_reading(
        [Shot(photo(1, "7H"), 1, ""), Shot(photo(2, status=PhotoStatus.READING), 2, "")]
    )
    assert reading.reading and not reading.read
    lost = "That photo could not be read; please take it again."
    reading = hand_reading(
        [
            Shot(photo(1, "7H"), 1, ""),
            Shot(photo(2, status=PhotoStatus.UNREADABLE, problem=lost), 2, ""),
        ]
    )
    assert reading.read and reading.card_text == "7H" and reading.problems == [lost]


def nowhere(photo: Photo) -> str:
    return ""


def test_the_hand_shows_its_newest_photo_and_the_second_taken_after_it():
    old = photo(1, "2C", pk=1)
    old_second = photo(2, "3C", second=True, pk=2)
    new = photo(3, "4C", pk=3)
    assert [shot.photo.pk for shot in hand_shots([old, old_second, new], src=nowhere)] == [3]
    newer_second = photo(4, "5C", second=True, pk=4)
    again = photo(5, "6C", second=True, pk=5)
    shots = hand_shots([old, old_second, new, newer_second, again], src=nowhere)
    assert [(shot.photo.pk, shot.number) for shot in shots] == [(3, 1), (5, 2)]
    assert hand_shots([old_second], src=nowhere) == []  # a second photo alone is no hand's photo


@pytest.mark.django_db
@pytest.mark.players(4)
def test_a_hand_usually_holds_the_deal_and_its_may_is_less_what_went_down(game):
    ann, ben, cat, dan = seats(game)
    act(services.may_i_spend, game, seat=ben)
    melds = [rules.parse_cards("7H 7S 7D"), rules.parse_cards("KH KS KD")]
    act(services.melds_record, game, seat=cat, melds=melds)
    act(services.round_record_went_out, game, seat=ann)
    counts = held_counts(game_board(game))
    assert {seat: count.usually for seat, count in counts.items()} == {
        ann.pk: 11,
        ben.pk: 11 + 3,
        cat.pk: 11 - 6,
        dan.pk: 11,
    }
    # The row runs to the most a hand can hold this round: 11 dealt, one drawn, two May I?s.
    assert counts[dan.pk].choices == range(1, 19)


@pytest.mark.django_db
@pytest.mark.players(4)
def test_a_lay_off_counts_for_the_hand_it_came_from_not_the_melds_owner(
    game, django_assert_num_queries
):
    ann, ben, cat, dan = seats(game)
    books = [rules.parse_cards("7H 7S 7D"), rules.parse_cards("8H 8S 8D")]
    act(services.melds_record, game, seat=cat, melds=books)
    books = [rules.parse_cards("KH KS KD"), rules.parse_cards("QH QS QD")]
    act(services.melds_record, game, seat=ben, melds=books)
    sevens, eights, kings, queens = TableMeld.objects.order_by("pk")
    act(services.meld_lay_off, game, seat=ben, meld=sevens, cards=rules.parse_cards("7C"))
    act(services.meld_lay_off, game, seat=ben, meld=eights, cards=rules.parse_cards("8C"))
    act(services.meld_lay_off, game, seat=cat, meld=kings, cards=rules.parse_cards("KC"))
    # An undone lay-off gave its card back.
    act(services.meld_lay_off, game, seat=cat, meld=sevens, cards=rules.parse_cards("JK"))
    act(services.action_undo, game)
    act(services.round_record_went_out, game, seat=ann)
    board = game_board(game)
    with django_assert_num_queries(1):
        counts = held_counts(board)
    assert {seat: count.usually for seat, count in counts.items()} == {
        ann.pk: 11,
        ben.pk: 11 - 6 - 2,
        cat.pk: 11 - 6 - 1,
        dan.pk: 11,
    }


@pytest.mark.django_db
@pytest.mark.players(3)
def test_before_anyone_goes_down_the_count_reads_nothing(game, django_assert_num_queries):
    ann, ben, cat = seats(game)
    act(services.round_record_went_out, game, seat=ann)
    board = game_board(game)
    with django_assert_num_queries(0):
        counts = held_counts(board)
    assert {count.usually for count in counts.values()} == {11}


@pytest.mark.django_db
@pytest.mark.players(3)
def test_each_hand_keeps_its_photos_in_one_query(game, django_assert_num_queries):
    ann, ben, cat = seats(game)
    act(services.round_record_went_out, game, seat=ann)
    round_ = game.rounds.get()
    kept_photo(game, seat=ben, detections=found("7H"))
    kept_photo(game, seat=cat, detections=found("KS"))
    kept_photo(game, seat=cat, detections=found("KS", "2C"), second=True)
    kept_photo(game)  # the checker's: no hand's
    with django_assert_num_queries(1):
        readings = hand_readings(round_)
    assert {seat: reading.card_text for seat, reading in readings.items()} == {
        ben.pk: "7H",
        cat.pk: "KS 2C",
    }
    assert list(hand_readings(round_, seat_id=ben.pk)) == [ben.pk]
