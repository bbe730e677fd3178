"""Charts: numbers to coordinates (pure), and the table's running totals from its board."""

from datetime import UTC, datetime, timedelta

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string

from scorekeeper import selectors
from scorekeeper.selectors import charts
from tests.factories import make_game, play_round


@pytest.mark.parametrize(
    ("low", "high", "whole", "expected"),
    [
        (0, 0, True, [-1, 0, 1]),
        (0, 0, False, [-1, -0.5, 0, 0.5, 1]),
        (0, 3, True, [0, 1, 2, 3]),
        (0, 95, True, [0, 25, 50, 75, 100]),
        (0, 130, True, [0, 50, 100, 150]),
        (-20, 45, True, [-20, 0, 20, 40, 60]),
        (21.3, 27.9, False, [20, 22, 24, 26, 28]),
    ],
)
def test_ticks_are_round_numbers_around_the_values(low, high, whole, expected):
    assert charts._ticks(low, high, whole=whole) == expected


def test_a_line_chart_puts_the_lowest_tick_at_the_bottom_and_skips_missing_values():
    chart = charts.line_chart(
        title="Totals",
        description="d",
        labels=["Start", "C1", "C2"],
        series=[("Ann", [0, 50, 100]), ("Ben", [0, None, 25])],
    )
    ann, ben = chart.lines
    bottom, top = chart.y_ticks[0].position, chart.y_ticks[-1].position
    assert [dot[1] for dot in ann.dots] == [bottom, (bottom + top) / 2, top]
    assert [dot[0] for dot in ann.dots] == [chart.plot_left, 190.0, chart.plot_right]
    assert len(ben.dots) == 2 and ben.points.count(",") == 2
    assert (ann.style, ben.style) == (0, 1)


def test_bars_are_longest_first_and_in_proportion():
    chart = charts.bar_chart(
        title="Wins", description="d", value_name="wins", bars=[("Ann", 2), ("Ben", 4), ("Cy", 0)]
    )
    assert [bar.label for bar in chart.bars] == ["Ben", "Ann", "Cy"]
    assert chart.bars[1].length * 2 == chart.bars[0].length
    assert chart.bars[2].length == 0
    assert chart.height == 3 * (chart.bar_height + 8)
    html = render_to_string("chart.html", {"chart": chart, "chart_id": "w"})
    assert html.count("<rect") == 3 and '<desc id="w-desc">d</desc>' in html
    assert '<th scope="col">wins</th>' in html
    assert '<th scope="row">Ben</th><td>4</td>' in html


@pytest.mark.django_db
def test_running_totals_add_up_each_players_points():
    game = make_game(players=3)
    assert charts.running_totals_chart(selectors.game_board(game)) is None
    play_round(game, went_out=0, points=[15, 40])
    play_round(game, went_out=2, points=[5, 10])

    chart = charts.running_totals_chart(selectors.game_board(game))

    assert chart.labels == ["Start", "C1", "C2"]
    assert [line.values for line in chart.lines] == [[0, 0, 5], [0, 15, 25], [0, 40, 40]]
    html = render_to_string("chart.html", {"chart": chart, "chart_id": "t"})
    assert '<title id="t-title">Running totals</title>' in html
    assert "2 contracts played" in html
    assert html.count("<circle") == 9
    assert "<td>25</td><td>40</td>" not in html and "<td>40</td><td>40</td>" in html


def _series(*rows):
    day = datetime(2026, 11, 1, 20, tzinfo=UTC)
    return [
        {"finished_at": day + timedelta(days=7 * n), "total": total, "rating": rating}
        for n, (total, rating) in enumerate(rows)
    ]


def test_a_day_with_several_tables_is_labelled_once():
    chart = charts.line_chart(
        title="t", description="d", labels=["1 Nov", "1 Nov", "8 Nov"], series=[("A", [1, 2, 3])]
    )
    assert [tick.label for tick in chart.x_ticks] == ["1 Nov", "8 Nov"]
    html = render_to_string("chart.html", {"chart": chart, "chart_id": "c"})
    assert 'class="legend"' not in html  # one line needs no legend
    assert html.count('<th scope="col">1 Nov</th>') == 2  # the table keeps every column


def test_a_players_totals_and_rating_are_two_charts():
    totals, rating = charts.player_charts("Ann", _series((120, 1.5), (45, 4.25), (80, 5.0)))
    assert totals.labels == ["1 Nov", "8 Nov", "15 Nov"]
    assert totals.lines[0].values == [120, 45, 80]
    assert "Best 45, last 80" in totals.description
    assert rating.lines[0].values == [1.5, 4.2, 5.0]
    assert "Now 5." in rating.description
    assert charts.player_charts("Ann", []) == []


def test_a_players_charts_say_when_they_show_only_the_latest_tables():
    totals, rating = charts.player_charts("Ann", _series((120, 1.5), (45, 4.25)), games=1500)
    assert "final total at each of the last 2 of 1,500 finished tables" in totals.description
    assert "rating after each of the last 2 of 1,500 finished tables" in rating.description
    totals, _ = charts.player_charts("Ann", _series((120, 1.5), (45, 4.25)), games=2)
    assert "final total at each of 2 finished tables" in totals.description


def test_the_wins_chart_needs_a_win():
    assert charts.wins_chart([("Ann", 0), ("Ben", 0)]) is None
    chart = charts.wins_chart([("Ann", 1), ("Ben", 3)])
    assert [bar.label for bar in chart.bars] == ["Ben", "Ann"]
    assert "Ben has won most, 3" in chart.description


def test_the_chart_tags_give_each_chart_its_own_ids():
    page = Template("{% load charts %}{% player_charts name series %}{% wins_chart wins %}").render(
        Context({"name": "Ann", "series": _series((10, 1.0), (20, 2.0)), "wins": [("Ann", 2)]})
    )
    for chart_id in ["player-0", "player-1", "wins-0"]:
        assert f'<title id="{chart_id}-title">' in page
    assert page.count("<svg") == 3
