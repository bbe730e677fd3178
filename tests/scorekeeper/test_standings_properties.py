"""Property: the standings and the player pages, read from the Result rows and the head to head
and points left the services keep, agree with a brute-force recomputation from the rounds
themselves, whatever was played, in whichever season, and whatever table was then taken away."""

import contextlib
import dataclasses
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.standings import places
from scorekeeper import services
from scorekeeper.models import Game, Hand
from scorekeeper.selectors import standings
from tests.depth import examples
from tests.factories import make_club, make_game, make_player

pytestmark = pytest.mark.django_db

CONTRACTS = 2
# One round: who goes out, in one turn or not, May I?s spent (by seat), the others' points.
rounds_played = st.tuples(
    st.integers(0, 4),
    st.booleans(),
    st.lists(st.integers(0, 4), max_size=3),
    st.lists(st.integers(1, 40).map(lambda n: 5 * n), min_size=4, max_size=4),
)
tables = st.lists(
    st.tuples(
        st.permutations(range(5)).map(lambda order: order[:3]),
        st.lists(rounds_played, min_size=CONTRACTS, max_size=CONTRACTS),
        st.booleans(),  # in the second season
    ),
    min_size=1,
    max_size=4,
)
# Then one table is taken away: its last save undone (no longer finished), or deleted.
afterwards = st.one_of(st.none(), st.tuples(st.sampled_from(["undo", "delete"]), st.integers(0, 3)))


def _play(game: Game, plan) -> None:
    seats = list(game.seats.all())
    user = game.created_by
    for went_out, rummy, may_i, points in plan:
        went_out %= len(seats)
        for seat in may_i:
            game.refresh_from_db()
            # Over the round's limit, a May I? is refused: that is fine here.
            with contextlib.suppress(services.ActionRefused):
                services.may_i_spend(
                    game=game, version=game.version, seat=seats[seat % len(seats)], user=user
                )
        game.refresh_from_db()
        services.round_record_went_out(
            game=game, version=game.version, seat=seats[went_out], rummy=rummy, user=user
        )
        others = [seat for seat in seats if seat.position != went_out]
        entries = {
            seat.pk: rules.HandEntry(points=value)
            for seat, value in zip(others, points, strict=False)
        }
        game.refresh_from_db()
        services.round_score(game=game, version=game.version, entries=entries, user=user)


def _brute_force(club, season=None) -> dict:
    """Each player's figures, added up from every finished table's hands (of the season)."""
    figures = {}
    games = Game.objects.filter(club=club).finished()
    for game in games if season is None else games.filter(season=season):
        house_rules = game.house_rules
        totals, won, may_i = {}, {}, {}
        left = {}  # by player: points left at each contract
        for hand in Hand.objects.filter(round__game=game).select_related("round", "seat"):
            player = hand.seat.player_id
            score = rules.round_scores({player: hand.points}, house_rules, rummy=hand.round.rummy)[
                player
            ]
            totals[player] = totals.get(player, 0) + score
            won[player] = won.get(player, 0) + (hand.round.went_out_id == hand.seat_id)
            may_i[player] = may_i.get(player, 0) + hand.may_i_used
            left.setdefault(player, {})[hand.round.number] = hand.points
        placed = places(totals, tie_break=house_rules.tie_break, rounds_won=won, may_i_used=may_i)
        firsts = [standing.player for standing in placed if standing.place == 1]
        for standing in placed:
            player = standing.player
            line = figures.setdefault(
                player,
                dict(
                    games=0,
                    wins=0,
                    shared_wins=0,
                    total=0,
                    best=None,
                    rounds_won=0,
                    may_i_used=0,
                    rounds=0,
                    rivals={},
                    sums={},
                ),
            )
            line["games"] += 1
            line["wins"] += standing.place == 1
            line["shared_wins"] += standing.place == 1 and len(firsts) > 1
            line["total"] += standing.total
            line["best"] = (
                standing.total if line["best"] is None else min(line["best"], standing.total)
            )
            line["rounds_won"] += won[player]
            line["may_i_used"] += may_i[player]
            line["rounds"] += CONTRACTS
            for other in placed:
                if other.player != player:
                    games_, ahead, behind = line["rivals"].get(other.player, (0, 0, 0))
                    line["rivals"][other.player] = (
                        games_ + 1,
                        ahead + (standing.place < other.place),
                        behind + (standing.place > other.place),
                    )
            for number, points in left[player].items():
                rounds, total = line["sums"].get(number, (0, 0))
                line["sums"][number] = (rounds + 1, total + points)
    for line in figures.values():
        sums = line.pop("sums")
        line["contracts"] = {
            number: (rounds, total / rounds) for number, (rounds, total) in sums.items()
        }
    return figures


FIGURES = ["games", "wins", "shared_wins", "total", "best", "rounds_won", "may_i_used", "rounds"]


def _record(player, season) -> dict:
    """The player page's figures, in the brute force's terms."""
    record = standings.player_record(player=player, season=season)
    return {
        **{name: getattr(record, name) for name in FIGURES},
        "rivals": {
            rival.player.pk: (rival.games, rival.ahead, rival.behind) for rival in record.rivals
        },
        "contracts": {
            contract["number"]: (contract["rounds"], contract["points"])
            for contract in record.contracts
        },
    }


@settings(
    max_examples=examples(dev=4, ci=12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    played=tables,
    tie_break=st.sampled_from(["shared", "most_rounds_won", "fewest_may_i"]),
    rummy_bonus=st.booleans(),
    then=afterwards,
)
def test_standings_agree_with_a_recount_from_the_rounds(played, tie_break, rummy_bonus, then):
    club = make_club()
    profile = club.profiles.get()
    house_rules = dataclasses.replace(
        profile.house_rules,
        contracts=profile.house_rules.contracts[:CONTRACTS],
        cards_dealt=profile.house_rules.cards_dealt[:CONTRACTS],
        tie_break=tie_break,
        rummy_bonus=rummy_bonus,
    )
    services.profile_save(
        user=club.owner(), club=club, name=profile.name, profile=profile, house_rules=house_rules
    )
    roster = [make_player(club) for _ in range(5)]
    first = club.seasons.get()
    second = services.season_create(
        user=club.owner(), club=club, name="Second", starts_on=date(2020, 1, 1)
    )
    games = []
    for seated, plan, later in played:
        game = make_game(club, seated=[roster[n] for n in seated], season=second if later else None)
        _play(game, plan)
        games.append(game)
    if then is not None:
        how, which = then
        game = games[which % len(games)]
        game.refresh_from_db()
        if how == "undo":
            services.action_undo(game=game, version=game.version, user=club.owner())
        else:
            services.game_delete(game=game, user=club.owner())
    expected = _brute_force(club)
    table = standings.standings_for(club=club, season=None)
    got = {line.player.pk: {name: getattr(line, name) for name in FIGURES} for line in table.lines}
    assert got == {
        player: {name: line[name] for name in FIGURES} for player, line in expected.items()
    }
    # The player pages, all time and season by season, agree too: head to head and contracts.
    for season in (None, first, second):
        counted = _brute_force(club, season)
        for player in roster:
            if player.pk in counted:
                assert _record(player, season) == counted[player.pk]
            else:
                record = _record(player, season)
                assert (record["games"], record["rivals"], record["contracts"]) == (0, {}, {})
    # Placed by the stated rule: win rate, then average final total, then games.
    keys = [(-line.win_rate, line.average_total, -line.games) for line in table.lines]
    assert keys == sorted(keys)
