"""Charts drawn on the server as SVG: these functions turn numbers into coordinates, and
templates/chart.html draws them, with a title, a description and the
numbers as a table for screen readers. Colours come from CSS classes (series-0, series-1, ...)
so the light and dark schemes each pick their own; the viewBox scales to any width."""

import math
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

WIDTH = 360
LEFT, RIGHT, TOP, BOTTOM = 44, 24, 12, 28
SERIES_STYLES = 6  # series-0 .. series-5 in app.css; more series reuse them


@dataclass
class Tick:
    position: float
    label: str


@dataclass
class Line:
    name: str
    style: int
    values: list[float | None]
    points: str = ""  # the polyline's "x,y x,y ..."
    dots: list[tuple[float, float, str]] = field(default_factory=list)


@dataclass(kw_only=True)
class Chart:
    """What templates/chart.html draws of any chart: its title and description, its size, and the
    numbers as a table for screen readers (column heads, then (row head, values) rows)."""

    title: str
    description: str
    height: int
    table: tuple[list[str], list[tuple[str, list]]]
    width: int = WIDTH


@dataclass(kw_only=True)
class LineChart(Chart):
    labels: list[str]
    lines: list[Line]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    x_label_y: int
    plot_left: int = LEFT
    plot_right: int = WIDTH - RIGHT
    y_label_x: int = LEFT - 6

    kind = "line"


@dataclass
class Bar:
    label: str
    value: float
    text: str
    y: float
    length: float
    style: int
    middle: float = 0
    value_x: float = 0


@dataclass(kw_only=True)
class BarChart(Chart):
    bars: list[Bar]
    bar_height: int
    label_width: int
    label_x: int

    kind = "bars"


def _number(value: float) -> str:
    return f"{value:,.1f}".rstrip("0").rstrip(".") if value % 1 else f"{int(value):,}"


def _ticks(low: float, high: float, count: int = 5, *, whole: bool = False) -> list[float]:
    """Round values from at most `low` to at least `high`, about `count` of them; `whole`
    keeps them whole numbers (points are never fractions)."""
    if high <= low:
        low, high = low - 1, high + 1
    rough = (high - low) / (count - 1)
    magnitude = 10 ** math.floor(math.log10(rough))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= rough)
    if whole:
        step = max(1, round(step))
    start = math.floor(low / step) * step
    end = math.ceil(high / step) * step
    return [start + step * n for n in range(round((end - start) / step) + 1)]


def line_chart(
    *, title: str, description: str, labels: list[str], series: list[tuple[str, list]]
) -> LineChart:
    """Lines of values over the same `labels` (rounds, tables): one per (name, values) pair; a
    None value leaves a point out."""
    height = 220
    known = [value for _, values in series for value in values if value is not None]
    whole = all(isinstance(value, int) for value in known)
    ticks = _ticks(min([0, *known]), max([0, *known]), whole=whole)
    low, high = ticks[0], ticks[-1]
    bottom = height - BOTTOM
    plot_width = WIDTH - LEFT - RIGHT

    def x(index: int) -> float:
        if len(labels) == 1:
            return LEFT + plot_width / 2
        return round(LEFT + index * plot_width / (len(labels) - 1), 1)

    def y(value: float) -> float:
        return round(bottom - (value - low) / (high - low) * (bottom - TOP), 1)

    lines = []
    for number, (name, values) in enumerate(series):
        line = Line(name=name, style=number % SERIES_STYLES, values=values)
        placed = [(x(i), y(v), _number(v)) for i, v in enumerate(values) if v is not None]
        line.points = " ".join(f"{px},{py}" for px, py, _ in placed)
        line.dots = placed
        lines.append(line)
    # Label at most about eight x positions so they never overlap on a phone, and a label only
    # where it changes (several tables on one day show the day once).
    every = max(1, math.ceil(len(labels) / 8))
    shown = [
        i for i, label in enumerate(labels) if i % every == 0 and (i == 0 or label != labels[i - 1])
    ]
    return LineChart(
        title=title,
        description=description,
        height=height,
        table=(labels, [(line.name, line.values) for line in lines]),
        labels=labels,
        lines=lines,
        x_ticks=[Tick(x(i), labels[i]) for i in shown],
        y_ticks=[Tick(y(value), _number(value)) for value in ticks],
        x_label_y=height - 8,
    )


