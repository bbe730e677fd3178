"""Forms clean what players type and say what is wrong in their words (scorekeeper/forms/)."""

import pytest
from django import forms

import rules
from scorekeeper.forms import (
    GameStartForm,
    GoingDownForm,
    ProfileForm,
    ScoreForm,
    melds_clean,
    row_id,
)
from tests.factories import go_out, make_game, profile_data, seats

MAX_ROW_ID = 2**63 - 1


@pytest.mark.parametrize(
    ("value", "pk"),
    [
        ("12", 12),
        (" 7 ", 7),
        (7, 7),
        (str(MAX_ROW_ID), MAX_ROW_ID),
        (str(MAX_ROW_ID + 1), None),
        ("9" * 20, None),
        ("0", None),
        ("-1", None),
        ("1.5", None),
        ("²", None),
        ("abc", None),
        ("", None),
        (None, None),
    ],
)
def test_a_row_id_is_ascii_digits_in_the_databases_range(value, pk):
    assert row_id(value) == pk


DIGITS = {"arabic-indic": "٠١٢٣٤٥٦٧٨٩", "full-width": "０１２３４５６７８９", "ascii": "0123456789"}


@pytest.mark.django_db
@pytest.mark.parametrize("digits", DIGITS)
@pytest.mark.parametrize("field", ["seat_0", "season", "profile"])
def test_a_new_tables_choices_are_ids_in_ascii_digits_only(field, digits):
    # int() reads "١٢" and "１２" as 12; the page only ever sends ASCII digits.
    club = make_game(players=3).club
    data = {
        "seat_0": str(club.players.order_by("pk").first().pk),
        "season": str(club.seasons.get().pk),
        "profile": str(club.profiles.get().pk),
        "first_dealer": "0",
    }
    data[field] = data[field].translate(str.maketrans("0123456789", DIGITS[digits]))
    form = GameStartForm(data, club=club)
    form.is_valid()
    assert (field in form.errors) is (digits != "ascii")


@pytest.mark.django_db
@pytest.mark.parametrize("digits", DIGITS)
def test_the_checkers_seat_is_an_id_in_ascii_digits_only(digits):
    game = make_game(players=3)
    seat = str(seats(game)[0].pk).translate(str.maketrans("0123456789", DIGITS[digits]))
    form = GoingDownForm({"version": "0", "seat": seat, "melds": "7H 8H 9H"}, game=game)
    form.is_valid()
    assert ("seat" in form.errors) is (digits != "ascii")


def test_melds_are_split_on_bars_slashes_semicolons_and_new_lines():
    melds = melds_clean("7H 8H 9H | 5S 5D 5C / 2C 2D 2S; KH KS KD\nQH QS QD")
    assert [len(meld) for meld in melds] == [3, 3, 3, 3, 3]
    assert str(melds[0][0]) == "7H"


@pytest.mark.parametrize(
    ("text", "message"), [("|||", "Enter some cards"), ("7H 1H", '"1H" is not a card')]
)
def test_melds_that_say_nothing_or_cannot_be_read_are_refused(text, message):
    with pytest.raises(forms.ValidationError, match=message):
        melds_clean(text)


@pytest.mark.parametrize(
    "house_rules",
    [
        rules.HouseRules(),
        rules.HouseRules(ace="high_or_low", may_i_limit=3, shanghai_bonus=10, rummy_bonus=True),
        rules.HouseRules(
            contracts=[rules.Contract(2, 0), rules.Contract(1, 1)], cards_dealt=[10, 11]
        ),
    ],
    ids=["seed", "house", "two contracts"],
)
def test_a_profile_form_gives_back_the_rules_it_was_filled_with(house_rules):
    form = ProfileForm(profile_data(house_rules, "Ours"), house_rules=house_rules, name="Ours")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["house_rules"] == house_rules
    assert form.cleaned_data["name"] == "Ours"


@pytest.mark.django_db
def test_a_score_entry_reads_cards_or_points_but_not_both():
    game = make_game(players=3)
    ann, ben, cat = seats(game)
    go_out(game, ann)
    round_ = game.rounds.get()
    entry = ScoreForm(
        {"version": 0, f"cards_{ben.pk}": "K K 7", f"points_{cat.pk}": "25"}, round_=round_
    )
    assert entry.is_valid(), entry.errors
    assert entry.cleaned_data["entries"] == {
        ben.pk: rules.HandEntry(cards=tuple(rules.parse_ranks("K K 7"))),
        cat.pk: rules.HandEntry(points=25),
    }
    both = ScoreForm(
        {"version": 0, f"cards_{ben.pk}": "K", f"points_{ben.pk}": "10"}, round_=round_
    )
    assert not both.is_valid()
    assert "not both" in both.errors[f"points_{ben.pk}"][0]
