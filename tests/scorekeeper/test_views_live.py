"""The round screen's poll, the TV view and its link: 304 for an unchanged table after one query,
the table's fragment when it changed, and nobody outside the club (or the link) sees a thing."""

import html
import re
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

import rules
from scorekeeper.models import TableLink
from scorekeeper.selectors import game_board
from scorekeeper.services import may_i_spend, melds_record, tv_link_create, tv_link_revoke
from tests.factories import make_club, make_game, make_user, play_round

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def poll_url(client, game):
    """The address the round screen polls, as the page gives it."""
    page = client.get(game.get_absolute_url()).content.decode()
    return html.unescape(re.search(r'<div id="live" hx-get="([^"]+)"', page)[1])


def etag_shown(content: bytes) -> str:
    return html.unescape(re.search(r'data-etag="([^"]+)"', content.decode())[1])


def tap(game):
    game.refresh_from_db()
    seat = game.seats.order_by("position").first()
    may_i_spend(game=game, version=game.version, seat=seat, user=game.created_by)


# The round screen's poll


def test_an_unchanged_table_answers_304_after_one_query(
    client, member, game, django_assert_num_queries
):
    url = poll_url(client, game)
    first = client.get(url, headers=HTMX)
    assert first.status_code == 200
    assert first["ETag"] == etag_shown(first.content) == f'W/"table-{game.pk}-{game.version}"'
    # One query: the version, joined to the user's membership. No session, no user row.
    with django_assert_num_queries(1):
        again = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]
    assert "private" in again["Cache-Control"] and "no-cache" in again["Cache-Control"]


