"""Reads across a club's finished tables: standings, a player's record, the club's tables. Each
runs a fixed number of queries however many tables there are, aggregating the Result rows that
scorekeeper.ratings keeps (one per player per finished table) in the database; a player's head
to head and points left come from the sums kept with them (scorekeeper.services.tallies)."""

from dataclasses import dataclass, field
from datetime import datetime

from django.core.paginator import Page, Paginator
from django.db.models import Count, Min, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.utils.translation import gettext_lazy as _

from scorekeeper.models import (
    Club,
    Player,
    PointsLeft,
    Recount,
    Result,
    Rivalry,
    Round,
    Season,
    Seat,
)

# Until a player has finished this many tables their rating says little (it starts low, below
# zero, and climbs as it grows surer): the standings say "new" instead.
RATED_AFTER_TABLES = 5

TIE_BREAK = _(
    "Placed by win rate (a shared win counts as a win for each); equal win rates by the lower "
    "average final total, then by more games; players equal on all three share a place."
)


@dataclass(frozen=True)
class Column:
    label: str
    attribute: str
    # Whether the natural order is highest first (wins) rather than lowest first (totals).
    descending: bool = False


COLUMNS = {
    "place": Column(_("Place"), "place"),
    "player": Column(_("Player"), "name"),
    "games": Column(_("Games"), "games", descending=True),
    "wins": Column(_("Wins"), "wins", descending=True),
    "win_rate": Column(_("Win rate"), "win_rate", descending=True),
    "average": Column(_("Average final total"), "average_total"),
    "per_round": Column(_("Points per round"), "points_per_round"),
    "best": Column(_("Best game"), "best"),
    "rounds_won": Column(_("Rounds won"), "rounds_won", descending=True),
    "shanghai": Column(_("Shanghai claims"), "shanghai_claims", descending=True),
    "may_i": Column(_("May I?s used"), "may_i_used", descending=True),
    "rating": Column(_("Rating"), "rating", descending=True),
}


@dataclass
class Standing:
    """One player's line in the standings."""

    player: Player
    games: int
    wins: int
    shared_wins: int
    total: int
    rounds: int
    best: int
    rounds_won: int
    shanghai_claims: int
    may_i_used: int
    rating: float
    sigma: float
    trend: float
    place: int = 0
    tables: int = 0  # every table the rating shown counts, in any season

    @property
    def rated(self) -> bool:
        return self.tables >= RATED_AFTER_TABLES

    @property
    def name(self) -> str:
        return self.player.name.casefold()

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def average_total(self) -> float:
        return self.total / self.games

    @property
    def points_per_round(self) -> float:
        return self.total / self.rounds if self.rounds else 0


@dataclass
class Standings:
    season: Season | None
    lines: list[Standing]
    sort: str
    min_games: int
    hidden: int
    tie_break: str = TIE_BREAK
    rated_after: int = RATED_AFTER_TABLES

    @property
    def wins_series(self) -> list[tuple[str, int]]:
        """Wins per player, for the standings chart."""
        return [(line.player.name, line.wins) for line in self.lines]


def _scoped(results, season: Season | None, before: tuple[datetime, int] | None = None):
    """The results of a season (every season: None), and only those of tables finished before
    `before` = (finished_at, table id) in game order when it is given."""
    if season is not None:
        results = results.filter(season=season)
    if before is not None:
        finished_at, game_id = before
        earlier = Q(finished_at__lt=finished_at) | Q(finished_at=finished_at, game_id__lt=game_id)
        results = results.filter(earlier)
    return results


# A player's figures as their latest result in scope left them: the rating as it stands.
LATEST = ("rating", "sigma", "trend")


def _latest(season: Season | None, column: str, before=None) -> Subquery:
    """A column of the player's latest result in scope: their rating as it stands."""
    latest = _scoped(Result.objects.filter(player=OuterRef("pk")), season, before)
    return Subquery(latest.order_by("-finished_at", "-game_id").values(column)[:1])


def _tables_rated(season: Season | None, before=None) -> Subquery:
    """How many tables the player's rating in scope counts: all they finished, in any season,
    up to their latest in scope."""
    tables = _scoped(Result.objects.filter(player=OuterRef("pk")), None, before)
    if season is not None:
        latest = _scoped(Result.objects.filter(player=OuterRef(OuterRef("pk"))), season, before)
        latest = latest.order_by("-finished_at", "-game_id").values("finished_at")[:1]
        tables = tables.filter(finished_at__lte=Subquery(latest))
    return Subquery(tables.order_by().values("player").annotate(count=Count("pk")).values("count"))


