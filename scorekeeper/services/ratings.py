"""Results and ratings: each finished table's places, and a Plackett-Luce skill rating (openskill)
replayed over a club's finished tables in the order they finished.

A table's Result rows are written when it finishes. Any change to a finished table (a round
edited, its last save undone, the table deleted) rewrites its rows in the same transaction as
the change, and the ratings of it and every later table are replayed: at once when it is the
club's latest table, else by a worker (a `Recount`: a club of a hundred tables takes a quarter
of a second, too long for a request). Once no recount is waiting, the stored ratings equal a
replay from scratch (`ratings_replay(club_id=...)`); while one is, the standings say so."""

from collections import deque
from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import Count, Q
from django.tasks import task
from openskill.models import PlackettLuce

from scorekeeper import selectors
from scorekeeper.models import Club, Event, Game, Hand, Recount, Result, Role

from .roles import club_lock, role_require
from .tallies import TALLIED, tallies_change, tallies_rebuild

MODEL = PlackettLuce()
# (mu, sigma) of a player yet to finish a table. Ratings are kept as plain pairs: openskill's
# rate() changes the rating objects it is given.
INITIAL = (MODEL.mu, MODEL.sigma)
# The trend is the change of the rating over this many of the player's last tables.
TREND_TABLES = 5
RATING_FIELDS = ["mu", "sigma", "rating", "rating_before", "trend"]


def conservative(mu: float, sigma: float) -> float:
    """The figure shown as the rating: the skill the player has with near certainty."""
    return mu - 3 * sigma


class _Ladder:
    """Each player's rating and the ratings before their last tables, while replaying."""

    def __init__(self):
        self.ratings = {}
        self.befores = {}

    def start(self, player_id: int, earlier: list[Result]) -> None:
        """Resume a player from their latest results before the replay (newest first)."""
        if earlier:
            self.ratings[player_id] = (earlier[0].mu, earlier[0].sigma)
        self.befores[player_id] = deque(
            (result.rating_before for result in reversed(earlier)), maxlen=TREND_TABLES
        )

    def play(self, table: list[Result]) -> None:
        """Rate one table's results (set on the rows, not saved)."""
        before = [self.ratings.get(result.player_id, INITIAL) for result in table]
        after = MODEL.rate(
            [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before],
            ranks=[result.place for result in table],
        )
        for result, old, (new,) in zip(table, before, after, strict=True):
            self.ratings[result.player_id] = (new.mu, new.sigma)
            befores = self.befores.setdefault(result.player_id, deque(maxlen=TREND_TABLES))
            befores.append(conservative(*old))
            result.mu, result.sigma = new.mu, new.sigma
            result.rating = conservative(new.mu, new.sigma)
            result.rating_before = befores[-1]
            result.trend = result.rating - befores[0]


def ratings_rate(results: Iterable[Result]) -> None:
    """Rate results given in game order, from scratch (sets the rating fields, saves nothing)."""
    ladder = _Ladder()
    for table in _tables(results):
        ladder.play(table)


def _tables(results: Iterable[Result]):
    table = []
    for result in results:
        if table and table[0].game_id != result.game_id:
            yield table
            table = []
        table.append(result)
    if table:
        yield table


def _from(since: tuple[datetime, int]) -> Q:
    finished_at, game_id = since
    return Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, game_id__gte=game_id)


@transaction.atomic
def ratings_replay(
    *, club_id: int, since: tuple[datetime, int] | None = None, table_only: bool = False
) -> int:
    """Recompute the ratings of the club's results in game order, all of them or from the table
    `since` = (finished_at, game id) on (only that table's, with `table_only`), resuming each
    player from their earlier results. Returns the number of results rewritten."""
    replayed = Result.objects.filter(club_id=club_id).order_by("finished_at", "game_id", "pk")
    if since is not None:
        replayed = replayed.filter(_from(since))
        if table_only:
            replayed = replayed.filter(game_id=since[1])
    replayed = list(replayed.only("pk", "game_id", "player_id", "place", *RATING_FIELDS))
    ladder = _Ladder()
    if since is not None:
        for player_id in sorted({result.player_id for result in replayed}):
            earlier = (
                Result.objects.filter(player_id=player_id)
                .exclude(_from(since))
                .order_by("-finished_at", "-game_id")
                .only("mu", "sigma", "rating_before")[: TREND_TABLES - 1]
            )
            ladder.start(player_id, list(earlier))
    for table in _tables(replayed):
        ladder.play(table)
    Result.objects.bulk_update(replayed, RATING_FIELDS, batch_size=500)
    return len(replayed)


def _results_of(game: Game) -> list[Result]:
    """The table's results from its rounds, as the scoreboard adds them up (not yet rated)."""
    board = selectors.game_board(game)
    claims = dict(
        game.events.filter(kind=Event.Kind.SHANGHAI_CLAIM, undone_by__isnull=True)
        .values_list("seat")
        .annotate(claims=Count("pk"))
    )
    hands = {round_.pk: list(round_.hands.all()) for round_ in board.rounds}
    return results_of_board(board, hands=hands, claims=claims)


