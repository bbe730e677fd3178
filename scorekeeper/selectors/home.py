"""What the home page shows of a member's own players ("This is me", one a club): their last
tables, and their place and rating in each season they played. Six queries however many clubs,
seasons and tables; one when they are nobody's player yet."""

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, OuterRef, Prefetch, Q, Subquery, Sum

from scorekeeper.models import Game, Player, Result, Season, Seat

from .standings import standing_key


@dataclass
class SeasonPlace:
    """Where the member's player stands in one season: as the season's standings place them."""

    season: Season
    player: Player
    place: int
    placed: int  # players in the season's standings
    rating: float


@dataclass
class Own:
    players: list[Player]  # one a club, with its club
    tables: list[Game] = field(default_factory=list)  # newest first, each with `own_result`
    seasons: list[SeasonPlace] = field(default_factory=list)  # newest first


def own_for(user, *, last: int = 10) -> Own:
    """The member's players, the `last` tables any of them sat at, and each season's place."""
    players = list(Player.objects.filter(account=user).select_related("club").order_by("club"))
    if not players:
        return Own(players=[])
    by_id = {player.pk: player for player in players}
    tables = list(
        Game.objects.filter(seats__player__in=players)
        .select_related("club", "season")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
            Prefetch("results", queryset=Result.objects.filter(player__in=players)),
        )
        .order_by("-started_at", "-pk")[:last]
    )
    for game in tables:
        game.own_result = next(iter(game.results.all()), None)  # once finished
    return Own(players=players, tables=tables, seasons=_season_places(players, by_id))


def _season_places(players: list[Player], by_id: dict[int, Player]) -> list[SeasonPlace]:
    """Each season a player of the member's finished a table in, with the player's place in
    its standings (every player with a finished table placed, as standings_for does) and their
    latest rating there."""
    # A season is one club's, and a member has one player a club: one player a season.
    own = Result.objects.filter(season=OuterRef("pk"), player__in=players)
    latest = own.order_by("-finished_at", "-game_id")
    seasons = list(
        Season.objects.filter(results__player__in=players)
        .distinct()
        .select_related("club")
        .annotate(
            own_player=Subquery(latest.values("player")[:1]),
            own_rating=Subquery(latest.values("rating")[:1]),
        )
        .order_by("-starts_on", "-pk")
    )
    figures = defaultdict(dict)  # by season id, then player id: the standings' sort key
    rows = (
        Result.objects.filter(season__in=seasons)
        .order_by()
        .values("season", "player")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(place=1)), total=Sum("total"))
    )
    for row in rows:
        key = standing_key(wins=row["wins"], games=row["games"], total=row["total"])
        figures[row["season"]][row["player"]] = key
    places = []
    for season in seasons:
        keys = figures[season.pk]
        mine = keys[season.own_player]
        places.append(
            SeasonPlace(
                season=season,
                player=by_id[season.own_player],
                # Players ahead, plus one: equal keys share the place, as in the standings.
                place=1 + sum(1 for key in keys.values() if key < mine),
                placed=len(keys),
                rating=season.own_rating,
            )
        )
    return places
