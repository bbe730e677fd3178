"""Reads that span rows (scorekeeper/selectors/tables.py): what a page shows, in a fixed number of
queries."""

import pytest

from scorekeeper import selectors, services
from scorekeeper.models import Club
from tests.factories import go_down, make_club, make_game, make_user, play_round, seats

pytestmark = pytest.mark.django_db


def test_the_dealer_rotates_one_seat_left_each_round_and_the_next_plays_first():
    # Who deals each contract is the rules engine's (tests/rules/test_deal.py).
    game = make_game(players=3, first_dealer=1)
    dealers, first_players = [], []
    for _ in range(4):
        board = selectors.game_board(game)
        dealers.append(board.dealer.position)
        first_players.append(board.first_player.position)
        play_round(game)
    assert dealers == [1, 2, 0, 1]
    assert first_players == [2, 0, 1, 2]


@pytest.mark.parametrize(("players", "rounds"), [(3, 0), (5, 6)])
def test_the_board_takes_six_queries_however_long_the_game(
    django_assert_num_queries, players, rounds
):
    game = make_game(players=players)
    for _ in range(rounds):
        play_round(game, points=[10] * (players - 1))
    # seats, rounds, hands, the last action, the Shanghai calls and this round's melds
    with django_assert_num_queries(6):
        board = selectors.game_board(game)
    assert board.rounds_played == rounds
    assert len(board.lines) == players


def test_a_club_is_found_only_for_its_members():
    club = make_club()
    member = club.memberships.get().user
    assert Club.objects.for_user(member).get(pk=club.pk) == club
    assert not Club.objects.for_user(make_user()).filter(pk=club.pk).exists()


def test_history_is_newest_first_and_marks_what_was_taken_back():
    game = make_game(players=3)
    ann = seats(game)[0]
    services.may_i_spend(game=game, version=game.version, seat=ann, user=game.created_by)
    services.action_undo(game=game, version=game.version, user=game.created_by)
    history = list(selectors.game_history(game))
    assert [event.kind for event in history] == ["undo", "may_i"]
    assert [bool(event.undone) for event in history] == [False, True]


def test_a_save_taken_back_brings_back_what_was_entered():
    game = make_game(players=3)
    first = game.rounds.get(number=1)
    assert selectors.scores_taken_back(first) == {}
    play_round(game, points=[15, 25])
    services.action_undo(game=game, version=game.version, user=game.created_by)
    ann, ben, cat = seats(game)
    taken_back = selectors.scores_taken_back(first)
    points = {seat: points for seat, (_, points) in taken_back.items()}
    assert points == {ann.pk: 0, ben.pk: 15, cat.pk: 25}


def test_shanghai_claims_taken_back_no_longer_count():
    game = make_game(players=3)
    ann, ben, cat = seats(game)
    services.hand_mark_down(game=game, version=game.version, seat=cat, user=game.created_by)
    for claimant in (ann, ann, ben):
        services.shanghai_record(
            game=game, version=game.version, seat=claimant, discarder=cat, user=game.created_by
        )
    assert selectors.game_board(game).claims == {ann.pk: 2, ben.pk: 1}
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert selectors.game_board(game).claims == {ann.pk: 2}


def test_the_last_action_is_the_newest_not_taken_back():
    game = make_game()
    assert selectors.game_board(game).last_action is None
    first, second = seats(game)[:2]
    services.may_i_spend(game=game, version=game.version, seat=first, user=game.created_by)
    services.may_i_spend(game=game, version=game.version, seat=second, user=game.created_by)
    spent_second = selectors.game_board(game).last_action
    assert second.player.name in spent_second and first.player.name not in spent_second
    services.action_undo(game=game, version=game.version, user=game.created_by)
    # The undo itself is not an action to show: the one before it is.
    assert first.player.name in selectors.game_board(game).last_action
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert selectors.game_board(game).last_action is None


def test_who_went_out_comes_with_the_board(django_assert_num_queries):
    game = make_game()
    went_out = seats(game)[2]
    services.round_record_went_out(
        game=game, version=game.version, seat=went_out, user=game.created_by
    )
    board = selectors.game_board(game)
    with django_assert_num_queries(0):
        assert board.current.went_out.player.name == went_out.player.name


@pytest.mark.parametrize(("players", "rounds"), [(3, 0), (5, 6)])
def test_a_table_is_read_in_one_query_however_long_the_game(
    django_assert_num_queries, players, rounds
):
    game = make_game(players=players)
    for _ in range(rounds):
        play_round(game, points=[10] * (players - 1))
    names = [seat.player.name for seat in seats(game)]
    with django_assert_num_queries(1):
        table = selectors.table_read(game)
        assert [round_.number for round_ in table.rounds] == list(range(1, rounds + 2))
        assert [seat.player.name for seat in table.seats] == names
        assert table.current.number == rounds + 1


def board_as_seen(board) -> dict:
    lines = [
        (
            line.seat.pk,
            line.points,
            line.total,
            line.place,
            line.rounds_won,
            line.may_i_used,
            line.shanghai_claims,
            line.shanghai_protects,
            line.round_shanghai_claims,
            line.round_shanghai_protects,
            line.cells,
            line.hand and line.hand.pk,
            line.is_dealer,
            line.plays_first,
            [meld.pk for meld in line.melds],
        )
        for line in board.lines
    ]
    current = board.current and (board.current.pk, board.current.went_out_id)
    return {
        "lines": lines,
        "current": current,
        "claims": board.claims,
        "melds": [meld.pk for meld in board.melds],
        "rounds": [(round_.pk, round_.finished_at) for round_ in board.rounds],
        "last_action": board.last_action,
    }


@pytest.mark.parametrize("scoring", [False, True])
def test_a_tables_board_is_the_board(scoring):
    # Claims, a protected discard and a claim taken back, over two contracts.
    game = make_game(players=4)
    ann, ben, cat, dan = seats(game)
    services.hand_mark_down(game=game, version=game.version, seat=cat, user=game.created_by)
    for claimant, discarder in [(ann, cat), (ben, ben), (dan, cat)]:
        services.shanghai_record(
            game=game,
            version=game.version,
            seat=claimant,
            discarder=discarder,
            user=game.created_by,
        )
    services.action_undo(game=game, version=game.version, user=game.created_by)
    play_round(game, went_out=2)
    go_down(game, ann, "7H 7S 7D | 5C 6C 7C 8C")
    services.shanghai_record(
        game=game, version=game.version, seat=ben, discarder=ann, user=game.created_by
    )
    if scoring:
        services.round_record_went_out(
            game=game, version=game.version, seat=dan, user=game.created_by
        )
    expected = selectors.game_board(game)
    table = selectors.table_read(game)
    board = selectors.table_board(game, table, last_action=expected.last_action)
    assert board_as_seen(board) == board_as_seen(expected)
    assert board.claims == {ben.pk: 1}