def results_of_board(
    board: selectors.Board, *, hands: dict[int, list[Hand]], claims: dict[int, int]
) -> list[Result]:
    """A finished table's results from its board, not yet rated: `hands` are its hands by
    round id, `claims` its Shanghai claims not taken back by seat id. No query (the bench of
    the standings writes its tables' results with it too)."""
    game = board.game
    shared = {}
    for line in board.lines:
        shared[line.place] = shared.get(line.place, 0) + 1
    points_left = {}  # by seat id: points left in each finished round, in contract order
    for round_ in board.rounds:
        if round_.finished_at:
            for hand in hands[round_.pk]:
                points_left.setdefault(hand.seat_id, []).append(hand.points or 0)
    return [
        Result(
            game=game,
            player_id=line.seat.player_id,
            club_id=game.club_id,
            season_id=game.season_id,
            finished_at=game.finished_at,
            place=line.place,
            place_shared=shared[line.place] > 1,
            total=line.total,
            rounds=board.rounds_played,
            rounds_won=line.rounds_won,
            shanghai_claims=claims.get(line.seat.pk, 0),
            may_i_used=line.may_i_used,
            points_left=points_left.get(line.seat.pk, []),
            others={
                str(other.seat.player_id): other.place for other in board.lines if other != line
            },
            mu=INITIAL[0],
            sigma=INITIAL[1],
            rating=0,
            rating_before=0,
        )
        for line in board.lines
    ]


@transaction.atomic
def results_refresh(*, game: Game) -> None:
    """Bring the table's results and the club's ratings up to date after the table finished or
    a finished table changed: rewrite its rows (none once it is no longer finished) and replay
    the ratings from the earlier of its old and new place in game order (`ratings_catch_up`)."""
    # Two tables finishing at once would otherwise both start from the ratings before either.
    club_lock(game.club_id)
    old = list(game.results.only("finished_at", *TALLIED))
    starts = [(result.finished_at, game.pk) for result in old[:1]]
    game.results.all().delete()
    new = []
    if game.finished_at is not None:
        new = Result.objects.bulk_create(_results_of(game))
        starts.append((game.finished_at, game.pk))
    tallies_change(removed=old, added=new)
    if starts:
        ratings_catch_up(club_id=game.club_id, since=min(starts))


def ratings_catch_up(*, club_id: int, since: tuple[datetime, int]) -> None:
    """Replay the ratings from the table at `since` = (finished_at, table id) on: that table's
    at once, and when other tables come after it (it is not the club's latest), theirs by a
    worker (a recount), each later table being re-rated. Call it holding the club's lock."""
    ratings_replay(club_id=club_id, since=since, table_only=True)
    later = Result.objects.filter(_from(since), club_id=club_id).exclude(game_id=since[1])
    if later.exists():
        _recount_queue(club_id=club_id, since=since)


def _recount_queue(
    *, club_id: int, since: tuple[datetime, int] | None, rebuild: bool = False
) -> Recount:
    """Queue a recount of the club (the caller holds its lock), or widen the one waiting: a club
    has one, which a worker takes under the same lock, so it replays from the earliest change."""
    waiting = Recount.objects.filter(club_id=club_id).first()
    if waiting is None:
        waiting = Recount(club_id=club_id, rebuild=rebuild)
        if since is not None:
            waiting.since_finished_at, waiting.since_game_id = since
        waiting.save()
        recount_enqueue(waiting)
        return waiting
    waiting.rebuild = waiting.rebuild or rebuild
    if since is None or waiting.since is None:
        waiting.since_finished_at = waiting.since_game_id = None
    elif since < waiting.since:
        waiting.since_finished_at, waiting.since_game_id = since
    waiting.save(update_fields=["rebuild", "since_finished_at", "since_game_id"])
    return waiting


def recount_enqueue(recount: Recount) -> None:
    """Queue the recount's task and keep its id, by which the upkeep sees it failed."""
    recount.task_id = recount_run.enqueue(recount.pk).id
    # An update, not a save: where tasks run in the request (DJANGO_TASKS_BACKEND=immediate),
    # the recount is done, and so deleted, by the time its task is queued.
    Recount.objects.filter(pk=recount.pk).update(task_id=recount.task_id)


@transaction.atomic
def recount_queue(*, club: Club, user) -> Recount:
    """Queue every result of the club to be rewritten from its finished tables' rounds and the
    ratings replayed from scratch by a worker: the owners' button for `results_rebuild`."""
    role_require(club=club, user=user, role=Role.OWNER)
    club_lock(club.pk)
    return _recount_queue(club_id=club.pk, since=None, rebuild=True)


@task()
def recount_run(recount_id: int) -> int | str:
    """A worker's task: do a queued recount, then delete it, in one transaction under the club's
    lock, so a change queued meanwhile waits and then finds it gone or widened. A second run
    finds it gone and changes nothing. Returns the number of results rewritten."""
    club_id = Recount.objects.filter(pk=recount_id).values_list("club_id", flat=True).first()
    if club_id is None:
        return "already recounted, or the club is gone"
    with transaction.atomic():
        club_lock(club_id)
        recount = Recount.objects.filter(pk=recount_id).first()
        if recount is None:
            return "already recounted"
        if recount.rebuild:
            return results_rebuild(club=recount.club)
        count = ratings_replay(club_id=club_id, since=recount.since)
        recount.delete()
    return count


@transaction.atomic
def results_rebuild(*, club: Club) -> int:
    """Rewrite every result of the club from its finished tables' rounds, add up the players'
    head to head and points left again, then replay all the ratings from scratch: for tables
    finished before results were kept. Any recount waiting is then done. Returns the count."""
    club_lock(club.pk)
    Result.objects.filter(club=club).delete()
    for game in club.games.finished().order_by("finished_at", "pk"):
        Result.objects.bulk_create(_results_of(game))
    Recount.objects.filter(club=club).delete()
    tallies_rebuild(club_id=club.pk)
    return ratings_replay(club_id=club.pk)
