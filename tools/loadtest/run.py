"""`make loadtest`: a club night at 5, 20, 50 and 100 tables, then 20 tables at five times the
pace (the stress run), score entry and the trivial view each at its ceiling, then a fault run; a
report, and exit status 1 if the consistency check finds anything lost or extra.

    .venv/bin/python -m tools.loadtest.run [--levels 5 20 50 100] [--tap-seconds 10]
        [--stress-tap-seconds 2] [--run-time 60] [--no-ceilings] [--no-faults] [--instances 1 2]
        [--cache redis|database] [--photo-share 0.25] [--photos-in-request-too]
        [--worker-stop 30]

Starts a throwaway PostgreSQL (tools/pg_cluster.py) and Redis (tools/redis_server.py: the
shared cache, DJANGO_CACHE_URL, that answers the screens' polls of unchanged tables; with
`--cache database`, none: the database's cache table, as `make run` has it), the app as the
Procfile runs it (tools/loadtest/server.py), seeds the tables for each level, drives them with
Locust in another process (tools/loadtest/locustfile.py), samples the CPU of gunicorn,
PostgreSQL, Redis and Locust, and checks the database after each run
(tools/loadtest/consistency.py). Writes loadtest-report.md.

`--instances 2` plays the same levels through nginx in front of two instances on the object
store (tools/loadtest/instances.py), on a PostgreSQL of their own; `--instances 1 2` plays them
on both stacks, one after the other, and the report sets them side by side. The ceilings and the
fault run are measured on one instance.

Photos: the one-instance stack runs the Procfile's `worker` beside gunicorn, as production does,
and every stack's task queue (READY and RUNNING tasks) is sampled every second. With
`--photo-share`, that share of the tables photographs each hand before saving its scores (see the
locustfile). `--photos-in-request-too` plays the goals' level again on a stack of its own with
DJANGO_TASKS_BACKEND=immediate and no worker (each photo read in the request that sends it), for
comparison; `--worker-stop 30` plays the goals' level (or `--worker-stop-tables`) once more with
the worker stopped (SIGSTOP) for that many seconds in the middle, then let go (SIGCONT).
"""

import argparse
import contextlib
import csv
import json
import os
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
import psycopg

from tools.loadtest import faults, report
from tools.loadtest.instances import Stack, Worker
from tools.loadtest.server import ROOT, App, app_environment, manage, release
from tools.pg_cluster import Cluster
from tools.redis_server import RedisServer

LOCUSTFILE = Path(__file__).with_name("locustfile.py")


class CpuSampler(threading.Thread):
    """Every second, the CPU (% of one core) of gunicorn (master and workers), PostgreSQL and
    Locust; `summary()` gives their means and peaks."""

    def __init__(self, groups: dict[str, callable]):
        super().__init__(daemon=True)
        self.groups, self.samples, self.running = groups, [], True
        self.seen: dict[int, psutil.Process] = {}

    def percent(self, processes) -> float:
        total = 0.0
        for process in processes:
            known = self.seen.setdefault(process.pid, process)
            with contextlib.suppress(psutil.Error):
                total += known.cpu_percent()
        return total

    def run(self):
        while self.running:
            self.samples.append({name: self.percent(find()) for name, find in self.groups.items()})
            time.sleep(1)

    def cpu_seconds(self, name: str) -> float:
        return sum(sample[name] for sample in self.samples) / 100  # a sample a second

    def summary(self) -> dict[str, tuple[float, float]]:
        steady = self.samples[2:] or self.samples  # the first sample of a process reads 0
        return {
            name: (sum(s[name] for s in steady) / len(steady), max(s[name] for s in steady))
            for name in self.groups
        }


QUEUED = (
    "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status IN ('READY', 'RUNNING')"
)
PHOTO_STATUSES = (
    "SELECT status, count(*) FROM scorekeeper_photo WHERE game_id = ANY(%s) GROUP BY status"
)


class QueueSampler(threading.Thread):
    """Every second, the task queue's length: the tasks waiting or running (READY and RUNNING
    rows of django-tasks-db)."""

    def __init__(self, database_url: str):
        super().__init__(daemon=True)
        self.database_url, self.lengths, self.running = database_url, [], True

    def run(self):
        with psycopg.connect(self.database_url, autocommit=True) as connection:
            while self.running:
                self.lengths.append(connection.execute(QUEUED).fetchone()[0])
                time.sleep(1)