def standing_key(*, wins: int, games: int, total: int) -> tuple[float, float, int]:
    """How TIE_BREAK orders players (smallest first): the higher win rate, then the lower
    average final total, then more games; players with equal keys share a place."""
    return (-wins / games, total / games, -games)


def sort_key(sort: str):
    column = COLUMNS[sort.removeprefix("-")]
    return lambda line: getattr(line, column.attribute)


# Each figure of a Standing, over a player's results (named apart from the columns they add).
_AGGREGATES = {
    "games": Count("pk"),
    "wins": Count("pk", filter=Q(place=1)),
    "shared_wins": Count("pk", filter=Q(place=1, place_shared=True)),
    "total": Sum("total"),
    "rounds": Sum("rounds"),
    "best": Min("total"),
    "rounds_won": Sum("rounds_won"),
    "shanghai_claims": Sum("shanghai_claims"),
    "may_i_used": Sum("may_i_used"),
}


def standings_for(
    *,
    club: Club,
    season: Season | None,
    sort: str = "place",
    min_games: int = 1,
    before: tuple[datetime, int] | None = None,
) -> Standings:
    """The club's standings for a season (or all time when `season` is None), in two queries:
    players with at least `min_games` finished tables, placed by TIE_BREAK and sorted by
    `sort` (a key of COLUMNS, `-` first for the other direction). With `before` =
    (finished_at, table id), the standings as they stood before that table finished."""
    rows = (
        _scoped(Result.objects.filter(club=club), season, before)
        .order_by()
        .values("player")
        .annotate(**{f"sum_{name}": aggregate for name, aggregate in _AGGREGATES.items()})
    )
    figures = {row["player"]: {name: row[f"sum_{name}"] for name in _AGGREGATES} for row in rows}
    # The ratings come in a query of their own: beside the aggregates above, the database would
    # group by them and look each one up for every result rather than once per player.
    players = Player.objects.filter(pk__in=figures).annotate(
        **{name: _latest(season, name, before) for name in LATEST},
        tables=_tables_rated(season, before),
    )
    lines = [
        Standing(
            player=player,
            **{name: getattr(player, name) for name in LATEST},
            tables=player.tables,
            **figures[player.pk],
        )
        for player in players
    ]
    ranked = sorted(lines, key=_key)
    shown = [line for line in ranked if line.games >= min_games]
    _place(shown)
    if sort.removeprefix("-") not in COLUMNS:
        sort = "place"
    column = COLUMNS[sort.removeprefix("-")]
    # Sorted twice: by name first, so equal figures list in name order either way.
    shown.sort(key=sort_key("player"))
    shown.sort(key=sort_key(sort), reverse=column.descending != sort.startswith("-"))
    return Standings(
        season=season,
        lines=shown,
        sort=sort,
        min_games=min_games,
        hidden=len(lines) - len(shown),
    )


def _key(line: Standing) -> tuple[float, float, int]:
    return standing_key(wins=line.wins, games=line.games, total=line.total)


def _place(ranked: list[Standing]) -> None:
    for index, line in enumerate(ranked):
        previous = ranked[index - 1] if index else None
        if previous and _key(line) == _key(previous):
            line.place = previous.place
        else:
            line.place = index + 1


@dataclass
class Rival:
    """How a player fared against one other player at the tables they shared."""

    player: Player
    games: int
    ahead: int
    behind: int

    @property
    def level(self) -> int:
        return self.games - self.ahead - self.behind


@dataclass
class PlayerRecord:
    """Everything the player page shows."""

    player: Player
    season: Season | None
    games: int
    wins: int
    shared_wins: int
    places: dict[int, int]
    total: int
    best: int | None
    rounds: int
    rounds_won: int
    may_i_used: int
    shanghai_claims: int
    rating: float | None
    sigma: float | None
    trend: float | None
    rivals: list[Rival]
    contracts: list[dict]
    last_games: list[Result]
    series: list[dict] = field(default_factory=list)

    @property
    def costliest_contract(self) -> int | None:
        if not self.contracts:
            return None
        return max(self.contracts, key=lambda contract: contract["points"])["number"]

    @property
    def average_total(self) -> float:
        return self.total / self.games if self.games else 0

    @property
    def may_i_per_game(self) -> float:
        return self.may_i_used / self.games if self.games else 0

    @property
    def shanghai_per_game(self) -> float:
        return self.shanghai_claims / self.games if self.games else 0


