"""Backups taken while tables are played, as an operator takes them: gunicorn, as the Procfile
runs it, on a PostgreSQL server of its own, a client tapping at each table (points, went out,
May I?, undo) while `manage.py backup` runs five times; each backup restored into a new
database on the same server and served by a gunicorn of its own.

What is provable of each restored table, whose one client is its only writer (so the client
saw every version of it): its events are exactly the first V writes accepted, V its version (a
moment of its history, not parts of several); V lies between what was accepted before the
backup began and what was sent before it ended; and its page shows the scoreboard the live
app showed at version V.

Needs root (to run the server as `postgres`) and Debian's PostgreSQL binaries; `make test`
leaves it out (marker `postgres_server`), `.ci/run` runs it."""

import json
import random
import re
import subprocess
import threading
import time
from pathlib import Path

import psycopg
import pytest

from tools.loadtest.consistency import table_problems
from tools.loadtest.server import (
    ROOT,
    App,
    LoopbackSession,
    app_environment,
    csrf,
    log_in,
    manage,
    procfile,
    release,
)
from tools.pg_cluster import Cluster

pytestmark = [pytest.mark.postgres_server, pytest.mark.slow]

TABLES = 3
BACKUPS = 5
HANDS_LEFT = ["K 7 JK", "3 3 9", "A Q", "10 10 5 2", "JK", "8"]
# The event each tap makes when accepted (going out in the last contract ends the table).
KINDS = {
    "may_i": ["may_i"],
    "went_out": ["went_out"],
    "score": ["round_scored"],
    "undo": ["undo"],
}


def scoreboard(html: str) -> str:
    found = re.search(r'<section class="scoreboard">.*?</section>', html, re.DOTALL)
    assert found, "no scoreboard on the page"
    return found.group(0)


def version_of(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))


class Tablet:
    """One table's only writer: taps as fast as the app answers, keeping every write (the
    version it was sent at, when, what became of it) and the scoreboard the app showed at
    each version."""

    def __init__(self, url: str, table: dict, password: str):
        self.url, self.table = url, table
        self.session = LoopbackSession()
        log_in(self.session, url, table["tablets"][0], password)
        self.writes, self.boards = [], {}
        self.learn(self.session.get(f"{url}/tables/{table['table']}/", timeout=30).text)
        self.first = self.version

    def learn(self, html: str):
        self.version = version_of(html)
        self.token = csrf(html)
        self.scoring = "table-screen scoring" in html
        self.over = "<h1>Game over</h1>" in html
        self.boards[self.version] = scoreboard(html)

    def tap(self):
        seats = self.table["seats"]
        if self.over:
            action, data = "undo", {}  # back to scoring the last contract, and on
        elif self.scoring:
            action, data = "score", {f"cards_{seat}": random.choice(HANDS_LEFT) for seat in seats}
        else:
            action, data = random.choice(
                [("may_i", {"seat": random.choice(seats)})] * 3
                + [("undo", {}), ("went_out", {"seat": random.choice(seats)})]
            )
        write = {
            "table": self.table["table"],
            "version": self.version,
            "action": action,
            "kinds": KINDS[action],
            "user": self.table["tablets"][0],
            "sent": time.monotonic(),
        }
        answer = self.session.post(
            f"{self.url}/tables/{self.table['table']}/{action.replace('_', '-')}/",
            data={**data, "version": self.version},
            headers={"X-CSRFToken": self.token, "HX-Request": "true"},
            timeout=30,
            allow_redirects=False,
        )
        write["answered"] = time.monotonic()
        refused = answer.status_code == 409 or 'class="message refusal"' in answer.text
        write["outcome"] = "refused" if refused else "accepted"
        assert answer.status_code in (200, 409), f"{action}: {answer.status_code}"
        self.learn(answer.text)
        write["after"] = self.version
        self.writes.append(write)

    def play(self, stop: threading.Event):
        while not stop.is_set():
            self.tap()