def photos_read(database_url: str, seeded: Path, *, wait: float = 120) -> dict[str, int]:
    """Once the queue is empty (or after `wait` seconds), how many of the tables' photos are in
    each status: none should be left "reading"."""
    tables = [table["table"] for table in json.loads(seeded.read_text())["tables"]]
    with psycopg.connect(database_url, autocommit=True) as connection:
        deadline = time.monotonic() + wait
        while connection.execute(QUEUED).fetchone()[0] and time.monotonic() < deadline:
            time.sleep(1)
        return dict(connection.execute(PHOTO_STATUSES, [tables]).fetchall())


def others(groups) -> list[psutil.Process]:
    """Every process but those of `groups` (callables listing processes) and this one."""
    known = {process.pid for find in groups for process in find()} | {os.getpid()}
    return [process for process in psutil.process_iter() if process.pid not in known]


def family(pid: int) -> list[psutil.Process]:
    try:
        parent = psutil.Process(pid)
        return [parent, *parent.children(recursive=True)]
    except psutil.Error:
        return []


NIGHT = ["TabletA", "TabletB", "TabletScreenA", "TabletScreenB", "TvScreen", "Member", "Ceiling"]
RUSH_USERS = 8  # four times gunicorn's workers, each opening a connection a request
RUSH_TABLES = 60  # more than a rush can finish: seven scores a table


