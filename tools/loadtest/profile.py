"""Where the time goes in one action of the load test: cProfile over N repetitions through the
whole Django stack (the test client, production settings), and the SQL of one of them.

    DATABASE_URL=postgres://scorekeeper:scorekeeper@127.0.0.1:5432/sk_load_profile \\
        .venv/bin/python -m tools.loadtest.profile score --times 40

Without DATABASE_URL it uses SQLite in a temporary folder. The database is migrated and a fresh
club made each time; prints the top functions by cumulative time and the queries."""

import argparse
import cProfile
import io
import itertools
import os
import pstats
import re
import secrets
import statistics
import sys
import tempfile
import time

ACTIONS = [
    "score", "went_out", "may_i", "shanghai", "check", "table", "poll", "tv_poll", "standings",
    "season_standings", "player", "trivial", "write", "round_edit_page", "round_edit", "undo",
]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "action",
        choices=ACTIONS,
    )
    parser.add_argument("--times", type=int, default=40)
    parser.add_argument(
        "--played", type=int, default=0, help="contracts scored first (5: the action in the 6th)"
    )
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--callees", help="also the functions this one calls, e.g. game_board")
    parser.add_argument("--callers", help="also the functions that call this one")
    parser.add_argument("--sort", default="cumulative", help="pstats order, e.g. tottime")
    parser.add_argument(
        "--only", default=r"scorekeeper|rules|templat", help="functions whose path matches"
    )
    arguments = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ.setdefault("DJANGO_DATA_DIR", tempfile.mkdtemp(prefix="sk-profile-"))
    os.environ["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(64)
    os.environ["DJANGO_SECURE_SSL_REDIRECT"] = "false"
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.conf import settings

    # The app's pages, and the reference write (`write`) in front of them.
    settings.ROOT_URLCONF = "tools.loadtest.write_view"
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from scorekeeper import polling, services
    from tests import factories

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    client = Client(HTTP_HX_REQUEST="true")

    table_seats = {}  # by table id: read before the action, so its queries are the app's only

    def seats(game):
        if game.pk not in table_seats:
            table_seats[game.pk] = factories.seats(game)
        return table_seats[game.pk]

    def fresh():
        game = factories.make_game()
        for _ in range(arguments.played):
            factories.play_round(game)
        client.force_login(game.created_by)
        seats(game)
        return game

    def went_out(game):
        return client.post(
            f"/tables/{game.pk}/went-out/", {"version": game.version, "seat": seats(game)[0].pk}
        )

    def score(game):
        data = {f"cards_{seat.pk}": "K 7 JK" for seat in seats(game)[1:]}
        return client.post(f"/tables/{game.pk}/score/", {"version": game.version, **data})

    def may_i(game):
        return client.post(
            f"/tables/{game.pk}/may-i/", {"version": game.version, "seat": seats(game)[1].pk}
        )

    gone_down = set()  # tables where someone has gone down: a Shanghai claim needs a meld out

    def someone_down(game):
        if game.pk not in gone_down:
            data = {"version": game.version, "seat": seats(game)[0].pk}
            client.post(f"/tables/{game.pk}/went-down/", data)
            gone_down.add(game.pk)

    def shanghai(game):
        claimant, discarder = seats(game)[1:3]
        data = {"version": game.version, "seat": claimant.pk, "discarder": discarder.pk}
        return client.post(f"/tables/{game.pk}/shanghai/", data)

    def check(game):
        data = {"question": "hint", "cards": "7H 7S 7D 8C 9C 10C JC KH KD 2S JK"}
        return client.post(f"/tables/{game.pk}/check/", data)

    screen = {}  # the round screen's poll address, as its page gave it
    page_client = Client()  # whole pages, as a tablet opens them: no htmx

    def open_screen(game):
        page_client.cookies = client.cookies  # the whole page: the poll is in its frame
        page = page_client.get(f"/tables/{game.pk}/")
        url = re.search(r'id="live" hx-get="([^"]+)"', page.text).group(1)
        screen["url"] = url.replace("&amp;", "&")

    def poll(game):
        """The round screen's poll of an unchanged table: 304 after one query (none from the
        shared cache, with DJANGO_CACHE_URL)."""
        etag = polling.table_etag(screen="table", pk=game.pk, version=game.version)
        return client.get(screen["url"], headers={"If-None-Match": etag})

    tv = Client(HTTP_HX_REQUEST="true")  # no account: a TV has none

    def open_tv(game):
        screen["tv"] = services.tv_link_create(game=game, user=game.created_by).token

    def tv_poll(game):
        """The TV's poll of an unchanged table."""
        etag = polling.table_etag(screen="tv", pk=game.pk, version=game.version)
        return tv.get(f"/tv/{screen['tv']}/", headers={"If-None-Match": etag})

    def round_edit_page(game):
        page_client.cookies = client.cookies
        return page_client.get(f"/tables/{game.pk}/rounds/{arguments.played}/edit/")

    edits = itertools.count()

    def round_edit(game):
        """The last contract played, its hands changed (the load test's own edit), then the
        table it sends the tablet back to."""
        change = 5 * (next(edits) % 2)
        data = {f"points_{seat.pk}": 5 * (seat.position + 1) + change for seat in seats(game)}
        page_client.cookies = client.cookies
        url = f"/tables/{game.pk}/rounds/{arguments.played}/edit/"
        return page_client.post(url, {"version": game.version, **data}, follow=True)

    def undo(game):
        return client.post(f"/tables/{game.pk}/undo/", {"version": game.version})

    # Each action: what puts a table in the state it needs (not profiled), then the action.
    actions = {
        "score": (went_out, score),
        "went_out": (lambda game: None, went_out),
        "may_i": (lambda game: None, may_i),
        "shanghai": (someone_down, shanghai),
        "table": (lambda game: None, lambda game: client.get(f"/tables/{game.pk}/")),
        "check": (lambda game: None, check),
        "poll": (open_screen, poll),
        "tv_poll": (open_tv, tv_poll),
        "standings": (
            lambda game: None,
            lambda game: client.get(f"/clubs/{game.club_id}/standings/"),
        ),
        "season_standings": (
            lambda game: None,
            lambda game: client.get(f"/seasons/{game.season_id}/standings/"),
        ),
        "player": (
            lambda game: None,
            lambda game: client.get(f"/players/{seats(game)[0].player_id}/"),
        ),
        "trivial": (lambda game: None, lambda game: client.get("/healthz")),
        "write": (lambda game: None, lambda game: client.post(f"/tables/{game.pk}/touch/")),
        "round_edit_page": (lambda game: None, round_edit_page),
        "round_edit": (lambda game: None, round_edit),
        "undo": (may_i, undo),
    }
    if arguments.action.startswith("round_edit") and arguments.played < 1:
        parser.error("a round is edited once one is played: --played 1 or more")
    prepare, action = actions[arguments.action]

    def timed(waited: list[float]):
        """A database wrapper appending the seconds each query waits for the database (BEGIN
        and COMMIT are not queries to it: they go uncounted)."""

        def wrapper(execute, sql, params, many, context):
            started = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                waited.append(time.perf_counter() - started)

        return wrapper

    profile = cProfile.Profile()
    game = fresh()
    plain = []  # ms of each repetition without the profiler (every other one)
    waiting = []  # ms of those spent waiting for the database
    for repetition in range(2 * arguments.times):
        game.refresh_from_db()
        over = game.finished_at or game.rounds.filter(finished_at__isnull=True).count() == 0
        # A member asks the checker at most 30 questions a minute: a new table, a new member.
        if over or (arguments.action == "check" and repetition % 25 == 24):
            game = fresh()
        prepare(game)
        game.refresh_from_db()
        capture = CaptureQueriesContext(connection)
        waited = []
        profiled = repetition % 2
        with capture, connection.execute_wrapper(timed(waited)):
            started = time.perf_counter()
            if profiled:
                profile.enable()
            answer = action(game)
            if profiled:
                profile.disable()
            else:
                plain.append(1000 * (time.perf_counter() - started))
        queries = capture.captured_queries
        if not profiled:
            waiting.append(1000 * sum(waited))
        if answer.status_code != (304 if arguments.action in ("poll", "tv_poll") else 200):
            raise SystemExit(f"{arguments.action} answered {answer.status_code}")
        if arguments.action in ("score", "went_out", "may_i", "shanghai", "round_edit", "undo"):
            version = game.version
            game.refresh_from_db()
            if game.version != version + 1:  # a refusal is a page too: it must not be timed
                said = re.findall(r'(?:role="alert"|class="error")[^>]*>\s*([^<]+)', answer.text)
                raise SystemExit(f"{arguments.action} was refused: {said or answer.text[:2000]}")
        if arguments.action in ("score", "went_out", "may_i", "shanghai"):
            # Back to the state the action needs for the next repetition: undo it.
            client.post(f"/tables/{game.pk}/undo/", {"version": game.version})
            if arguments.action == "score":
                client.post(f"/tables/{game.pk}/undo/", {"version": game.version + 1})
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out).sort_stats(arguments.sort)
    total = stats.total_tt
    # Our code and the rules engine first: where a fix would go.
    stats.print_stats(arguments.only, arguments.top)
    if arguments.callees:
        stats.print_callees(arguments.callees)
    if arguments.callers:
        stats.print_callers(arguments.callers)
    print(
        f"{arguments.action}: median {statistics.median(plain):.1f} ms a request without the "
        f"profiler ({arguments.times} times), {statistics.median(waiting):.1f} ms of it "
        f"in {len(queries)} queries; {1000 * total / arguments.times:.1f} ms with the profiler"
    )
    print(out.getvalue())
    print(f"The queries of the last one ({len(queries)}):")
    for query in queries:
        print(f"  {query['time']}s  {query['sql'][:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
