"""Melds recorded from the checker: going down and laying off, Shanghai claims onto a meld
included (scorekeeper/views/melds.py)."""

import pytest
from django.urls import reverse

import rules
from scorekeeper import services
from scorekeeper.models import Event, Hand, TableMeld
from tests.factories import (
    JUNK,
    go_down,
    play_round,
    post_refused,
    seats,
    text_of,
    url,
)

pytestmark = pytest.mark.django_db


def record_melds(client, game, seat, melds: str):
    return client.post(
        reverse("melds_record", args=[game.pk]),
        {"version": game.version, "seat": seat.pk, "melds": melds},
    )


def test_recording_a_going_down_lays_melds_and_marks_the_player_down(client, member, game):
    ann = seats(game)[0]
    response = record_melds(client, game, ann, "8H 8S 8D | KC KD JK")
    assert response.status_code == 302
    melds = list(TableMeld.objects.order_by("pk"))
    assert [meld.kind for meld in melds] == ["book", "book"]
    assert rules.parse_cards(melds[1].cards)[2].declared.rank == "K"
    assert Hand.objects.get(seat=ann).went_down


def test_a_recorded_going_down_says_it_was_saved_on_the_checker(client, member, game):
    ann = seats(game)[0]
    response = record_melds(client, game, ann, "8H 8S 8D | KC KD JK")
    assert response["Location"] == reverse("table_check", args=[game.pk])
    page = text_of(client.get(response["Location"]))
    laid = Event.objects.get(kind=Event.Kind.WENT_DOWN).description
    assert f"Saved: {laid}." in page and laid.startswith(f"{ann.player} went down: ")
    assert '<li class="success">' in page


def test_a_recorded_shanghai_claim_onto_a_meld_says_it_was_saved(client, member, game):
    ann, ben, cleo, _ = seats(game)
    go_down(game, ann, "8H 8S 8D | KC KD KS")
    meld = TableMeld.objects.get(cards__contains="KC")
    data = {"seat": cleo.pk, "discarder": ben.pk, "meld": meld.pk, "melds": "KH"}
    response = client.post(url("lay_off", game), {"version": game.version, **data}, follow=True)
    claim = Event.objects.get(kind=Event.Kind.SHANGHAI_CLAIM).description
    assert claim.startswith(f"{cleo.player} claimed {ben.player}'s KH onto ")
    assert f"Saved: {claim}" in text_of(response)


def test_an_illegal_going_down_is_refused_with_reasons(client, member, game):
    ann = seats(game)[0]
    response = record_melds(client, game, ann, "8H 8S 8D | 9H 10H JH QH")
    assert response.status_code == 200
    assert "needs 2 books; these melds are 1 book and 1 run" in text_of(response)
    assert not TableMeld.objects.exists()
    assert not Hand.objects.get(seat=ann).went_down


@pytest.mark.players(3)
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


@pytest.mark.players(3)
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
    services.action_undo(game=game, version=game.version, user=game.created_by)
    run.refresh_from_db()
    assert run.cards == "5H 6H 7H 8H"
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert not TableMeld.objects.exists()


# Bad lay-offs


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


def test_the_valid_lay_off_used_below_is_accepted(client, member, down, django_assert_num_queries):
    data = lay_off_data(down)
    # Session, user, table, the round being played and its melds for the form; the
    # service's own reads and writes in its transaction. No board: the answer is a redirect
    # (it read the board, 2 queries more, for the round alone).
    with django_assert_num_queries(13):
        response = client.post(url("lay_off", down), data)
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
    post_refused(client, url("lay_off", down), lay_off_data(down, **overrides), words)


@pytest.mark.parametrize("field", ["meld", "seat", "discarder"])
def test_a_lay_off_onto_another_tables_meld_or_by_its_players_is_refused(
    client, member, down, stranger, field
):
    theirs = {
        "meld": TableMeld.objects.get(round__game=stranger, cards__startswith="6").pk,
        "seat": seats(stranger)[0].pk,
        "discarder": seats(stranger)[1].pk,
    }
    post_refused(client, url("lay_off", down), lay_off_data(down, **{field: theirs[field]}))


def test_a_lay_off_onto_a_meld_of_an_earlier_round_is_refused(client, member, down):
    old_meld = TableMeld.objects.filter(round__game=down).first()
    play_round(down, went_out=0, points=[10, 20, 30])
    down.refresh_from_db()
    post_refused(client, url("lay_off", down), lay_off_data(down, meld=old_meld.pk, melds="7C"))


# Bad going down


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
    post_refused(
        client,
        url("melds_record", game),
        {"version": game.version, "seat": seats(game)[0].pk, "melds": melds},
        words,
    )


def test_melds_for_a_seat_not_at_this_table_are_not_recorded(
    client, member, game, not_this_tables_seat
):
    post_refused(
        client,
        url("melds_record", game),
        {"version": game.version, "seat": not_this_tables_seat, "melds": "7H 7S 7D | 9C 9H 9S"},
    )


def test_going_down_twice_is_refused(client, member, down):
    post_refused(
        client,
        url("melds_record", down),
        {"version": down.version, "seat": seats(down)[0].pk, "melds": "8C 8H 8S | 10C 10H 10S"},
        "already down",
    )


def test_going_down_after_someone_went_out_is_refused(client, member, scoring):
    post_refused(
        client,
        url("melds_record", scoring),
        {
            "version": scoring.version,
            "seat": seats(scoring)[1].pk,
            "melds": "8C 8H 8S | 10C 10H 10S",
        },
        "someone went out",
    )
