"""The table's taps: May I?, going down, Shanghai calls and going out
(scorekeeper/services/tables.py)."""

import pytest

from scorekeeper import selectors, services
from scorekeeper.models import Event
from tests.factories import hand_of, make_game, play_round, seats, table_rows

pytestmark = pytest.mark.django_db


def test_a_third_may_i_is_refused_and_undo_gives_one_back():
    game = make_game()
    ann = seats(game)[0]
    for _ in range(2):
        services.may_i_spend(game=game, version=game.version, seat=ann, user=game.created_by)
    with pytest.raises(services.ActionRefused, match="limit is 2 a round"):
        services.may_i_spend(game=game, version=game.version, seat=ann, user=game.created_by)
    game.refresh_from_db()
    assert hand_of(game, ann).may_i_used == 2
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert hand_of(game, ann).may_i_used == 1
    services.may_i_spend(game=game, version=game.version, seat=ann, user=game.created_by)
    assert hand_of(game, ann).may_i_used == 2


def test_the_database_itself_refuses_more_may_i_than_the_limit():
    from django.db import IntegrityError, transaction

    game = make_game()
    hand = hand_of(game, seats(game)[0])
    hand.may_i_used = 3
    with pytest.raises(IntegrityError), transaction.atomic():
        hand.save()


def test_may_i_tokens_come_back_each_round():
    game = make_game()
    ann = seats(game)[0]
    services.may_i_spend(game=game, version=game.version, seat=ann, user=game.created_by)
    play_round(game)
    assert hand_of(game, ann).may_i_used == 0


def test_a_stale_screen_is_refused_and_changes_nothing():
    game = make_game()
    ann, ben = seats(game)[:2]
    seen = game.version
    services.may_i_spend(game=game, version=seen, seat=ann, user=game.created_by)
    with pytest.raises(services.StaleState):
        services.may_i_spend(game=game, version=seen, seat=ben, user=game.created_by)
    assert hand_of(game, ben).may_i_used == 0
    assert Event.objects.filter(kind=Event.Kind.MAY_I).count() == 1


@pytest.mark.parametrize("version", [-1, 2**31, 2**63, 2**70])
def test_a_version_no_table_can_be_at_is_a_stale_screen(version):
    game = make_game()
    with pytest.raises(services.StaleState):
        services.may_i_spend(game=game, version=version, seat=seats(game)[0], user=game.created_by)
    assert not Event.objects.exists()


def test_shanghai_claims_and_protects_are_events():
    game = make_game()
    ann, ben, cat = seats(game)[:3]
    services.hand_mark_down(game=game, version=game.version, seat=cat, user=game.created_by)
    services.shanghai_record(
        game=game, version=game.version, seat=ann, discarder=ben, user=game.created_by
    )
    services.shanghai_record(
        game=game, version=game.version, seat=ben, discarder=None, user=game.created_by
    )
    kinds = list(Event.objects.order_by("pk").values_list("kind", "seat", "other_seat"))
    assert kinds == [
        (Event.Kind.WENT_DOWN, cat.pk, None),
        (Event.Kind.SHANGHAI_CLAIM, ann.pk, ben.pk),
        (Event.Kind.SHANGHAI_PROTECT, ben.pk, None),
    ]
    board = selectors.game_board(game)
    # A claim and a protect are counted apart, each under its own word.
    claims = [(line.shanghai_claims, line.shanghai_protects) for line in board.lines]
    assert claims[:2] == [(1, 0), (0, 1)]


def test_a_shanghai_claim_needs_a_meld_on_the_table_but_a_protect_does_not():
    game = make_game()
    ann, ben = seats(game)[:2]
    with pytest.raises(services.ActionRefused, match="Nobody has gone down yet"):
        services.shanghai_record(
            game=game, version=game.version, seat=ann, discarder=ben, user=game.created_by
        )
    assert not game.events.exists()
    services.shanghai_record(
        game=game, version=game.version, seat=ann, discarder=None, user=game.created_by
    )
    services.hand_mark_down(game=game, version=game.version, seat=ben, user=game.created_by)
    services.shanghai_record(
        game=game, version=game.version, seat=ann, discarder=ben, user=game.created_by
    )
    assert game.events.filter(kind=Event.Kind.SHANGHAI_CLAIM).count() == 1


def test_going_down_in_a_no_discard_contract_is_going_out(last_contract):
    game = last_contract
    ann = seats(game)[0]
    before = table_rows(game)
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=game.created_by)
    board = selectors.game_board(game)
    assert board.current.went_out == ann and board.scoring
    assert game.events.first().kind == Event.Kind.WENT_OUT
    services.action_undo(game=game, version=game.version, user=game.created_by)
    assert table_rows(game) == before


def test_going_out_in_one_turn_is_refused_after_going_down(bonus_game):
    game = bonus_game
    ann = seats(game)[0]
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=game.created_by)
    with pytest.raises(services.ActionRefused, match="not in one turn"):
        services.round_record_went_out(
            game=game, version=game.version, seat=ann, rummy=True, user=game.created_by
        )
    assert game.rounds.get().went_out is None
