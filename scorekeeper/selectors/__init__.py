"""Every read that spans rows, in a fixed number of queries: the services write, these read.

One module a subject: tables (a table's state as a tap and a poll read it), boards (what a
table's page, TV and game over show), table_history (its history, photos and checks, and what
other screens changed), tv_links, sessions (a browser's idle time, the account's other browsers),
standings (a club's and a season's standings, a player's record), tonight (a club night's tables
and how the standings moved), bgstats (a finished table as a BG Stats play), previews (what a
deletion would remove), score_sheet (the scores as CSV), charts (the numbers of a chart turned
into SVG coordinates), sheets and sheet_image (the final sheet to send, as text and as a picture)
and home (a member's own players' tables and seasons). The table reads are the ones most pages
need, so they are named here too: `selectors.game_board(game)`, and for a tap,
`selectors.table_read(game)` (what the tap checks and changes, in one query) and
`selectors.table_board(...)` (its answer's board, from what the tap changed)."""

from .boards import Board, SeatLine, game_board, last_action, round_points, table_board, table_melds
from .sessions import account_language, other_browsers
from .standings import standings_recounting
from .table_history import (
    changes_since,
    game_checks,
    game_history,
    game_photos,
    round_checks,
    scores_taken_back,
)
from .tables import ShanghaiClaims, Table, table_read, table_version_for_member, tv_link_version
from .tv_links import game_for_tv, tv_link_for
from .two_factor import recovery_codes_left, two_factor_device

__all__ = [
    "Board",
    "SeatLine",
    "ShanghaiClaims",
    "Table",
    "account_language",
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
