"""The fault run's faults, while Locust plays: one gunicorn worker killed (gunicorn starts
another), then PostgreSQL stopped for ten seconds and started again. A probe, a member with the
table open, asks for the table page every 100 ms and notes what it saw."""

import json
import signal
import threading
import time
from pathlib import Path

import requests

from tools.loadtest.server import LoopbackSession, log_in
from tools.pg_cluster import wait_for

DOWN_SECONDS = 10


class Probe(threading.Thread):
    def __init__(self, url: str, session: requests.Session):
        super().__init__(daemon=True)
        self.url, self.session, self.seen, self.running = url, session, [], True
        self.started = time.monotonic()

    def run(self):
        while self.running:
            asked = time.monotonic() - self.started
            try:
                page = self.session.get(self.url, timeout=10)
                answer = (page.status_code, "Back in a moment" in page.text)
            except requests.RequestException as error:
                answer = (0, type(error).__name__)
            self.seen.append((asked, *answer))
            time.sleep(0.1)

    def between(self, start: float, end: float) -> dict[str, int]:
        counts = {}
        for asked, status, friendly in self.seen:
            if start <= asked < end:
                key = f"{status}{' back in a moment' if friendly is True else ''}"
                counts[key] = counts.get(key, 0) + 1
        return counts


def inflict(*, app, cluster, tables: Path) -> dict:
    """Kill a worker at 10 s, stop PostgreSQL at 20 s for DOWN_SECONDS; what the probe saw."""
    seeded = json.loads(tables.read_text())
    table = seeded["tables"][0]
    session = LoopbackSession()
    log_in(session, app.url, table["tablets"][1], seeded["password"])
    probe = Probe(f"{app.url}/tables/{table['table']}/", session)
    probe.start()
    time.sleep(10)
    victim = app.workers()[0]
    killed_at = time.monotonic() - probe.started
    victim.send_signal(signal.SIGKILL)
    replaced = wait_for(lambda: victim.pid not in {w.pid for w in app.workers()}, timeout=30)
    replaced += wait_for(lambda: len(app.workers()) == 2, timeout=30)
    time.sleep(max(0.0, 20 - (time.monotonic() - probe.started)))
    stopped_at = time.monotonic() - probe.started
    cluster.stop()
    time.sleep(DOWN_SECONDS)
    cluster.start()
    started_at = time.monotonic() - probe.started
    recovered = wait_for(lambda: probe.seen and probe.seen[-1][0] > started_at
                         and probe.seen[-1][1] == 200, timeout=60)  # fmt: skip
    time.sleep(5)
    probe.running = False
    probe.join()
    return {
        "worker_killed_at": killed_at,
        "worker_replaced_after": replaced,
        "database_stopped_at": stopped_at,
        "database_started_at": started_at,
        "recovered_after": recovered,
        "before": probe.between(0, killed_at),
        "worker_killed": probe.between(killed_at, stopped_at),
        "database_away": probe.between(stopped_at, started_at),
        "after": probe.between(started_at, float("inf")),
    }
