""" "This is me" (services/player_accounts.py, views/players.py, selectors/home.py): a member
links their account to one player of each club; the home page then shows their tables and
their place and rating in each season; the member or an owner unlinks it."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Membership, OwnerAction, Player, Role
from scorekeeper.selectors.standings import standings_for
from tests.factories import finish_game, make_club, make_game, make_player, make_user, play_round

pytestmark = pytest.mark.django_db


def me(player):
    return reverse("player_me", args=[player.pk])


def unlink(player):
    return reverse("player_unlink", args=[player.pk])


def account_of(player) -> int | None:
    return Player.objects.get(pk=player.pk).account_id


def member(club, role=Role.VIEWER):
    user = make_user()
    Membership.objects.create(club=club, user=user, role=role)
    return user


def test_a_member_says_this_is_me_and_says_so_again_for_another_player(client):
    club = make_club()
    ann, ben = make_player(club, "Ann"), make_player(club, "Ben")
    viewer = member(club)
    client.force_login(viewer)
    assert "This is me</button>" in client.get(ann.get_absolute_url()).content.decode()
    response = client.post(me(ann))
    assert response["Location"] == ann.get_absolute_url()
    assert account_of(ann) == viewer.pk
    page = client.get(ann.get_absolute_url()).content.decode()
    assert "This is you" in page and "This is not me</button>" in page
    # One player an account in each club: the link moves.
    client.post(me(ben))
    assert (account_of(ann), account_of(ben)) == (None, viewer.pk)


def test_a_player_who_is_another_member_is_refused(client):
    club = make_club()
    ann = make_player(club, "Ann")
    services.player_account_link(player=ann, user=club.owner())
    other = member(club)
    client.force_login(other)
    page = client.get(ann.get_absolute_url()).content.decode()
    assert f"Ann is {club.owner()}." in page and "Unlink" not in page
    response = client.post(me(ann), follow=True)
    assert "Ann is another member already" in response.content.decode()
    assert account_of(ann) == club.owner().pk
    # Nor may they unlink another's player: that is an owner's correction.
    assert client.post(unlink(ann)).status_code == 403
    assert account_of(ann) == club.owner().pk


def test_the_member_or_an_owner_unlinks_and_the_owners_unlink_is_kept(client):
    club = make_club()
    ann = make_player(club, "Ann")
    viewer = member(club)
    services.player_account_link(player=ann, user=viewer)
    client.force_login(viewer)
    client.post(unlink(ann))
    assert account_of(ann) is None
    assert not OwnerAction.objects.exists()
    services.player_account_link(player=ann, user=viewer)
    client.force_login(club.owner())
    assert "Unlink Ann from" in client.get(ann.get_absolute_url()).content.decode()
    client.post(unlink(ann))
    assert account_of(ann) is None
    assert OwnerAction.objects.get().summary == f"unlinked Ann from {viewer}"


def test_leaving_the_club_or_being_taken_out_unlinks_the_player():
    club = make_club()
    ann, ben = make_player(club, "Ann"), make_player(club, "Ben")
    leaver, removed = member(club), member(club)
    services.player_account_link(player=ann, user=leaver)
    services.player_account_link(player=ben, user=removed)
    services.member_leave(club=club, user=leaver)
    membership = Membership.objects.get(club=club, user=removed)
    services.member_remove(membership=membership, user=club.owner())
    assert (account_of(ann), account_of(ben)) == (None, None)


def test_only_a_member_by_post_links_or_unlinks(client):
    club = make_club()
    ann = make_player(club, "Ann")
    for url in (me(ann), unlink(ann)):
        assert client.post(url)["Location"].startswith(reverse("login"))
    client.force_login(make_club().owner())
    assert client.post(me(ann)).status_code == 404
    assert client.post(unlink(ann)).status_code == 404
    client.force_login(club.owner())
    assert client.get(me(ann)).status_code == 405
    assert client.get(unlink(ann)).status_code == 405
    assert account_of(ann) is None


def test_one_player_an_account_in_a_club_and_one_account_a_player():
    club, other = make_club(), make_club()
    user = club.owner()
    ann, ben = make_player(club, "Ann"), make_player(club, "Ben")
    Player.objects.filter(pk=ann.pk).update(account=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=ben.pk).update(account=user)
    # Another club's player may be the same account; unlinked players are many.
    Player.objects.filter(pk=make_player(other, "Ann").pk).update(account=user)
    assert Player.objects.filter(account__isnull=True).count() == 1
    # A player holds one account: the link is a single column.
    assert Player._meta.get_field("account").many_to_one


@pytest.mark.slow
def test_the_home_page_shows_the_members_tables_and_places_as_the_standings_do(client):
    club = make_club(name="Thursday")
    ann, ben, cat, dan = (make_player(club, name) for name in ["Ann", "Ben", "Cat", "Dan"])
    viewer = member(club)
    services.player_account_link(player=ben, user=viewer)
    finish_game(make_game(club, [ann, ben, cat]))  # Ann wins, Ben second
    playing = play_round(make_game(club, [cat, ben, dan]))
    make_game(club, [ann, cat, dan])  # not Ben's
    client.force_login(viewer)
    page = client.get(reverse("home")).content.decode()
    assert f'You are <a href="{ben.get_absolute_url()}">Ben</a> at Thursday.' in page
    line = next(line for line in standings_for(club=club, season=None).lines if line.player == ben)
    assert f"<td>{line.place} of 3</td><td>{line.rating:.1f}</td>" in page
    tables = page[page.index('aria-label="Your last tables"') :]
    assert tables.count("<tr>") == 3  # the head and Ben's two tables
    assert playing.get_absolute_url() in tables
    assert "<td>2 · 70</td>" in tables and "<td>playing</td>" in tables


def test_the_home_page_of_a_member_who_is_nobody_yet_asks_which_player(client):
    client.force_login(make_club().owner())
    assert "Which player are you?" in client.get(reverse("home")).content.decode()


@pytest.mark.slow
@pytest.mark.parametrize("clubs", [1, 3])
def test_the_home_page_reads_a_fixed_number_of_queries(client, django_assert_num_queries, clubs):
    user = make_user()
    for number in range(clubs):
        club = make_club(user)
        players = [make_player(club) for _ in range(3)]
        services.player_account_link(player=players[number % 3], user=user)
        for _ in range(number + 1):
            finish_game(make_game(club, players))
        play_round(make_game(club, players))
        services.season_create(club=club, user=user, name=f"Later {number}", starts_on=club.today())
    client.force_login(user)
    # Session, user; clubs, tables in play, their seats, their players; the member's players,
    # their tables, those tables' seats and results, the seasons with the member's rating,
    # the seasons' standings.
    with django_assert_num_queries(12):
        assert client.get(reverse("home")).status_code == 200