def bar_chart(
    *, title: str, description: str, value_name: str, bars: list[tuple[str, float]]
) -> BarChart:
    """Horizontal bars, one per (label, value), largest first: long names fit on a phone."""
    bar_height, gap = 22, 8
    label_width = 110
    longest = max([value for _, value in bars] + [1])
    room = WIDTH - label_width - 48
    ordered = sorted(bars, key=lambda bar: -bar[1])
    return BarChart(
        title=title,
        description=description,
        height=max(len(ordered), 1) * (bar_height + gap),
        table=([value_name], [(label, [value]) for label, value in ordered]),
        bars=[
            Bar(
                label=label,
                value=value,
                text=_number(value),
                y=number * (bar_height + gap),
                length=round(max(value, 0) / longest * room, 1),
                style=number % SERIES_STYLES,
                middle=number * (bar_height + gap) + bar_height / 2,
                value_x=round(label_width + max(value, 0) / longest * room + 6, 1),
            )
            for number, (label, value) in enumerate(ordered)
        ],
        bar_height=bar_height,
        label_width=label_width,
        label_x=label_width - 6,
    )


def running_totals_chart(board) -> LineChart | None:
    """A table's running totals after each contract played (None before the first is scored)."""
    if not board.rounds_played:
        return None
    labels = [
        _("Start"),
        *[
            _("C%(number)s") % {"number": round_.number}
            for round_ in board.rounds
            if round_.finished_at
        ],
    ]
    series = []
    for line in board.lines:
        total, totals = 0, [0]
        for points in line.points:
            total += points or 0
            totals.append(total)
        series.append((str(line.seat.player), totals))
    leading = [str(line.seat.player) for line in board.lines if line.place == 1]
    leaders = f" {_('and')} ".join(leading)
    played = ngettext(
        "Each player's total after the %(played)s contract played; lowest is best.",
        "Each player's total after each of the %(played)s contracts played; lowest is best.",
        board.rounds_played,
    ) % {"played": board.rounds_played}
    lead = ngettext("%(leaders)s leads.", "%(leaders)s lead.", len(leading)) % {"leaders": leaders}
    return line_chart(
        title=_("Running totals"),
        description=f"{played} {lead}",
        labels=labels,
        series=series,
    )


def player_charts(name: str, series: list[dict], games: int | None = None) -> list[LineChart]:
    """A player's final total and rating after each finished table, oldest first: two charts,
    as the two figures have different scales. `series` rows hold finished_at, total, rating;
    when the player finished more tables (`games`), they are the latest, and the charts say so."""
    if not series:
        return []
    days = [timezone.localtime(row["finished_at"]) for row in series]
    labels = [date_format(day, "j M") for day in days]
    tables = ngettext("%(count)s finished table", "%(count)s finished tables", len(series)) % {
        "count": len(series)
    }
    if games is not None and games > len(series):
        tables = _("the last %(count)s of %(games)s finished tables") % {
            "count": len(series),
            "games": f"{games:,}",
        }
    totals = [row["total"] for row in series]
    ratings = [round(row["rating"], 1) for row in series]

    def chart(title: str, column: str, values: list, description: str) -> LineChart:
        return line_chart(
            title=title, description=description, labels=labels, series=[(column, values)]
        )

    words = {"name": name, "tables": tables, "best": min(totals), "last": totals[-1]}
    words["now"] = _number(ratings[-1])
    return [
        chart(
            _("Final totals"),
            _("Final total"),
            totals,
            _(
                "%(name)s's final total at each of %(tables)s, oldest first; lowest is best. "
                "Best %(best)s, last %(last)s."
            )
            % words,
        ),
        chart(
            _("Rating"),
            _("Rating"),
            ratings,
            _(
                "%(name)s's rating after each of %(tables)s, oldest first; higher is better. "
                "Now %(now)s."
            )
            % words,
        ),
    ]


def wins_chart(wins: list[tuple[str, int]]) -> BarChart | None:
    """Wins per player, most first (None when nobody has won yet)."""
    if not any(count for _, count in wins):
        return None
    leader, most = max(wins, key=lambda pair: pair[1])
    return bar_chart(
        title=_("Wins per player"),
        description=_("Tables won by each player; %(leader)s has won most, %(most)s.")
        % {"leader": leader, "most": most},
        value_name=_("Wins"),
        bars=wins,
    )
