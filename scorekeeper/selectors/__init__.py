"""Every read that spans rows, in a fixed number of queries: the services write, these read.

One module a subject: tables (a table's board, history, photos, checks and who follows it),
standings (a club's and a season's standings, a player's record), tonight (a club night's tables
and how the standings moved), bgstats (a finished table as a BG Stats play), previews (what a
deletion would remove), score_sheet (the scores as CSV), charts (the numbers of a chart turned
into SVG coordinates), sheets and sheet_image (the final sheet to send, as text and as a picture)
and home (a member's own players' tables and seasons). The table reads are the ones most pages
need, so they are named here too: `selectors.game_board(game)`, and for a tap,
`selectors.table_read(game)` (what the tap checks and changes, in one query) and
`selectors.table_board(...)` (its answer's board, from what the tap changed)."""

from .tables import (
    Board,
    SeatLine,
    ShanghaiClaims,
    Table,
    changes_since,
    game_board,
    game_checks,
    game_for_tv,
    game_history,
    game_photos,
    last_action,
    other_browsers,
    round_checks,
    round_points,
    scores_taken_back,
    standings_recounting,
    table_board,
    table_melds,
    table_read,
    table_version_for_member,
    tv_link_for,
    tv_link_version,
)
from .two_factor import recovery_codes_left, two_factor_device

__all__ = [
    "Board",
    "SeatLine",
    "ShanghaiClaims",
    "Table",
    "changes_since",
    "game_board",
    "game_checks",
    "game_for_tv",
    "game_history",
    "game_photos",
    "last_action",
    "other_browsers",
    "round_checks",
    "round_points",
    "scores_taken_back",
    "standings_recounting",
    "table_board",
    "table_melds",
    "table_read",
    "table_version_for_member",
    "tv_link_version",
    "tv_link_for",
    "recovery_codes_left",
    "two_factor_device",
]
