import pytest

import rules
from scorekeeper import selectors, services
from scorekeeper.models import Event, Game, Hand, Round
from tests.factories import make_club, make_game, make_player, make_user, play_round

pytestmark = pytest.mark.django_db


def seats_of(game):
    return list(game.seats.select_related("player"))


def hand_of(game, seat):
    return Hand.objects.get(round__game=game, round__finished_at__isnull=True, seat=seat)


def test_a_new_club_has_its_creator_the_seed_rules_and_a_season():
    user = make_user()
    club = services.club_create(user=user, name="Thursday")
    assert list(club.memberships.values_list("user", flat=True)) == [user.pk]
    assert club.profiles.get().name == "Seed rules"
    assert club.profiles.get().house_rules == rules.HouseRules()
    assert club.seasons.count() == 1


def test_joining_with_an_invite_code_and_a_wrong_one():
    club = make_club()
    newcomer = make_user()
    assert services.club_join(user=newcomer, invite_code=club.invite_code) == club
    with pytest.raises(services.ActionRefused, match="No club has that invite code"):
        services.club_join(user=newcomer, invite_code="nope")


def test_player_names_are_unique_per_club_whatever_the_case():
    club = make_club()
    services.player_create(club=club, name="Ann")
    with pytest.raises(services.ActionRefused, match="already has a player called ann"):
        services.player_create(club=club, name="ann")
    services.player_create(club=make_club(), name="Ann")


def test_starting_a_table_seats_players_and_deals_contract_one():
    game = make_game(players=4, first_dealer=2)
    assert [seat.position for seat in game.seats.all()] == [0, 1, 2, 3]
    board = selectors.game_board(game)
    assert board.current.number == 1
    assert board.dealer.position == 2
    assert board.first_player.position == 3
    assert board.cards_dealt == 11
    assert [line.may_i_left for line in board.lines] == [2, 2, 2, 2]


@pytest.mark.parametrize("count", [2, 6])
def test_a_table_needs_three_to_five_players(count):
    club = make_club()
    players = [make_player(club) for _ in range(count)]
    with pytest.raises(services.ActionRefused, match="3 to 5 players"):
        services.game_start(
            club=club,
            user=club.memberships.get().user,
            players=players,
            first_dealer=0,
            season=club.seasons.get(),
            profile=club.profiles.get(),
        )
    assert not Game.objects.exists()


def test_a_player_sits_only_once():
    club = make_club()
    ann = make_player(club)
    with pytest.raises(services.ActionRefused, match="only once"):
        services.game_start(
            club=club,
            user=club.memberships.get().user,
            players=[ann, ann, make_player(club)],
            first_dealer=0,
            season=club.seasons.get(),
            profile=club.profiles.get(),
        )


def test_the_dealer_rotates_one_seat_left_each_round():
    game = make_game(players=3, first_dealer=1)
    dealers = []
    for _ in range(4):
        dealers.append(selectors.game_board(game).dealer.position)
        play_round(game)
    assert dealers == [1, 2, 0, 1]


def test_a_third_may_i_is_refused_and_undo_gives_one_back():
    game = make_game()
    ann = seats_of(game)[0]
    for _ in range(2):
        services.may_i_spend(game=game, version=game.version, seat=ann, user=None)
    with pytest.raises(services.ActionRefused, match="limit is 2 a round"):
        services.may_i_spend(game=game, version=game.version, seat=ann, user=None)
    game.refresh_from_db()
    assert hand_of(game, ann).may_i_used == 2
    services.action_undo(game=game, version=game.version, user=None)
    assert hand_of(game, ann).may_i_used == 1
    services.may_i_spend(game=game, version=game.version, seat=ann, user=None)
    assert hand_of(game, ann).may_i_used == 2


def test_the_database_itself_refuses_more_may_i_than_the_limit():
    from django.db import IntegrityError, transaction

    game = make_game()
    hand = hand_of(game, seats_of(game)[0])
    hand.may_i_used = 3
    with pytest.raises(IntegrityError), transaction.atomic():
        hand.save()


def test_may_i_tokens_come_back_each_round():
    game = make_game()
    ann = seats_of(game)[0]
    services.may_i_spend(game=game, version=game.version, seat=ann, user=None)
    play_round(game)
    assert hand_of(game, ann).may_i_used == 0


