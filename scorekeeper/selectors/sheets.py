"""The final sheet to send to the family chat: a finished table's (the scoreboard, who went out
most, the running totals) or a club night's (its tables and how the standings moved), as one
`Sheet` that the page shows as text and sheet_image.py draws as a picture. Both are built from the
board or the night the page itself reads, so the picture and the text say what the page says."""

from collections import Counter
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.models import Game

from .boards import Board
from .charts import LineChart, running_totals_chart
from .tonight import Tonight


@dataclass(frozen=True)
class Section:
    """A table of the sheet: its heading, its column heads, and its rows of cells as shown."""

    heading: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Sheet:
    title: str
    lines: tuple[str, ...]  # the sentences under the title: who won, who went out most
    places: tuple[str, ...]  # "1. Ann 60", in place order: the text's short list
    sections: tuple[Section, ...]
    chart: LineChart | None
    filename: str  # of the picture, without its extension


def went_out_most(counts: Counter) -> str:
    """Who went out of the most contracts, players level named together; "" when nobody did."""
    most = max(counts.values(), default=0)
    if not most:
        return ""
    names = sorted(name for name, count in counts.items() if count == most)
    names = f" {_('and')} ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
    return ngettext(
        "Went out most: %(names)s, %(most)s contract.",
        "Went out most: %(names)s, %(most)s contracts.",
        most,
    ) % {"names": names, "most": most}


def _local(moment, club):
    """A moment on the club's clock, as its pages show it."""
    return timezone.localtime(moment, ZoneInfo(club.time_zone))


def _standing(game: Game, board: Board) -> str:
    """Who won (or, while the table plays, who leads) and with how many points."""
    if not board.leaders:
        return _("No contract scored yet.")
    words = {
        "leaders": f" {_('and')} ".join(str(line.seat.player) for line in board.leaders),
        "points": board.leaders[0].total,
        "played": board.rounds_played,
        "contracts": board.contract_count,
    }
    shared = len(board.leaders) > 1
    if game.finished_at is None and shared:
        said = ngettext(
            "%(leaders)s lead with %(points)s point after %(played)s of %(contracts)s contracts.",
            "%(leaders)s lead with %(points)s points after %(played)s of %(contracts)s contracts.",
            words["points"],
        )
    elif game.finished_at is None:
        said = ngettext(
            "%(leaders)s leads with %(points)s point after %(played)s of %(contracts)s contracts.",
            "%(leaders)s leads with %(points)s points after %(played)s of %(contracts)s contracts.",
            words["points"],
        )
    elif shared:
        said = ngettext(
            "%(leaders)s share the win with %(points)s point.",
            "%(leaders)s share the win with %(points)s points.",
            words["points"],
        )
    else:
        said = ngettext(
            "%(leaders)s wins with %(points)s point.",
            "%(leaders)s wins with %(points)s points.",
            words["points"],
        )
    return said % words


def table_sheet(game: Game, board: Board) -> Sheet:
    """A table's sheet, from the board its page shows (no query of its own): the final sheet
    once it is over, the scores so far while it plays."""
    lines = sorted(board.lines, key=lambda line: (line.place, str(line.seat.player).casefold()))
    contracts = [
        _("C%(number)s") % {"number": round_.number}
        for round_ in board.rounds
        if round_.finished_at
    ]
    scores = Section(
        heading=_("Final scores") if game.finished_at else _("Scores so far"),
        columns=(_("Place"), _("Player"), *contracts, _("Total")),
        rows=tuple(
            (
                str(line.place),
                str(line.seat.player),
                *("" if cell is None else str(cell) for cell in line.points),
                str(line.total),
            )
            for line in lines
        ),
    )
    calls = Section(
        heading=_("Contracts"),
        columns=(
            _("Player"),
            _("Went out"),
            _("Shanghai claims"),
            _("Shanghai protects"),
            _("May I?s used"),
        ),
        rows=tuple(
            (
                str(line.seat.player),
                str(line.rounds_won),
                str(line.shanghai_claims),
                str(line.shanghai_protects),
                str(line.may_i_used),
            )
            for line in lines
        ),
    )
    out = went_out_most(Counter({str(line.seat.player): line.rounds_won for line in lines}))
    day = date_format(_local(game.finished_at or game.started_at, game.club), "D j M Y")
    return Sheet(
        title=f"{game.club} · {day}",
        lines=tuple(sentence for sentence in (_standing(game, board), out) if sentence),
        places=tuple(f"{line.place}. {line.seat.player} {line.total}" for line in lines),
        sections=(scores, calls),
        chart=running_totals_chart(board),
        filename=f"shanghai-{slugify(game.club.name) or 'club'}-table-{game.pk}",
    )


def night_sheet(night: Tonight) -> Sheet:
    """A club night's sheet, from the night its page shows: each finished table's places and
    totals, who went out most tonight, and how the standings moved (no query of its own)."""
    finished = [table for table in night.tables if table.finished]
    tables = Section(
        heading=_("Tables"),
        columns=(_("Started"), _("Places and totals")),
        rows=tuple(
            (
                f"{_local(table.game.started_at, night.club):%H:%M}",
                " · ".join(
                    f"{result.place}. {result.player} {result.total}" for result in table.results
                ),
            )
            for table in finished
        ),
    )
    moves = Section(
        heading=(
            _("How the all-time standings moved")
            if night.all_time
            else _("How the standings of %(season)s moved") % {"season": night.season}
        ),
        columns=(_("Place"), _("Player"), _("Moved"), _("Rating")),
        rows=tuple(
            (str(move.place), str(move.player), _moved(move), f"{move.rating:.1f}")
            for move in night.moves
        ),
    )
    out = Counter()
    for table in finished:
        for result in table.results:
            out[str(result.player)] += result.rounds_won
    count = len(night.tables)
    return Sheet(
        title=_("%(club)s tonight · %(day)s")
        % {"club": night.club, "day": date_format(night.day, "D j M Y")},
        lines=tuple(
            sentence
            for sentence in (
                ngettext(
                    "%(count)s table, %(finished)s finished.",
                    "%(count)s tables, %(finished)s finished.",
                    count,
                )
                % {"count": count, "finished": len(finished)},
                went_out_most(out),
            )
            if sentence
        ),
        places=tuple(
            f"{_local(table.game.started_at, night.club):%H:%M}: "
            + ", ".join(
                f"{result.place}. {result.player} {result.total}" for result in table.results
            )
            for table in finished
        ),
        sections=(tables, moves) if night.moves else (tables,),
        chart=None,
        filename=f"shanghai-{slugify(night.club.name) or 'club'}-{night.day.isoformat()}",
    )


def _moved(move) -> str:
    if move.places_up is None:
        return _("new")
    if move.places_up > 0:
        return _("up %(places)s") % {"places": move.places_up}
    if move.places_up < 0:
        return _("down %(places)s") % {"places": move.places_down}
    return _("same")


def sheet_text(sheet: Sheet) -> str:
    """The sheet as a short message: title, who won, places and totals, who went out most."""
    return "\n".join([sheet.title, sheet.lines[0], *sheet.places, *sheet.lines[1:]])
