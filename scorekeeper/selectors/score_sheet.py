"""A club's or a season's scores as CSV: one row per player per finished round."""

import csv
import io

from django.db.models import Count, Prefetch
from django.utils import timezone

from scorekeeper.models import Club, Event, Game, Round, Season, Seat

from .boards import round_points

COLUMNS = ["date", "season", "table", "contract", "player", "cards", "points", "went out"]
# A cell a spreadsheet would run as a formula (a player called "=HYPERLINK(...)") is kept as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _text(value: str) -> str:
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def score_rows(club: Club, season: Season | None = None) -> list[list]:
    """One row per player per finished round, tables oldest first, in five queries. Points are
    the round's score as the scoreboard counts it (bonuses included)."""
    games = club.games.select_related("season").order_by("started_at", "pk")
    if season is not None:
        games = games.filter(season=season)
    games = games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch(
            "rounds",
            queryset=Round.objects.filter(finished_at__isnull=False).prefetch_related("hands"),
        ),
    )
    claims = {}
    for round_id, seat_id, count in (
        Event.objects.filter(game__in=games, kind=Event.Kind.SHANGHAI_CLAIM, undone_by__isnull=True)
        .values_list("round", "seat")
        .annotate(count=Count("pk"))
    ):
        claims.setdefault(round_id, {})[seat_id] = count
    rows = []
    for game in games:
        rows += _game_rows(game, claims)
    return rows


def _game_rows(game: Game, claims: dict) -> list[list]:
    seats = {seat.pk: seat for seat in game.seats.all()}
    house_rules = game.house_rules
    rows = []
    for round_ in game.rounds.all():
        hands = {hand.seat_id: hand for hand in round_.hands.all()}
        scores = round_points(round_, hands, house_rules, claims.get(round_.pk))
        for seat_id, seat in seats.items():
            hand = hands.get(seat_id)
            rows.append(
                [
                    timezone.localtime(round_.finished_at).date().isoformat(),
                    _text(game.season.name),
                    str(game),
                    round_.number,
                    _text(seat.player.name),
                    _text(hand.cards) if hand else "",
                    scores.get(seat_id, ""),
                    "yes" if round_.went_out_id == seat_id else "no",
                ]
            )
    return rows


def score_sheet_csv(club: Club, season: Season | None = None) -> str:
    """The rows as CSV text with a header; callers encode it as UTF-8 with a BOM (utf-8-sig) so
    spreadsheets read the accents."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    writer.writerows(score_rows(club, season))
    return out.getvalue()