def test_a_stale_screen_is_refused_and_changes_nothing():
    game = make_game()
    ann, ben = seats_of(game)[:2]
    seen = game.version
    services.may_i_spend(game=game, version=seen, seat=ann, user=None)
    with pytest.raises(services.StaleState):
        services.may_i_spend(game=game, version=seen, seat=ben, user=None)
    assert hand_of(game, ben).may_i_used == 0
    assert Event.objects.filter(kind=Event.Kind.MAY_I).count() == 1


def test_shanghai_claims_and_protects_are_events():
    game = make_game()
    ann, ben, cat = seats_of(game)[:3]
    services.hand_mark_down(game=game, version=game.version, seat=cat, user=None)
    services.shanghai_record(game=game, version=game.version, seat=ann, discarder=ben, user=None)
    services.shanghai_record(game=game, version=game.version, seat=ben, discarder=None, user=None)
    kinds = list(Event.objects.order_by("pk").values_list("kind", "seat", "other_seat"))
    assert kinds == [
        (Event.Kind.WENT_DOWN, cat.pk, None),
        (Event.Kind.SHANGHAI_CLAIM, ann.pk, ben.pk),
        (Event.Kind.SHANGHAI_PROTECT, ben.pk, None),
    ]
    board = selectors.game_board(game)
    assert [line.shanghai_calls for line in board.lines][:2] == [1, 1]


def test_scoring_a_round_computes_points_from_cards_and_deals_the_next():
    game = make_game(players=3)
    ann, ben, cleo = seats_of(game)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=None)
    services.round_score(
        game=game,
        version=game.version,
        entries={
            ben.pk: rules.HandEntry(cards=tuple(rules.parse_ranks("K K 7 JK"))),
            cleo.pk: rules.HandEntry(points=25),
        },
        user=None,
    )
    first = Round.objects.get(game=game, number=1)
    points = dict(first.hands.values_list("seat", "points"))
    assert points == {ann.pk: 0, ben.pk: 10 + 10 + 5 + 50, cleo.pk: 25}
    assert selectors.game_board(game).current.number == 2


def test_a_hand_the_decks_cannot_hold_is_refused_and_nothing_is_saved():
    game = make_game(players=3)
    ann, ben, cleo = seats_of(game)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=None)
    version = game.version
    with pytest.raises(services.ActionRefused, match="joker"):
        services.round_score(
            game=game,
            version=version,
            entries={
                ben.pk: rules.HandEntry(cards=tuple(rules.parse_ranks("JK JK JK"))),
                cleo.pk: rules.HandEntry(cards=tuple(rules.parse_ranks("JK JK"))),
            },
            user=None,
        )
    game.refresh_from_db()
    assert game.version == version
    assert not Round.objects.filter(game=game, number=2).exists()
    assert not Hand.objects.filter(round__game=game, points__isnull=False).exists()


def test_more_cards_than_the_deal_and_may_i_brought_is_refused():
    game = make_game(players=3)
    ann, ben, cleo = seats_of(game)
    services.may_i_spend(game=game, version=game.version, seat=ben, user=None)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=None)
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
            user=None,
        )
    services.round_score(
        game=game,
        version=game.version,
        entries={
            ben.pk: rules.HandEntry(cards=fifteen[:14]),
            cleo.pk: rules.HandEntry(points=5),
        },
        user=None,
    )


def test_every_other_player_needs_an_entry():
    game = make_game(players=3)
    ann, ben, cleo = seats_of(game)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=None)
    with pytest.raises(services.ActionRefused, match=f"Enter the cards {cleo.player.name}"):
        services.round_score(
            game=game,
            version=game.version,
            entries={ben.pk: rules.HandEntry(points=5)},
            user=None,
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


def test_undo_of_a_saved_round_reopens_its_scoring():
    game = make_game(players=3)
    play_round(game)
    services.action_undo(game=game, version=game.version, user=None)
    board = selectors.game_board(game)
    assert board.current.number == 1
    assert board.scoring
    assert not Round.objects.filter(game=game, number=2).exists()


def test_editing_a_finished_round_keeps_the_old_scores_in_history_and_can_be_undone():
    game = make_game(players=3)
    play_round(game, points=[15, 20])
    first = game.rounds.get(number=1)
    ann, ben, cleo = seats_of(game)
    services.round_edit(
        game=game,
        version=game.version,
        round_=first,
        entries={ben.pk: rules.HandEntry(points=25), cleo.pk: rules.HandEntry(points=20)},
        user=None,
    )
    assert [line.total for line in selectors.game_board(game).lines] == [0, 25, 20]
    edit = Event.objects.get(kind=Event.Kind.SCORE_EDITED)
    assert f"{ben.player} 15 → 25" in edit.description
    services.action_undo(game=game, version=game.version, user=None)
    assert [line.total for line in selectors.game_board(game).lines] == [0, 15, 20]


def test_undo_with_nothing_to_undo_is_refused():
    game = make_game()
    with pytest.raises(services.ActionRefused, match="nothing to undo"):
        services.action_undo(game=game, version=game.version, user=None)


def test_undo_of_went_out_keeps_an_earlier_went_down():
    game = make_game()
    ann = seats_of(game)[0]
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=None)
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=None)
    services.action_undo(game=game, version=game.version, user=None)
    assert hand_of(game, ann).went_down
    assert not selectors.game_board(game).scoring


