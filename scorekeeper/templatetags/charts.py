"""Charts placed on a page from the numbers its view already has: {% load charts %}."""

from django import template

from scorekeeper.selectors import charts

register = template.Library()


def _with_ids(prefix: str, found: list) -> list[tuple]:
    # Each chart's <title> and <desc> need ids unique on the page.
    return [(chart, f"{prefix}-{number}") for number, chart in enumerate(found)]


@register.inclusion_tag("charts.html")
def player_charts(name: str, series: list[dict], games: int | None = None):
    """A player's final totals and rating across their finished tables (the latest of `games`)."""
    return {"charts": _with_ids("player", charts.player_charts(name, series, games))}


@register.inclusion_tag("charts.html")
def wins_chart(wins: list[tuple[str, int]]):
    """Wins per player, from the standings."""
    chart = charts.wins_chart(wins)
    return {"charts": _with_ids("wins", [chart] if chart else [])}
