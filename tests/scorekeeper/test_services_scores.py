"""Scoring a round and correcting it (scorekeeper/services/scores.py)."""

import pytest

import rules
from scorekeeper import selectors, services
from scorekeeper.models import Event, Hand, Round
from tests.factories import make_game, play_round, seats

pytestmark = pytest.mark.django_db


def test_scoring_a_round_computes_points_from_cards_and_deals_the_next():
    game = make_game(players=3)
    ann, ben, cleo = seats(game)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=game.created_by)
    services.round_score(
        game=game,
        version=game.version,
        entries={
            ben.pk: rules.HandEntry(cards=tuple(rules.parse_ranks("K K 7 JK"))),
            cleo.pk: rules.HandEntry(points=25),
        },
        user=game.created_by,
    )
    first = Round.objects.get(game=game, number=1)
    points = dict(first.hands.values_list("seat", "points"))
    assert points == {ann.pk: 0, ben.pk: 10 + 10 + 5 + 50, cleo.pk: 25}
    assert selectors.game_board(game).current.number == 2


def test_a_hand_the_decks_cannot_hold_is_refused_and_nothing_is_saved():
    game = make_game(players=3)
    ann, ben, cleo = seats(game)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=game.created_by)
    version = game.version
    with pytest.raises(services.ActionRefused, match="joker"):
        services.round_score(
            game=game,
            version=version,
            entries={
                ben.pk: rules.HandEntry(cards=tuple(rules.parse_ranks("JK JK JK"))),
                cleo.pk: rules.HandEntry(cards=tuple(rules.parse_ranks("JK JK"))),
            },
            user=game.created_by,
        )
    game.refresh_from_db()
    assert game.version == version
    assert not Round.objects.filter(game=game, number=2).exists()
    assert not Hand.objects.filter(round__game=game, points__isnull=False).exists()


def test_more_cards_than_the_deal_and_may_i_brought_is_refused():
    game = make_game(players=3)
    ann, ben, cleo = seats(game)
    services.may_i_spend(game=game, version=game.version, seat=ben, user=game.created_by)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=game.created_by)
    fifteen = tuple(rules.parse_ranks("2 3 4 5 6 7 8 9 10 J Q K A 2 3"))
    # Ben: 11 dealt + 3 from one May I? = 14 at most; Cleo: 11.
    with pytest.raises(services.ActionRefused, match="Ben|cannot hold 15 cards: at most 14"):
        services.round_score(
            game=game,
            version=game.version,
            entries={
                ben.pk: rules.HandEntry(cards=fifteen),
                cleo.pk: rules.HandEntry(points=5),
            },
            user=game.created_by,
        )
    services.round_score(
        game=game,
        version=game.version,
        entries={
            ben.pk: rules.HandEntry(cards=fifteen[:14]),
            cleo.pk: rules.HandEntry(points=5),
        },
        user=game.created_by,
    )


def test_every_other_player_needs_an_entry():
    game = make_game(players=3)
    ann, ben, cleo = seats(game)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=game.created_by)
    with pytest.raises(services.ActionRefused, match=f"Enter the cards {cleo.player.name}"):
        services.round_score(
            game=game,
            version=game.version,
            entries={ben.pk: rules.HandEntry(points=5)},
            user=game.created_by,
        )


def test_after_the_seventh_contract_the_game_ends_with_places():
    game = make_game(players=3)
    for number in range(7):
        play_round(game, went_out=number % 3, points=[10, 10])
    game.refresh_from_db()
    assert game.finished_at is not None
    board = selectors.game_board(game)
    assert board.current is None
    # 7 rounds: seat 0 went out 3 times, seats 1 and 2 twice; each non-winner scored 10.
    assert [line.total for line in board.lines] == [40, 50, 50]
    assert [line.place for line in board.lines] == [1, 2, 2]
    assert [line.rounds_won for line in board.lines] == [3, 2, 2]


def test_editing_a_finished_round_keeps_the_old_scores_in_history_and_can_be_undone():
    game = make_game(players=3)
    play_round(game, points=[15, 20])
    first = game.rounds.get(number=1)
    ann, ben, cleo = seats(game)
    services.round_edit(
        game=game,
        version=game.version,
        round_=first,
        entries={ben.pk: rules.HandEntry(points=25), cleo.pk: rules.HandEntry(points=20)},
        user=game.created_by,
    )
    assert [line.total for line in selectors.game_board(game).lines] == [0, 25, 20]
    edit = Event.objects.get(kind=Event.Kind.SCORE_EDITED)
    assert f"{ben.player} 15 → 25" in edit.description
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert [line.total for line in selectors.game_board(game).lines] == [0, 15, 20]