def test_a_table_keeps_its_rules_when_the_profile_changes():
    club = make_club()
    game = make_game(club)
    profile = club.profiles.get()
    services.profile_save(
        club=club, profile=profile, name=profile.name, house_rules=rules.HouseRules(may_i_limit=3)
    )
    game.refresh_from_db()
    assert game.house_rules.may_i_limit == 2


def test_undo_of_a_round_save_keeps_the_next_rounds_checks():
    game = make_game(players=3)
    play_round(game)
    answer = rules.answer_question("meld", rules.parse_melds("8H 8S 8D"), game.house_rules)
    services.check_record(
        game=game,
        round_=game.rounds.get(number=2),
        question="meld",
        cards="8H 8S 8D",
        target=None,
        answer=answer,
        user=None,
    )
    with pytest.raises(services.ActionRefused, match="edit its scores"):
        services.action_undo(game=game, version=game.version, user=None)
    assert selectors.game_board(game).current.number == 2
    assert game.checks.count() == 1


@pytest.mark.parametrize("rounds_played", [1, 7], ids=["next contract", "game over"])
def test_a_check_about_a_round_scored_meanwhile_is_refused_and_not_kept(rounds_played):
    game = make_game(players=3)
    asked_about = game.rounds.get(number=1)
    for _ in range(rounds_played):
        play_round(game)
    answer = rules.answer_question("meld", rules.parse_melds("8H 8S 8D"), game.house_rules)
    with pytest.raises(services.ActionRefused):
        services.check_record(
            game=game,
            round_=asked_about,
            question="meld",
            cards="8H 8S 8D",
            target=None,
            answer=answer,
            user=None,
        )
    assert game.checks.count() == 0


def test_a_shanghai_claim_needs_a_meld_on_the_table_but_a_protect_does_not():
    game = make_game()
    ann, ben = seats_of(game)[:2]
    with pytest.raises(services.ActionRefused, match="Nobody has gone down yet"):
        services.shanghai_record(
            game=game, version=game.version, seat=ann, discarder=ben, user=None
        )
    assert not game.events.exists()
    services.shanghai_record(game=game, version=game.version, seat=ann, discarder=None, user=None)
    services.hand_mark_down(game=game, version=game.version, seat=ben, user=None)
    services.shanghai_record(game=game, version=game.version, seat=ann, discarder=ben, user=None)
    assert game.events.filter(kind=Event.Kind.SHANGHAI_CLAIM).count() == 1


@pytest.fixture
def last_contract():
    """A table at contract 7: three runs, no discard."""
    game = make_game(players=3)
    for _ in range(6):
        play_round(game)
    game.refresh_from_db()
    return game


def table_rows(game):
    """What undo must restore: the round's hands, who went out, the melds on the table."""
    round_ = game.rounds.get(finished_at__isnull=True)
    return (
        round_.went_out_id,
        list(round_.hands.order_by("pk").values_list("went_down", "may_i_used", "cards")),
        list(round_.melds.values_list("cards")),
    )


def test_going_down_in_a_no_discard_contract_is_going_out(last_contract):
    game = last_contract
    ann = seats_of(game)[0]
    before = table_rows(game)
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=None)
    board = selectors.game_board(game)
    assert board.current.went_out == ann and board.scoring
    assert game.events.first().kind == Event.Kind.WENT_OUT
    services.action_undo(game=game, version=game.version, user=None)
    assert table_rows(game) == before


