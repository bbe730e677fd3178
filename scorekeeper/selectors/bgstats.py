"""A finished table as a play for the BG Stats app, which players use to keep every game they
play. The app takes a play as URL-encoded JSON on a link it opens itself, then shows its own
import dialog (players matched once, by name or by our ids), so nothing is saved without the
player seeing it first. The format is BG Stats' own, documented at
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/ (the link
`createPlay.html?data=<JSON>`); tests/scorekeeper/test_bgstats.py holds its field list."""

import json
from datetime import UTC
from urllib.parse import quote

import rules
from scorekeeper.models import Game

from .boards import Board

SOURCE_NAME = "Shanghai Scorekeeper"
# The app's own scheme, which opens BG Stats on iOS and Android alike; the documented
# https://app.bgstatsapp.com/... form only does where the phone lets the app open web links.
IMPORT_URL = "bgstats://app.bgstatsapp.com/createPlay.html?data="
# Stable, so BG Stats matches the game once and remembers it: lowest total wins, with points.
GAME = {
    "name": "Shanghai Rummy",
    "sourceGameId": "shanghai-rummy",
    "highestWins": False,
    "noPoints": False,
}


def bgstats_play(game: Game, board: Board) -> dict:
    """The finished table as a BG Stats play, from its board (no query of its own: the table
    page has read the board and the club already). Ranks are the table's places, shared on a
    tie like the win; the start player is who played first in contract 1, left of the first
    dealer. The play's date is when the table started, in UTC, as BG Stats reads it."""
    if game.finished_at is None:
        raise ValueError("Only a finished table is a play for BG Stats.")
    players = len(board.lines)
    starts = rules.first_player_seat(rules.dealer_seat(game.first_dealer, 1, players), players)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(game.pk),
        "playDate": game.started_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": round((game.finished_at - game.started_at).total_seconds() / 60),
        "location": game.club.name,
        "game": dict(GAME),
        "players": [
            {
                "name": line.seat.player.name,
                "sourcePlayerId": str(line.seat.player_id),
                "score": line.total,
                "rank": line.place,
                "winner": line.place == 1,
                "startPlayer": line.seat.position == starts,
            }
            for line in board.lines
        ],
    }


def bgstats_url(game: Game, board: Board) -> str:
    """The link that hands the finished table to BG Stats."""
    play = json.dumps(bgstats_play(game, board), ensure_ascii=False, separators=(",", ":"))
    return IMPORT_URL + quote(play, safe="")
