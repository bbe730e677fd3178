"""Clubs, their players and rules, and starting a table (scorekeeper/services/clubs.py)."""

import pytest

import rules
from scorekeeper import selectors, services
from scorekeeper.models import Game
from tests.factories import make_club, make_game, make_player, make_user

pytestmark = pytest.mark.django_db


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
    services.player_create(user=club.owner(), club=club, name="Ann")
    with pytest.raises(services.ActionRefused, match="There is already a player called Ann"):
        services.player_create(user=club.owner(), club=club, name="ann")
    other = make_club()
    services.player_create(user=other.owner(), club=other, name="Ann")


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
        make_game(club, seated=players)
    assert not Game.objects.exists()


def test_a_player_sits_only_once():
    club = make_club()
    ann = make_player(club)
    with pytest.raises(services.ActionRefused, match="only once"):
        make_game(club, seated=[ann, ann, make_player(club)])


def test_a_table_keeps_its_rules_when_the_profile_changes():
    club = make_club()
    game = make_game(club)
    profile = club.profiles.get()
    services.profile_save(
        club=club,
        profile=profile,
        name=profile.name,
        house_rules=rules.HouseRules(may_i_limit=3),
        user=club.owner(),
    )
    game.refresh_from_db()
    assert game.house_rules.may_i_limit == 2


def test_a_club_keeps_at_most_its_bound_of_players(settings):
    settings.PLAYERS_PER_CLUB = 3
    club = make_club()
    owner = club.owner()
    for name in ("Ann", "Ben", "Cat"):
        services.player_create(club=club, user=owner, name=name)
    with pytest.raises(services.ActionRefused, match="has 3 players, the most a club keeps"):
        services.player_create(club=club, user=owner, name="Dan")
    assert club.players.count() == 3
    # One who no longer plays makes room.
    services.player_delete(player=club.players.get(name="Cat"), user=owner)
    assert services.player_create(club=club, user=owner, name="Dan").name == "Dan"