def test_editing_a_round_can_change_who_went_out_and_undo_takes_it_back():
    game = make_game(players=3)
    ann, ben, cat = seats(game)
    play_round(game, went_out=0, points=[10, 20])
    round_ = game.rounds.get(number=1)
    entries = {
        ann.pk: rules.HandEntry(cards=tuple(rules.parse_ranks("K 7"))),
        cat.pk: rules.HandEntry(points=20),
    }
    services.round_edit(
        game=game,
        version=game.version,
        round_=round_,
        entries=entries,
        went_out=ben,
        user=game.created_by,
    )
    round_.refresh_from_db()
    assert round_.went_out == ben
    assert dict(round_.hands.values_list("seat", "points")) == {ann.pk: 15, ben.pk: 0, cat.pk: 20}
    edited = game.events.get(kind=Event.Kind.SCORE_EDITED).description
    assert f"{ben.player} went out, not {ann.player}" in edited
    assert [line.rounds_won for line in selectors.game_board(game).lines] == [0, 1, 0]
    services.action_undo(game=game, version=game.version, user=game.created_by)
    round_.refresh_from_db()
    assert round_.went_out == ann
    assert dict(round_.hands.values_list("seat", "points")) == {ann.pk: 0, ben.pk: 10, cat.pk: 20}


def test_totals_apply_the_shanghai_and_rummy_bonuses(bonus_game):
    game = bonus_game
    ann, ben, cat = seats(game)
    services.hand_mark_down(game=game, version=game.version, seat=cat, user=game.created_by)
    services.shanghai_record(
        game=game, version=game.version, seat=ben, discarder=cat, user=game.created_by
    )
    services.round_record_went_out(
        game=game, version=game.version, seat=ann, rummy=True, user=game.created_by
    )
    entries = {ben.pk: rules.HandEntry(points=15), cat.pk: rules.HandEntry(points=40)}
    services.round_score(game=game, version=game.version, entries=entries, user=game.created_by)
    board = selectors.game_board(game)
    assert [line.total for line in board.lines] == [0, 2 * 15 - 10, 2 * 40]
    scored = game.events.get(kind=Event.Kind.ROUND_SCORED).description
    assert f"{ben.player} 20" in scored and f"{cat.player} 80" in scored


def test_whoever_an_edit_says_went_out_went_down_and_undo_restores_it():
    game = make_game(players=3)
    play_round(game, went_out=0)
    round_ = game.rounds.get(number=1)
    seats = list(game.seats.order_by("position"))
    assert not round_.hands.get(seat=seats[1]).went_down
    entries = {seats[0].pk: rules.HandEntry(points=15), seats[2].pk: rules.HandEntry(points=30)}
    services.round_edit(
        game=game,
        version=game.version,
        round_=round_,
        entries=entries,
        went_out=seats[1],
        user=game.created_by,
    )
    assert round_.hands.get(seat=seats[1]).went_down
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert not round_.hands.get(seat=seats[1]).went_down
    assert round_.hands.get(seat=seats[0]).went_down


def edit_went_out(game, round_, went_out, entries):
    game.refresh_from_db()
    services.round_edit(
        game=game,
        version=game.version,
        round_=round_,
        entries={seat.pk: rules.HandEntry(points=points) for seat, points in entries.items()},
        went_out=went_out,
        user=game.created_by,
    )


def test_an_edit_of_who_went_out_takes_the_old_ones_down_away_and_undo_gives_it_back():
    game = make_game(players=3)
    ann, ben, cat = seats(game)
    play_round(game, went_out=0)
    round_ = game.rounds.get(number=1)
    edit_went_out(game, round_, ben, {ann: 15, cat: 30})
    down = dict(round_.hands.values_list("seat", "went_down"))
    assert down == {ann.pk: False, ben.pk: True, cat.pk: False}
    edited = game.events.get(kind=Event.Kind.SCORE_EDITED)
    assert edited.before["down"] == [ann.pk] and edited.after["down"] == [ben.pk]
    game.refresh_from_db()
    services.action_undo(game=game, version=game.version, user=game.created_by)
    down = dict(round_.hands.values_list("seat", "went_down"))
    assert down == {ann.pk: True, ben.pk: False, cat.pk: False}


def test_who_went_down_before_going_out_stays_down_when_someone_else_went_out():
    game = make_game(players=3)
    ann, ben, cat = seats(game)
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=game.created_by)
    play_round(game, went_out=0)
    round_ = game.rounds.get(number=1)
    edit_went_out(game, round_, ben, {ann: 15, cat: 30})
    assert round_.hands.get(seat=ann).went_down


def test_a_going_down_taken_back_does_not_keep_the_old_one_down():
    game = make_game(players=3)
    ann, ben, cat = seats(game)
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=game.created_by)
    services.action_undo(game=game, version=game.version, user=game.created_by)
    play_round(game, went_out=0)
    round_ = game.rounds.get(number=1)
    edit_went_out(game, round_, ben, {ann: 15, cat: 30})
    assert not round_.hands.get(seat=ann).went_down