def database_copy(cluster: Cluster, template: str, name: str) -> str:
    """A new database `name` made as a copy of `template`; its DATABASE_URL."""
    with psycopg.connect(cluster.database_url("postgres"), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return cluster.database_url(name)


def restored_tables(database_url: str) -> dict[int, tuple[int, list[tuple[str, str]]]]:
    """Each table of a database: its version and its events (kind, username) oldest first."""
    with psycopg.connect(database_url) as connection:
        versions = dict(connection.execute("SELECT id, version FROM scorekeeper_game"))
        events = connection.execute(
            "SELECT e.game_id, e.kind, u.username FROM scorekeeper_event e"
            " JOIN auth_user u ON u.id = e.created_by_id ORDER BY e.id"
        ).fetchall()
    return {
        pk: (version, [(kind, user) for game, kind, user in events if game == pk])
        for pk, version in versions.items()
    }


def test_backups_taken_while_tables_are_played_restore_a_moment_of_each_table(tmp_path: Path):
    with Cluster() as cluster:
        environment = app_environment(
            database_url=cluster.database_url("sk_backup_live"), data_dir=tmp_path / "live"
        )
        release(environment)
        manage(environment, "seed_load", "--tables", str(TABLES), "--out", str(tmp_path / "t.json"))
        seeded = json.loads((tmp_path / "t.json").read_text())
        backups = []
        with App(environment, log=tmp_path / "live.log") as app:
            tablets = [Tablet(app.url, table, seeded["password"]) for table in seeded["tables"]]
            stop = threading.Event()
            players = [threading.Thread(target=t.play, args=(stop,)) for t in tablets]
            for player in players:
                player.start()
            try:
                for n in range(BACKUPS):
                    time.sleep(0.5)  # taps between backups, too
                    path = tmp_path / f"backup-{n}.tar.gz"
                    began = time.monotonic()
                    written = manage(environment, "backup", str(path))
                    backups.append((path, began, time.monotonic()))
                    assert written.startswith(f"Wrote {path}"), written
            finally:
                stop.set()
                for player in players:
                    player.join()
        accepted = sum(w["outcome"] == "accepted" for t in tablets for w in t.writes)
        assert accepted > 10 * BACKUPS  # the tables were played while the backups ran

        # A new server's database, migrated and empty, made once and copied for each restore.
        restored = app_environment(
            database_url=cluster.database_url("sk_restore_template"),
            data_dir=tmp_path / "restored",
            workers=1,
        )
        subprocess.run(procfile("release"), shell=True, cwd=ROOT, env=restored, check=True)
        for n, (path, began, ended) in enumerate(backups):
            restored["DATABASE_URL"] = database_copy(
                cluster, "sk_restore_template", f"sk_restored_{n}"
            )
            assert manage(restored, "restore", str(path)).startswith("Restored the backup")
            tables = restored_tables(restored["DATABASE_URL"])
            with App(restored, log=tmp_path / f"restored-{n}.log") as app:
                for tablet in tablets:
                    pk = tablet.table["table"]
                    version, events = tables[pk]
                    assert version == len(events), f"backup {n}, table {pk}"
                    in_time = [w for w in tablet.writes if w["version"] < version]
                    assert table_problems(pk, in_time, events) == [], f"backup {n}"
                    done = [w["after"] for w in tablet.writes if w["answered"] < began]
                    sent = [w["after"] for w in tablet.writes if w["sent"] < ended]
                    assert (
                        max(done, default=tablet.first)
                        <= version
                        <= max(sent, default=tablet.first)
                    ), f"backup {n}"

                    session = LoopbackSession()
                    log_in(session, app.url, tablet.table["tablets"][0], seeded["password"])
                    page = session.get(f"{app.url}/tables/{pk}/", timeout=30)
                    assert page.status_code == 200
                    assert version_of(page.text) == version
                    assert scoreboard(page.text) == tablet.boards[version], f"backup {n}"
