"""Do photos being read slow another table's taps? (issue #52, point 3: heavy work yields to taps)

    .venv/bin/python -m tools.photo_burst [--requests 100] [--as-before]

The app as production runs it (tools/loadtest/server.py): a PostgreSQL of its own, the Procfile's
release steps, gunicorn from its `web` line and the Procfile's `worker` (`manage.py task_workers`)
beside it, the database as the cache (no Redis). Five tables are seeded (`seed_load`); the first
four have gone out, so their score entries take photos. Then:

- **idle**: another table's round screen (its tablet's `GET /tables/<pk>/`, the whole page)
  asked --requests times, one after another with a tap's pause between;
- **burst**: four members, one a table, each send real photos (tests/recognition/photos) as
  fast as they can, turn about to the table's checker, the score entry and the standalone
  checker, until the photo throttle refuses them on all three; meanwhile the same round screen
  is asked as before, --requests times or until the queue of photos is read (at most
  BURST_SECONDS).

It prints the round screen's median and p95 in ms, idle and during the burst, their ratio (the
figure that matters: at most 1.5), the burst's asks split into those made while photos were still
being sent (each is decoded and stored by a web worker) and those made after, while the worker
only reads; how many photos were accepted, and the readers' CPU priority. The last line is JSON.
`--as-before` runs the worker as before the issue: one reader a core, at the web workers'
priority, NumPy's OpenBLAS with a thread a core (the photo throttle, which is code, stays as it
is now). The run takes about a minute and a half (the burst is measured at most 45 s).
"""

import argparse
import itertools
import json
import os
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

import psycopg

from tools.loadtest.instances import Worker
from tools.loadtest.server import (
    ROOT,
    App,
    LoopbackSession,
    app_environment,
    csrf,
    manage,
    release,
)
from tools.pg_cluster import Cluster, wait_for

PHOTOS = sorted((ROOT / "tests" / "recognition" / "photos").glob("*.jpg"))
MEMBERS = 4
# A tap's pause between two asks of the round screen: a tablet's taps and polls come spaced.
PAUSE_SECONDS = 0.05
# The burst is measured at most this long, whether or not the worker has read every photo.
BURST_SECONDS = 45
QUEUED = (
    "SELECT count(*) FILTER (WHERE status IN ('READY', 'RUNNING')), count(*) "
    "FROM django_tasks_database_dbtaskresult"
)


def summary(times: list[float]) -> dict:
    """Median and p95 of response times in seconds, in ms."""
    ordered = sorted(times)
    if not ordered:
        return {"requests": 0, "median_ms": None, "p95_ms": None}
    return {
        "requests": len(ordered),
        "median_ms": round(1000 * statistics.median(ordered), 1),
        "p95_ms": round(1000 * ordered[max(int(0.95 * len(ordered)) - 1, 0)], 1),
    }


def session_of(app: App, session_key: str) -> LoopbackSession:
    """A tablet logged in earlier in the evening (seed_load's session)."""
    session = LoopbackSession()
    session.cookies.set("sessionid", session_key, domain="127.0.0.1")
    return session


def round_screen(
    session: LoopbackSession, url: str, *, count: int, until=None
) -> list[tuple[float, float]]:
    """When each ask of the round screen was made (time.monotonic) and the seconds it took:
    `count` asks, or fewer once `until()`."""
    times = []
    while len(times) < count and not (until and until()):
        asked = time.monotonic()
        started = time.perf_counter()
        answer = session.get(url, timeout=30, allow_redirects=False)
        times.append((asked, time.perf_counter() - started))
        if answer.status_code != 200:
            raise RuntimeError(f"the round screen answered {answer.status_code}")
        time.sleep(PAUSE_SECONDS)
    return times


def goes_out(session: LoopbackSession, app: App, table: dict) -> None:
    """The table's first seat went out: its score entry takes photos."""
    page = session.get(f"{app.url}/tables/{table['table']}/", timeout=30).text
    version = page.split('data-version="', 1)[1].split('"', 1)[0]
    answer = session.post(
        f"{app.url}/tables/{table['table']}/went-out/",
        data={"version": version, "seat": table["seats"][0]},
        headers={"X-CSRFToken": csrf(page), "HX-Request": "true"},
        timeout=30,
    )
    if answer.status_code != 200:
        raise RuntimeError(f"going out answered {answer.status_code}")


def photograph(session: LoopbackSession, app: App, table: dict, answered: list) -> None:
    """Send photos as fast as the throttle lets, turn about from the three pages that take
    them, until every one refuses; when each was answered goes to `answered`."""
    pk, seats = table["table"], itertools.cycle(table["seats"][1:])
    page = session.get(f"{app.url}/tables/{pk}/", timeout=30).text
    version = page.split('data-version="', 1)[1].split('"', 1)[0]
    headers = {"X-CSRFToken": csrf(page), "HX-Request": "true"}
    pages = {
        "table's checker": lambda seat: (f"/tables/{pk}/photos/", {}, "photo"),
        "score entry": lambda seat: (
            f"/tables/{pk}/score/photo/",
            {"version": version, "photo_seat": seat},
            f"photo_{seat}",
        ),
        "standalone checker": lambda seat: ("/check/photo/", {}, "photo"),
    }
    photos = itertools.cycle(PHOTOS)
    while pages:
        for name, form in list(pages.items()):
            path, data, field = form(next(seats))
            photo = next(photos)
            answer = session.post(
                app.url + path,
                data=data,
                files={field: (photo.name, photo.read_bytes(), "image/jpeg")},
                headers=headers,
                timeout=60,
            )
            answered.append(time.monotonic())
            if answer.status_code == 429:
                del pages[name]
            elif answer.status_code != 200:
                raise RuntimeError(f"the {name}'s photo answered {answer.status_code}")