def test_the_unchanged_answer_comes_before_the_session_and_login_middleware(
    client, member, game, django_assert_num_queries
):
    url = poll_url(client, game)
    etag = client.get(url, headers=HTMX)["ETag"]
    # One query (the version, the membership and that the session is still signed in), and
    # no session middleware: it would have said Vary: Cookie.
    with django_assert_num_queries(1):
        unchanged = client.get(url, headers={**HTMX, "If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged["Vary"] == "HX-Request"
    tap(game)
    assert client.get(url, headers={**HTMX, "If-None-Match": etag}).status_code == 200


def test_an_unchanged_poll_to_a_host_not_ours_is_refused(client, member, game):
    url = poll_url(client, game)
    etag = client.get(url, headers=HTMX)["ETag"]
    answer = client.get(url, headers={**HTMX, "If-None-Match": etag}, HTTP_HOST="evil.example")
    assert answer.status_code == 400


def test_a_changed_table_answers_its_fragment_with_the_new_etag(client, member, game):
    url = poll_url(client, game)
    old = f'W/"table-{game.pk}-{game.version}"'
    tap(game)
    response = client.get(url, headers={**HTMX, "If-None-Match": old})
    assert response.status_code == 200
    assert response.content.lstrip().startswith(b'<div id="table"')
    assert b"called May I?" in response.content
    assert response["ETag"] == etag_shown(response.content) == f'W/"table-{game.pk}-{game.version}"'


def lay_melds(game, seat):
    melds = rules.parse_melds("8H 8S 8D | 9H 9S 9D")
    melds_record(game=game, version=game.version, seat=seat, melds=melds, user=game.created_by)


WRITES = {
    "a May I? token": lambda game, seat: may_i_spend(
        game=game, version=game.version, seat=seat, user=game.created_by
    ),
    "melds laid down": lay_melds,
    "a round scored": lambda game, seat: play_round(game),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_to_the_table_moves_the_poll_on(client, member, game, write):
    url = poll_url(client, game)
    shown = f'W/"table-{game.pk}-{game.version}"'
    assert client.get(url, headers={**HTMX, "If-None-Match": shown}).status_code == 304
    game.refresh_from_db()
    write(game, game.seats.order_by("position").first())
    response = client.get(url, headers={**HTMX, "If-None-Match": shown})
    assert response.status_code == 200
    assert response["ETag"] != shown


def test_the_poll_without_htmx_is_the_whole_page(client, member, game):
    response = client.get(poll_url(client, game))
    assert response.status_code == 200
    assert b"<html" in response.content


def test_a_poll_address_of_another_session_is_checked_the_ordinary_way(
    client, member, game, django_assert_num_queries
):
    url = poll_url(client, game)
    etag = f'W/"table-{game.pk}-{game.version}"'
    client.logout()
    client.force_login(member)  # a new session: the old signature no longer opens the short path
    with django_assert_num_queries(3):  # session, user, then the table through the club
        response = client.get(url, headers={**HTMX, "If-None-Match": etag})
    assert response.status_code == 304


def test_a_logged_out_poll_is_sent_to_log_in(client, member, game):
    url = poll_url(client, game)
    etag = f'W/"table-{game.pk}-{game.version}"'
    client.logout()
    response = client.get(url, headers={**HTMX, "If-None-Match": etag})
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))
    without_htmx = client.get(url)
    assert without_htmx.status_code == 302
    assert without_htmx["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("how", ["logged out elsewhere", "expired"])
def test_a_signed_poll_of_a_session_no_longer_signed_in_is_never_304(client, member, game, how):
    """The browser still sends the old session cookie and the signed address, but the session
    was ended on the server (logged out from another tab, or expired)."""
    url = poll_url(client, game)
    etag = f'W/"table-{game.pk}-{game.version}"'
    session = Session.objects.get()
    if how == "expired":
        session.expire_date = timezone.now() - timedelta(seconds=1)
        session.save()
    else:
        session.delete()
    response = client.get(url, headers={**HTMX, "If-None-Match": etag})
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(reverse("login"))


def test_a_member_who_left_the_club_gets_a_404_even_with_a_signed_address(client, member, game):
    url = poll_url(client, game)
    game.club.memberships.filter(user=member).delete()
    response = client.get(url, headers={**HTMX, "If-None-Match": f'W/"table-{game.pk}-0"'})
    assert response.status_code == 404


def test_another_clubs_table_is_a_404_even_with_that_clubs_own_signature(client, game):
    stranger = make_club().memberships.get().user
    own = make_game(stranger.memberships.get().club)
    client.force_login(stranger)
    signed_for_own = poll_url(client, own)
    key = signed_for_own.split("?", 1)[1]
    url = f"{reverse('game_live', args=[game.pk])}?{key}"
    assert client.get(url, headers=HTMX).status_code == 404
    assert client.get(reverse("game_live", args=[game.pk]), headers=HTMX).status_code == 404


@pytest.mark.parametrize("key", ["", "nonsense", "a" * 5000, "eyJ0YWJsZSI6MX0:1:abc"])
def test_a_bad_poll_key_falls_back_to_the_ordinary_checks(client, member, game, key):
    url = f"{reverse('game_live', args=[game.pk])}?key={key}"
    etag = f'W/"table-{game.pk}-{game.version}"'
    assert client.get(url, headers={**HTMX, "If-None-Match": etag}).status_code == 304
    client.logout()
    assert client.get(url, headers=HTMX)["HX-Redirect"].startswith(reverse("login"))


def test_the_poll_refuses_post(client, member, game):
    assert client.post(poll_url(client, game)).status_code == 405


def test_the_round_screen_polls_every_second_and_shows_the_tv_link_section(client, member, game):
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'hx-trigger="every 1s"' in page
    assert "data-wake" in page
    assert "Make a TV link" in page


# The TV view


def tv_url(game):
    return reverse("tv", args=[tv_link_create(game=game, user=game.created_by).token])


def test_the_tv_view_needs_no_account_and_has_no_buttons(client, game):
    play_round(game)
    response = client.get(tv_url(game))
    assert response.status_code == 200
    page = response.content.decode()
    assert "<html" in page
    board = game_board(game)
    assert f'<h1 class="tv-contract">{board.contract.name}</h1>' in page
    for who, does in [(board.dealer.player, "deals"), (board.first_player.player, "plays first")]:
        assert f'<strong class="tv-name" title="{who}">{who}</strong> {does}' in page
    for forbidden in ("<button", "<form", 'role="button"', "Log in", "Log out"):
        assert forbidden not in page
    assert response["X-Robots-Tag"] == "noindex"
    assert 'hx-trigger="every 1s"' in page


def test_the_tv_page_and_its_answers_are_kept_by_no_cache(client, game):
    # As the club night's TV page: a screen anyone in the room may use keeps no copy.
    url = tv_url(game)
    page = client.get(url)
    first = client.get(url, headers=HTMX)
    unchanged = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    gone = client.get(url[:-3] + "xx/")
    assert [r.status_code for r in (page, first, unchanged, gone)] == [200, 200, 304, 404]
    for response in (page, first, unchanged, gone):
        assert "no-store" in response["Cache-Control"]
        assert "private" in response["Cache-Control"]


def test_the_tv_view_shows_the_totals(client, game):
    play_round(game, points=[10, 20, 30])
    page = client.get(tv_url(game)).content.decode()
    totals = re.findall(r'<td class="tv-total">(\d+)</td>', page)
    assert totals == ["0", "10", "20", "30"]


def test_the_tv_poll_answers_304_after_one_query_and_follows_a_tap(
    client, game, django_assert_num_queries
):
    url = tv_url(game)
    first = client.get(url, headers=HTMX)
    assert first.content.lstrip().startswith(b'<div id="tv-board"')
    assert first["ETag"] == etag_shown(first.content)
    with django_assert_num_queries(1):
        unchanged = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert unchanged.status_code == 304
    assert unchanged["X-Robots-Tag"] == "noindex"
    assert "private" in unchanged["Cache-Control"] and "no-cache" in unchanged["Cache-Control"]
    tap(game)
    changed = client.get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    assert changed["ETag"] != first["ETag"]
    assert b'aria-label="1 May I? left"' in changed.content


@pytest.mark.parametrize("players,rounds", [(3, 0), (5, 6)])
def test_the_tv_page_query_count_does_not_grow(client, django_assert_num_queries, players, rounds):
    game = make_game(players=players)
    for _ in range(rounds):
        play_round(game, points=[10] * (players - 1))
    url = tv_url(game)
    # The table through its link, with its club, then the board's six queries.
    with django_assert_num_queries(7):
        assert client.get(url).status_code == 200


def test_a_revoked_link_is_a_404_and_a_new_one_has_a_new_address(client, game):
    old = tv_url(game)
    tv_link_revoke(game=game, user=game.created_by)
    gone = client.get(old)
    assert gone.status_code == 404
    assert "This TV link was turned off, or never made." in gone.content.decode()
    assert "tv-board" not in gone.content.decode()
    new = tv_url(game)
    assert new != old
    assert client.get(new).status_code == 200


@pytest.mark.parametrize("token", ["x", "a" * 42, "a" * 44, "a" * 3000, "-" * 43])
def test_a_wrong_token_is_a_404(client, game, token, django_assert_max_num_queries):
    tv_url(game)
    with django_assert_max_num_queries(1):
        assert client.get(f"/tv/{token}/").status_code == 404


def test_the_tv_view_refuses_post(client, game):
    assert client.post(tv_url(game)).status_code == 405


# Making and revoking the link from the round screen


def test_a_member_makes_the_tv_link_by_htmx(client, member, game):
    response = client.post(reverse("tv_link_create", args=[game.pk]), headers=HTMX)
    assert response.status_code == 200
    link = TableLink.objects.get(game=game)
    assert link.created_by == member
    assert len(link.token) == 43
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="tv-link"')
    assert f"http://testserver/tv/{link.token}/" in page
    assert "Turn the TV link off" in page


def test_making_it_again_keeps_the_same_link(client, member, game):
    for _ in range(2):
        client.post(reverse("tv_link_create", args=[game.pk]), headers=HTMX)
    assert TableLink.objects.filter(game=game).count() == 1


def test_without_htmx_making_and_revoking_go_back_to_the_table(client, member, game):
    response = client.post(reverse("tv_link_create", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"] == f"{game.get_absolute_url()}#tv-link"
    token = TableLink.objects.get(game=game).token
    assert token in client.get(game.get_absolute_url()).content.decode()
    response = client.post(reverse("tv_link_revoke", args=[game.pk]))
    assert response["Location"] == f"{game.get_absolute_url()}#tv-link"
    assert not TableLink.objects.exists()


def test_a_member_revokes_the_tv_link(client, member, game):
    token = tv_link_create(game=game, user=member).token
    response = client.post(reverse("tv_link_revoke", args=[game.pk]), headers=HTMX)
    assert response.status_code == 200
    assert "Make a TV link" in response.content.decode()
    assert not TableLink.objects.exists()
    assert client.get(reverse("tv", args=[token])).status_code == 404


@pytest.mark.parametrize("name", ["tv_link_create", "tv_link_revoke"])
def test_link_actions_refuse_get(client, member, game, name):
    assert client.get(reverse(name, args=[game.pk])).status_code == 405


@pytest.mark.parametrize("name", ["tv_link_create", "tv_link_revoke"])
def test_link_actions_of_another_club_are_a_404_and_change_nothing(client, game, name):
    token = tv_link_create(game=game, user=game.created_by).token
    client.force_login(make_user())
    assert client.post(reverse(name, args=[game.pk]), headers=HTMX).status_code == 404
    assert TableLink.objects.get(game=game).token == token


@pytest.mark.parametrize("name", ["tv_link_create", "tv_link_revoke"])
def test_link_actions_send_anonymous_visitors_to_log_in(client, game, name):
    response = client.post(reverse(name, args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not TableLink.objects.exists()


@pytest.mark.parametrize("pk", [0, 2**63, 10**30])
def test_a_table_number_past_what_the_database_holds_is_a_404(client, member, pk):
    url = f"/tables/{pk}/live/"
    assert client.get(url, headers={**HTMX, "If-None-Match": 'W/"table-1-0"'}).status_code == 404
    assert client.post(f"/tables/{pk}/tv-link/", headers=HTMX).status_code == 404
