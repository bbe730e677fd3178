"""A club night: the tables played on the club's today, and how the standings moved since its
first table finished. Read from the Result rows that scorekeeper.services.ratings keeps (one per
player per finished table, with the rating after it), never recomputed from the rounds: nine
queries at most, however many tables and players there are."""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.db.models import Q

from scorekeeper.models import TV_TOKEN_LENGTH, Club, Game, Player, Result, Season

from .standings import standings_for, standings_recounting, with_players_and_results


@dataclass
class NightTable:
    """One table of the night: who sits at it, whether it is over, and who won it."""

    game: Game
    players: list[Player]  # in seating order
    results: list[Result]  # once finished, by place

    @property
    def finished(self) -> bool:
        return self.game.finished_at is not None

    @property
    def winners(self) -> list[Player]:
        """Who finished first: lowest total, players on the same place sharing the win."""
        return [result.player for result in self.results if result.place == 1]

    @property
    def contract(self) -> int:
        """The contract being played (while the table plays)."""
        return len(self.game.rounds_finished) + 1


@dataclass
class Move:
    """How a player's place in the standings and rating moved tonight. A figure before is None
    for a player with no earlier result in those standings: new tonight."""

    player: Player
    place: int
    rating: float
    place_before: int | None
    rating_before: float | None

    @property
    def places_up(self) -> int | None:
        """Places climbed (negative: dropped), None for a player new tonight."""
        return None if self.place_before is None else self.place_before - self.place

    @property
    def places_down(self) -> int | None:
        return None if self.places_up is None else -self.places_up

    @property
    def rating_change(self) -> float | None:
        return None if self.rating_before is None else self.rating - self.rating_before


@dataclass
class Tonight:
    club: Club
    day: date
    tables: list[NightTable]
    # Whose standings the moves are in: the season of tonight's finished tables, or all time
    # (None) when they were in several seasons.
    season: Season | None
    moves: list[Move]
    # Ratings not yet replayed by a worker: the moves would be out of date, so none are shown.
    recounting: bool

    @property
    def playing(self) -> int:
        return sum(not table.finished for table in self.tables)

    @property
    def all_time(self) -> bool:
        return self.season is None


def day_bounds(club: Club, day: date) -> tuple[datetime, datetime]:
    """When the club's `day` starts and the next one does, in its time zone."""
    zone = ZoneInfo(club.time_zone)
    return (
        datetime.combine(day, time(), tzinfo=zone),
        datetime.combine(day + timedelta(days=1), time(), tzinfo=zone),
    )


def tonight_for(*, club: Club) -> Tonight:
    """The club's night: the tables started or finished on the club's today, oldest first,
    and, for the players of its finished tables, their place and rating in the standings
    before the night's first finished table and now."""
    day = club.today()
    starts, ends = day_bounds(club, day)
    games = with_players_and_results(
        club.games.filter(
            Q(started_at__gte=starts, started_at__lt=ends)
            | Q(finished_at__gte=starts, finished_at__lt=ends)
        )
    ).order_by("started_at", "pk")
    tables = [
        NightTable(
            game=game,
            players=[seat.player for seat in game.seats.all()],
            results=list(game.results.all()),
        )
        for game in games
    ]
    finished = [result for table in tables for result in table.results]
    season = None
    if len({result.season_id for result in finished}) == 1:
        season = next(table.game.season for table in tables if table.results)
    recounting = bool(finished) and standings_recounting(club)
    moves = [] if recounting else _moves(club, season, finished)
    return Tonight(
        club=club, day=day, tables=tables, season=season, moves=moves, recounting=recounting
    )


def _moves(club: Club, season: Season | None, finished: list[Result]) -> list[Move]:
    """Each player of tonight's finished tables, by place in the standings now."""
    if not finished:
        return []
    first = min((result.finished_at, result.game_id) for result in finished)
    now = {line.player.pk: line for line in standings_for(club=club, season=season).lines}
    before = standings_for(club=club, season=season, before=first)
    earlier = {line.player.pk: line for line in before.lines}
    players = {result.player_id for result in finished}
    moves = []
    for player_id in players & now.keys():
        line, was = now[player_id], earlier.get(player_id)
        moves.append(
            Move(
                player=line.player,
                place=line.place,
                rating=line.rating,
                place_before=was.place if was else None,
                rating_before=was.rating if was else None,
            )
        )
    return sorted(moves, key=lambda move: (move.place, move.player.name.casefold()))


def club_for_tv(token: str) -> Club | None:
    """The club whose TV link this is; None for any other token."""
    if len(token) != TV_TOKEN_LENGTH:
        return None
    return Club.objects.filter(tv_token=token).first()