def tasks(database_url: str) -> tuple[int, int]:
    """The photos waiting to be read or being read, and all photos queued."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        return connection.execute(QUEUED).fetchone()


def main(requests: int, as_before: bool) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="photo-burst-"))
    with Cluster() as cluster:
        database_url = cluster.database_url("sk_burst")
        environment = app_environment(database_url=database_url, data_dir=folder / "data")
        if as_before:
            cores = str(os.cpu_count() or 1)
            environment |= {
                "DJANGO_TASK_WORKERS": cores,
                "DJANGO_TASK_NICENESS": "0",
                "OPENBLAS_NUM_THREADS": cores,
                "OMP_NUM_THREADS": cores,
                "OPENCV_FOR_THREADS_NUM": cores,
            }
        print(f"== PostgreSQL on port {cluster.port}: migrate, collectstatic, seed", flush=True)
        release(environment)
        seeded_file = folder / "tables.json"
        manage(environment, "seed_load", "--tables", str(MEMBERS + 1), "--out", str(seeded_file))
        seeded = json.loads(seeded_file.read_text())
        *photographed, watched = seeded["tables"]
        worker = Worker(environment, log=folder / "worker.log", folder=ROOT)
        try:
            with App(environment, log=folder / "gunicorn.log") as app:
                report = measure(app, worker, seeded, photographed, watched, database_url, requests)
        finally:
            worker.stop()
    shutil.rmtree(folder)  # kept, with the servers' logs, when the run failed
    return {"as_before": as_before, **report}


def measure(app, worker, seeded, photographed, watched, database_url, requests) -> dict:
    def tablet(table: dict) -> LoopbackSession:
        return session_of(app, seeded["sessions"][table["tablets"][0]][0])

    members = [tablet(table) for table in photographed]
    for member, table in zip(members, photographed, strict=True):
        goes_out(member, app, table)
    screen = tablet(watched)
    url = f"{app.url}/tables/{watched['table']}/"
    round_screen(screen, url, count=10)  # warm up: every gunicorn worker has answered once
    wait_for(lambda: len(worker.processes()) > 1, timeout=60)
    readers = worker.processes()[1:]
    niceness = sorted({process.nice() for process in readers})
    print(f"== idle: the round screen {requests} times", flush=True)
    idle = [seconds for _, seconds in round_screen(screen, url, count=requests)]

    print(f"== burst: {MEMBERS} members send photos as fast as the throttle lets", flush=True)
    answered: list[float] = []
    started = time.monotonic()
    senders = [
        threading.Thread(target=photograph, args=(member, app, table, answered))
        for member, table in zip(members, photographed, strict=True)
    ]
    for sender in senders:
        sender.start()
    deadline = started + BURST_SECONDS

    def burst_over() -> bool:
        if time.monotonic() > deadline:
            return True
        sending = any(sender.is_alive() for sender in senders)
        return not sending and tasks(database_url)[0] == 0

    busy = round_screen(screen, url, count=requests, until=burst_over)
    for sender in senders:
        sender.join()
    left, queued = tasks(database_url)
    sent = max(answered)
    idle_figures, busy_figures = summary(idle), summary([seconds for _, seconds in busy])
    return {
        "readers": len(readers),
        "reader_niceness": niceness,
        "photos_accepted": queued,
        "sent_in_s": round(sent - started, 1),
        "photos_left_unread": left,
        "idle": idle_figures,
        "burst": busy_figures,
        # While photos are sent (each decoded and stored by a web worker), then only read.
        "burst_sending": summary([seconds for asked, seconds in busy if asked <= sent]),
        "burst_reading": summary([seconds for asked, seconds in busy if asked > sent]),
        "median_ratio": round(busy_figures["median_ms"] / idle_figures["median_ms"], 2),
        "p95_ratio": round(busy_figures["p95_ms"] / idle_figures["p95_ms"], 2),
        "load_average": [round(load, 1) for load in os.getloadavg()],
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--as-before", action="store_true")
    options = parser.parse_args()
    report = main(options.requests, options.as_before)
    print(
        f"readers: {report['readers']} at niceness {report['reader_niceness']}; "
        f"{report['photos_accepted']} photos accepted, sent in {report['sent_in_s']} s, "
        f"{report['photos_left_unread']} left unread at the end"
    )
    print("| round screen | requests | median ms | p95 ms |")
    print("|---|---:|---:|---:|")
    for phase in ("idle", "burst", "burst_sending", "burst_reading"):
        figures = report[phase]
        print(f"| {phase} | {figures['requests']} | {figures['median_ms']} | {figures['p95_ms']} |")
    print(f"burst / idle: median {report['median_ratio']}x, p95 {report['p95_ratio']}x")
    print(f"load average: {report['load_average']}")
    print(json.dumps(report))