# What the player page's chart plots per table, in game order.
SERIES = ("total", "place", *LATEST)
# The chart's tables: the player's latest this many (more points than this do not read on a
# phone, and reading them all would make the page grow with the player's history).
CHART_TABLES = 100


def player_record(*, player: Player, season: Season | None, last: int = 10) -> PlayerRecord:
    """The player's record, for a season or all time, in five queries, none of which reads
    more of the player's tables than the chart shows: the figures summed from an index, head to
    head and points left from the sums kept with the results (services/tallies.py), the
    chart's latest CHART_TABLES tables, and the newest `last` with their tables."""
    results = _scoped(Result.objects.filter(player=player), season)
    row = results.aggregate(
        **{f"sum_{name}": aggregate for name, aggregate in _AGGREGATES.items()},
        **{f"place_{place}": Count("pk", filter=Q(place=place)) for place in range(1, 6)},
    )
    figures = {name: row[f"sum_{name}"] or 0 for name in _AGGREGATES}
    figures["best"] = row["sum_best"]
    places = {place: row[f"place_{place}"] for place in range(1, 6)}
    newest = results.order_by("-finished_at", "-game_id")
    series = list(newest.values("game_id", "finished_at", *SERIES)[:CHART_TABLES])[::-1]
    latest = series[-1] if series else {}
    return PlayerRecord(
        player=player,
        season=season,
        **figures,
        places={place: count for place, count in places.items() if count},
        **{name: latest.get(name) for name in LATEST},
        rivals=_rivals(player, season),
        contracts=_contracts(player, season),
        last_games=list(newest.select_related("game", "season")[:last]),
        series=series,
    )


def _rivals(player: Player, season: Season | None) -> list[Rival]:
    """Head to head against every other player, from the sums kept per season."""
    rows = (
        _scoped(Rivalry.objects.filter(player=player), season)
        .order_by()
        .values("other", "other__name")
        .annotate(games=Sum("games"), ahead=Sum("ahead"), behind=Sum("behind"))
    )
    found = [
        Rival(
            player=Player(pk=row["other"], name=row["other__name"]),
            games=row["games"],
            ahead=row["ahead"],
            behind=row["behind"],
        )
        for row in rows
    ]
    return sorted(found, key=lambda rival: (-rival.games, rival.player.name))


def _contracts(player: Player, season: Season | None) -> list[dict]:
    """Average points left in hand per contract, from the sums kept per season."""
    rows = (
        _scoped(PointsLeft.objects.filter(player=player), season)
        .order_by("contract")
        .values("contract")
        .annotate(rounds=Sum("rounds"), points=Sum("points"))
    )
    return [
        {
            "number": row["contract"],
            "points": row["points"] / row["rounds"],
            "rounds": row["rounds"],
        }
        for row in rows
    ]


def club_tables(*, club: Club, page: int | str | None, per_page: int = 20) -> Page:
    """The club's tables, newest first, with players and, once finished, winners and totals:
    five queries a page (count, tables, seats, results, rounds), however many tables there are."""
    # Rounds are fetched for the tables shown only, not counted over every table of the club.
    games = with_players_and_results(club.games.all()).order_by("-started_at", "-pk")
    return Paginator(games, per_page).get_page(page)


def with_players_and_results(games: QuerySet) -> QuerySet:
    """The tables with their season, seats and players, results (winners first) and finished
    rounds (`rounds_finished`, ids only), in four queries more however many there are."""
    return games.select_related("season").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch(
            "results",
            queryset=Result.objects.select_related("player").order_by("place", "player__name"),
        ),
        Prefetch(
            "rounds",
            queryset=Round.objects.filter(finished_at__isnull=False).only("pk", "game_id"),
            to_attr="rounds_finished",
        ),
    )


def standings_recounting(club: Club) -> bool:
    """Whether a worker has yet to recount the club's standings (its ratings are out of date)."""
    return Recount.objects.filter(club_id=club.pk).exists()