def locust(
    *,
    environment,
    folder: Path,
    name: str,
    tables: Path,
    run_time: int,
    max_requests: int,
    tap_seconds: float = 10,
    classes: list[str] = NIGHT,
    users: int | None = None,
    photo_share: float = 0,
):
    """Run Locust headless against the app (its user `classes`, `users` of them: the seeded
    count by default); its stats rows and the generator's record."""
    record = folder / f"{name}-record.json"
    command = [
        sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
        "--host", environment["APP_URL"], "--run-time", f"{run_time}s",
        "--csv", str(folder / name), "--only-summary", "--loglevel", "WARNING",
        "--stop-timeout", "5",
    ]  # fmt: skip
    users = users or json.loads(tables.read_text())["users"]
    command += ["--users", str(users), "--spawn-rate", str(max(10, users // 2)), *classes]
    env = {
        **environment,
        "LOADTEST_TABLES": str(tables),
        "LOADTEST_RECORD": str(record),
        "LOADTEST_MAX_REQUESTS": str(max_requests),
        "LOADTEST_TAP_SECONDS": str(tap_seconds),
        "LOADTEST_PHOTO_SHARE": str(photo_share),
    }
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    return process, record


def stats_rows(path: Path) -> list[dict]:
    with path.open() as rows:
        return list(csv.DictReader(rows))


def club_night(
    *,
    cluster,
    servers: dict[str, callable],
    environment,
    folder,
    tables: int,
    tap_seconds: float,
    run_time: int,
    name: str,
    during=None,
    photo_share: float = 0,
) -> dict:
    """Seed `tables` tables and play them for `run_time` seconds, a tap every `tap_seconds` a
    table, `photo_share` of them photographing their hands (`during(tables_json)` meanwhile,
    if given); the figures, the CPU (of the `servers`' processes, by name, and PostgreSQL's and
    Locust's), the task queue's length, the photos' statuses and the consistency check."""
    seeded = seed(environment, folder, tables=tables, name=name)
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    process, record = locust(
        environment=environment,
        folder=folder,
        name=name,
        tables=seeded,
        # The figures are measured once every device is ready, for about `run_time` seconds.
        run_time=run_time + 15,
        # A bound on the run, well above what the level asks: 3.5 requests a second a table.
        max_requests=max(400, 8 * tables) * run_time,
        tap_seconds=tap_seconds,
        photo_share=photo_share,
    )
    groups = servers | {
        "postgresql": lambda: family(postmaster),
        "locust": lambda: family(process.pid),
    }
    # What else the machine ran meanwhile: on a shared machine, figures taken while other work
    # used the cores are not the app's.
    sampler = CpuSampler(groups | {"other processes": lambda: others(groups.values())})
    sampler.start()
    queue = QueueSampler(environment["DATABASE_URL"])
    queue.start()
    seen = during(seeded) if during else None
    process.wait()
    sampler.running = queue.running = False
    photos = photos_read(environment["DATABASE_URL"], seeded)
    checked = consistency(environment, record, seeded)
    return {
        "name": name,
        "tables": tables,
        "tap_seconds": tap_seconds,
        "stats": stats_rows(folder / f"{name}_stats.csv"),
        "record": json.loads(record.read_text()),
        "cpu": sampler.summary(),
        "gunicorn_cpu_seconds": sampler.cpu_seconds("gunicorn"),
        "consistency": checked.stdout.strip() + checked.stderr.strip(),
        "consistent": checked.returncode == 0,
        "load": os.getloadavg(),
        "seen": seen,
        "photo_share": photo_share,
        "queue": queue.lengths,
        "photos": photos,
    }


def seed(environment, folder: Path, *, tables: int, name: str) -> Path:
    seeded = folder / f"{name}-tables.json"
    manage(
        environment, "seed_load", "--tables", str(tables), "--out", str(seeded), "--prefix", name
    )
    users = 5 * tables + max(1, tables // 4) + 2  # the night's, as the locustfile counts them
    seeded.write_text(json.dumps(json.loads(seeded.read_text()) | {"users": users}))
    return seeded


def consistency(environment, record: Path, seeded: Path) -> subprocess.CompletedProcess:
    checked = subprocess.run(
        [sys.executable, "-m", "tools.loadtest.consistency", str(record), str(seeded)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )
    print(checked.stdout + checked.stderr, end="")
    return checked


def ceilings(*, app, environment, folder, run_time: int) -> dict:
    """Score entry, then the trivial view, each at its ceiling: RUSH_USERS clients with no pause
    for `run_time` seconds. Score entry's tables are checked for consistency like a night's."""
    seeded = seed(environment, folder, tables=RUSH_TABLES, name="rush")
    rushes = {"clients": RUSH_USERS}
    for name, classes in (("score", ["ScoreRush"]), ("trivial", ["TrivialRush"])):
        process, record = locust(
            environment=environment,
            folder=folder,
            name=f"rush-{name}",
            tables=seeded,
            run_time=run_time,
            max_requests=1000 * run_time,
            classes=classes,
            users=RUSH_USERS,
        )
        sampler = CpuSampler(
            {"gunicorn": lambda: family(app.pid), "locust": lambda pid=process.pid: family(pid)}
        )
        sampler.start()
        process.wait()
        sampler.running = False
        rushes[name] = {
            "stats": stats_rows(folder / f"rush-{name}_stats.csv"),
            "cpu": sampler.summary(),
        }
        if name == "score":
            checked = consistency(environment, record, seeded)
            rushes["consistency"] = checked.stdout.strip() + checked.stderr.strip()
            rushes["consistent"] = checked.returncode == 0
    return rushes


@contextlib.contextmanager
def shared_cache(cache: str):
    """A Redis of its own and the environment that makes it the app's cache; with
    `cache="database"`, nothing (the database's cache table)."""
    if cache != "redis":
        yield None, {}
        return
    with RedisServer() as server:
        yield server, server.environment()


@contextlib.contextmanager
def one_instance(folder: Path, *, tasks_in_request: bool = False, cache: str = "redis"):
    """PostgreSQL, Redis (unless `cache="database"`), one gunicorn and the Procfile's worker
    beside it, Locust asking gunicorn directly: what `where` a night needs. `tasks_in_request`:
    DJANGO_TASKS_BACKEND=immediate and no worker, every task (a photo's reading) run in the
    request that queues it."""
    with Cluster() as cluster, shared_cache(cache) as (redis, cached):
        environment = (
            app_environment(database_url=cluster.database_url("sk_load"), data_dir=folder / "data")
            | cached
        )
        if tasks_in_request:
            environment["DJANGO_TASKS_BACKEND"] = "immediate"
        print(f"== preparing: PostgreSQL on port {cluster.port}, migrate, collectstatic")
        release(environment)
        worker = None
        if not tasks_in_request:
            worker = Worker(environment, log=folder / "worker.log", folder=ROOT)
        try:
            with App(environment, log=folder / "gunicorn.log") as app:
                environment["APP_URL"] = app.url
                servers = {"gunicorn": lambda: family(app.pid)}
                if worker:
                    servers["task worker"] = worker.processes
                if redis:
                    servers["redis"] = lambda: family(redis.process.pid)
                yield {
                    "cluster": cluster,
                    "app": app,
                    "environment": environment,
                    "folder": folder,
                    "servers": servers,
                    "worker": worker,
                }
        finally:
            if worker:
                worker.stop()


@contextlib.contextmanager
def two_instances(folder: Path, *, cache: str = "redis"):
    """PostgreSQL, the object store, Redis (unless `cache="database"`), two gunicorns and nginx
    in front, which Locust asks."""
    print("== preparing two instances behind nginx: PostgreSQL, object store, Redis, migrate")
    with Stack(folder, cache=cache) as stack:
        a, b = stack.apps.values()
        redis = {"redis": lambda: family(stack.redis.process.pid)} if stack.redis else {}
        yield {
            "cluster": stack.cluster,
            "app": None,
            "environment": stack.environment | {"APP_URL": stack.url},
            "folder": folder,
            "servers": {
                "gunicorn": lambda: family(a.pid) + family(b.pid),
                "nginx": lambda: family(stack.proxy.process.pid),
                "task workers": lambda: [
                    process
                    for worker in stack.task_workers
                    for process in family(worker.process.pid)
                ],
                "object store": lambda: family(stack.store.process.pid),
                **redis,
            },
        }


def play_levels(where: dict, levels, arguments, *, instances: int) -> list[dict]:
    """A club night at each of `levels` ((tables, tap seconds)) on one stack."""
    results = []
    for n, (tables, tap_seconds) in enumerate(levels):
        run_time = arguments.run_time
        if tap_seconds == arguments.tap_seconds and tables in (
            report.GOAL_LEVEL,
            report.LARGE_LEVEL,
        ):
            run_time = arguments.goal_run_time
        print(
            f"== {report.INSTANCES[instances]}: {tables} tables, "
            f"a tap every {tap_seconds:g} s, {run_time} s"
        )
        result = club_night(
            **where,
            tables=tables,
            tap_seconds=tap_seconds,
            run_time=run_time,
            name=f"level{n}-t{tables}",
            photo_share=arguments.photo_share,
        )
        results.append(result | {"instances": instances})
    return results


def ceilings_and_faults(app, where: dict, arguments) -> tuple[dict | None, dict | None]:
    """The ceilings and the fault run on one instance, unless left out."""
    rushes = fault = None
    if not arguments.no_ceilings:
        print(f"== ceilings: score entry, then the trivial view, {RUSH_USERS} clients")
        rushes = ceilings(
            app=app, environment=where["environment"], folder=where["folder"], run_time=20
        )
    if not arguments.no_faults:
        print("== fault run: a worker killed, PostgreSQL stopped for 10 s")
        cluster = where["cluster"]
        fault = club_night(
            **where,
            tables=5,
            tap_seconds=arguments.tap_seconds,
            run_time=50,
            name="faults",
            during=lambda tables: faults.inflict(app=app, cluster=cluster, tables=tables),
        )
    return rushes, fault


def worker_stopped(where: dict, worker: Worker, arguments) -> dict:
    """A club night with photos during which the task `worker` is stopped for
    `arguments.worker_stop` seconds, from the middle of the measured time on."""
    run_time = arguments.goal_run_time

    def stop_and_go(tables) -> dict:
        started = time.time()
        # Devices log in and settle for about 15 s; then the worker stops midway through.
        time.sleep(15 + max(0, run_time - arguments.worker_stop) / 2)
        stopped = time.time()
        worker.pause()
        try:
            time.sleep(arguments.worker_stop)
        finally:
            worker.resume()
        return {"started": started, "stopped": stopped, "resumed": time.time()}

    tables = arguments.worker_stop_tables
    print(f"== worker stopped for {arguments.worker_stop} s: {tables} tables with photos")
    return club_night(
        **where,
        tables=tables,
        tap_seconds=arguments.tap_seconds,
        run_time=run_time,
        name="worker-stop",
        during=stop_and_go,
        photo_share=arguments.photo_share or 0.25,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[5, 20, 50, 100])
    parser.add_argument(
        "--tap-seconds", type=float, default=10, help="mean gap between a table's taps"
    )
    parser.add_argument("--stress-tap-seconds", type=float, default=2, help="at 20 tables; 0: none")
    parser.add_argument("--run-time", type=int, default=60, help="seconds measured a level")
    parser.add_argument(
        "--goal-run-time",
        type=int,
        default=180,
        help="seconds measured at the goals' levels (20 and 100 tables at the club's pace): each "
        "action counts there a few dozen times, not a dozen, so its p95 is not the slowest of a "
        "few",
    )
    parser.add_argument("--no-faults", action="store_true")
    parser.add_argument("--no-ceilings", action="store_true")
    parser.add_argument(
        "--instances",
        type=int,
        nargs="+",
        choices=[1, 2],
        default=[1],
        help="1: gunicorn alone; 2: two instances behind nginx on the object store; 1 2: both, "
        "side by side in the report (the ceilings and the fault run: on one instance only)",
    )
    parser.add_argument(
        "--cache",
        choices=["redis", "database"],
        default="redis",
        help="redis: a Redis of its own as the app's cache (DJANGO_CACHE_URL), which answers "
        "the polls of unchanged tables; database: the database's cache table, as `make run` has "
        "it, the polls answered after one query",
    )
    parser.add_argument(
        "--photo-share",
        type=float,
        default=0,
        help="share of the tables photographing each hand before saving the scores (0.25: one "
        "in four; 0: none)",
    )
    parser.add_argument(
        "--photos-in-request-too",
        action="store_true",
        help="play the goals' level again with the photos read in the request "
        "(DJANGO_TASKS_BACKEND=immediate, no worker), for comparison",
    )
    parser.add_argument(
        "--worker-stop",
        type=int,
        default=0,
        help="seconds the task worker is stopped (SIGSTOP) in a run of its own; 0: no such run",
    )
    parser.add_argument("--worker-stop-tables", type=int, default=report.GOAL_LEVEL)
    parser.add_argument("--report", default="loadtest-report.md")
    arguments = parser.parse_args()
    command = shlex.join(["python", "-m", "tools.loadtest.run", *sys.argv[1:]])
    folder = Path(tempfile.mkdtemp(prefix="sk-loadtest-"))
    runs, fault, rushes, photos = {}, None, None, {}
    levels = [(tables, arguments.tap_seconds) for tables in arguments.levels]
    if arguments.stress_tap_seconds:
        levels.append((report.GOAL_LEVEL, arguments.stress_tap_seconds))
    for instances in sorted(set(arguments.instances)):
        stack = one_instance if instances == 1 else two_instances
        # Each stack has a folder of its own: the runs' files have the same names.
        (folder / f"instances-{instances}").mkdir()
        with stack(folder / f"instances-{instances}", cache=arguments.cache) as where:
            app, worker = where.pop("app"), where.pop("worker", None)
            runs[instances] = play_levels(where, levels, arguments, instances=instances)
            if app is not None:
                if arguments.worker_stop:
                    photos["worker_stop"] = worker_stopped(where, worker, arguments)
                rushes, fault = ceilings_and_faults(app, where, arguments)
    if arguments.photos_in_request_too:
        (folder / "in-request").mkdir()
        with one_instance(
            folder / "in-request", tasks_in_request=True, cache=arguments.cache
        ) as where:
            where.pop("app"), where.pop("worker")
            print(f"== photos read in the request: {report.GOAL_LEVEL} tables")
            photos["in_request"] = club_night(
                **where,
                tables=report.GOAL_LEVEL,
                tap_seconds=arguments.tap_seconds,
                run_time=arguments.goal_run_time,
                name="in-request",
                photo_share=arguments.photo_share,
            )
    text = report.write(
        runs,
        fault,
        rushes,
        uptime=subprocess.getoutput("uptime"),
        command=command,
        photos=photos,
        cache=arguments.cache,
    )
    Path(arguments.report).write_text(text)
    print(text)
    print(f"(written to {arguments.report}; raw files in {folder})")
    everything = [r for results in runs.values() for r in results] + ([fault] if fault else [])
    everything += list(photos.values())
    consistent = all(result["consistent"] for result in everything)
    return 0 if consistent and (rushes is None or rushes["consistent"]) else 1


if __name__ == "__main__":
    sys.exit(main())