def test_recording_three_runs_in_a_no_discard_contract_goes_out_with_them(last_contract):
    game = last_contract
    ann = seats_of(game)[0]
    before = table_rows(game)
    melds = rules.parse_melds("3H 4H 5H 6H | 8S 9S 10S JS | 2D 3D 4D 5D")
    services.melds_record(game=game, version=game.version, seat=ann, melds=melds, user=None)
    round_ = game.rounds.get(number=7)
    assert round_.went_out == ann
    assert round_.melds.count() == 3
    assert list(round_.events.values_list("kind", flat=True)) == [Event.Kind.WENT_OUT]
    services.action_undo(game=game, version=game.version, user=None)
    assert table_rows(game) == before


def test_editing_a_round_can_change_who_went_out_and_undo_takes_it_back():
    game = make_game(players=3)
    ann, ben, cat = seats_of(game)
    play_round(game, went_out=0, points=[10, 20])
    round_ = game.rounds.get(number=1)
    entries = {
        ann.pk: rules.HandEntry(cards=tuple(rules.parse_ranks("K 7"))),
        cat.pk: rules.HandEntry(points=20),
    }
    services.round_edit(
        game=game, version=game.version, round_=round_, entries=entries, went_out=ben, user=None
    )
    round_.refresh_from_db()
    assert round_.went_out == ben
    assert dict(round_.hands.values_list("seat", "points")) == {ann.pk: 15, ben.pk: 0, cat.pk: 20}
    edited = game.events.get(kind=Event.Kind.SCORE_EDITED).description
    assert f"{ben.player} went out, not {ann.player}" in edited
    assert [line.rounds_won for line in selectors.game_board(game).lines] == [0, 1, 0]
    services.action_undo(game=game, version=game.version, user=None)
    round_.refresh_from_db()
    assert round_.went_out == ann
    assert dict(round_.hands.values_list("seat", "points")) == {ann.pk: 0, ben.pk: 10, cat.pk: 20}


@pytest.fixture
def bonus_game():
    club = make_club()
    profile = services.profile_save(
        club=club,
        name="Bonuses",
        house_rules=rules.HouseRules(shanghai_bonus=10, rummy_bonus=True),
    )
    return services.game_start(
        club=club,
        user=None,
        players=[make_player(club) for _ in range(3)],
        first_dealer=0,
        season=club.seasons.get(),
        profile=profile,
    )


def test_totals_apply_the_shanghai_and_rummy_bonuses(bonus_game):
    game = bonus_game
    ann, ben, cat = seats_of(game)
    services.hand_mark_down(game=game, version=game.version, seat=cat, user=None)
    services.shanghai_record(game=game, version=game.version, seat=ben, discarder=cat, user=None)
    services.round_record_went_out(game=game, version=game.version, seat=ann, rummy=True, user=None)
    entries = {ben.pk: rules.HandEntry(points=15), cat.pk: rules.HandEntry(points=40)}
    services.round_score(game=game, version=game.version, entries=entries, user=None)
    board = selectors.game_board(game)
    assert [line.total for line in board.lines] == [0, 2 * 15 - 10, 2 * 40]
    scored = game.events.get(kind=Event.Kind.ROUND_SCORED).description
    assert f"{ben.player} 20" in scored and f"{cat.player} 80" in scored


def test_going_out_in_one_turn_is_refused_after_going_down(bonus_game):
    game = bonus_game
    ann = seats_of(game)[0]
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=None)
    with pytest.raises(services.ActionRefused, match="not in one turn"):
        services.round_record_went_out(
            game=game, version=game.version, seat=ann, rummy=True, user=None
        )
    assert game.rounds.get().went_out is None


def test_undo_of_going_out_in_one_turn_forgets_the_turn(bonus_game):
    game = bonus_game
    ann = seats_of(game)[0]
    services.round_record_went_out(game=game, version=game.version, seat=ann, rummy=True, user=None)
    assert game.rounds.get().rummy
    services.action_undo(game=game, version=game.version, user=None)
    assert not game.rounds.get().rummy


def test_undo_of_recorded_melds_keeps_an_earlier_went_down():
    game = make_game(players=3)
    ann = seats_of(game)[0]
    services.hand_mark_down(game=game, version=game.version, seat=ann, user=None)
    melds = rules.parse_melds("8H 8S 8D | KC KD KS")
    services.melds_record(game=game, version=game.version, seat=ann, melds=melds, user=None)
    services.action_undo(game=game, version=game.version, user=None)
    assert hand_of(game, ann).went_down
    assert not game.rounds.get().melds.exists()
    services.action_undo(game=game, version=game.version, user=None)
    assert not hand_of(game, ann).went_down


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
