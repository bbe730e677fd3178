"""The Procfile's worker rides out a database restart: `manage.py task_workers` and its
`task_worker`s, as real processes on a PostgreSQL server of its own that the test stops for ten
seconds (never the shared one), with photos taken before (one of them being read when the
server stops, if the machine is quick enough to catch it) and during the outage (refused then,
as the app refuses every write, and taken again once it is back, as a player would). All are
read afterwards by the same processes: none dies, none is restarted by hand.

Needs root and Debian's PostgreSQL binaries, as tests/scorekeeper/test_database_restart.py;
`make test` leaves it out (marker `postgres_server`), `.ci/run` runs it."""

import subprocess
import sys
import time
from pathlib import Path

import psutil
import psycopg
import pytest

from tools.loadtest.server import ROOT, app_environment, manage
from tools.pg_cluster import Cluster, process_stop, wait_for

pytestmark = [pytest.mark.postgres_server, pytest.mark.slow]

PHOTOS = Path(__file__).resolve().parents[1] / "recognition" / "photos"
OUTAGE_SECONDS = 10

# A club's table with a round under way: what a photo is taken at (printed: the table's id).
TABLE = """
from django.contrib.auth import get_user_model
from scorekeeper import services
user, _ = get_user_model().objects.get_or_create(username="outage")
club = services.club_create(user=user, name="Outage")
players = [services.player_create(user=user, club=club, name=f"P{n}") for n in range(3)]
game = services.game_start(
    club=club, user=user, players=players, first_dealer=0,
    season=club.seasons.first(), profile=club.profiles.first(),
)
print(game.pk)
"""

# Photos taken at that table through the service the score entry calls (argv: table, files).
TAKE = """
import sys
from pathlib import Path
from django.core.files.uploadedfile import SimpleUploadedFile
from scorekeeper import services
from scorekeeper.forms import photo_check
from scorekeeper.models import Game
game = Game.objects.get(pk=int(sys.argv[1]))
for name in sys.argv[2:]:
    upload = photo_check(SimpleUploadedFile(Path(name).name, Path(name).read_bytes()))
    services.photo_record(game=game, photo=upload, user=game.created_by)
"""


def take(environment: dict, table: int, *names: str) -> subprocess.CompletedProcess:
    """Take photos of tests/recognition/photos at the table, in a process of its own."""
    files = [str(PHOTOS / name) for name in names]
    script = f"import sys; sys.argv = ['take', '{table}', *{files!r}]\n{TAKE}"
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def photo_statuses(url: str) -> list[str]:
    with psycopg.connect(url, connect_timeout=5) as database:
        rows = database.execute("SELECT status FROM scorekeeper_photo ORDER BY id").fetchall()
    return [status for (status,) in rows]


def tasks_running(url: str) -> int:
    with psycopg.connect(url, connect_timeout=5) as database:
        return database.execute(
            "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status = 'RUNNING'"
        ).fetchone()[0]


def test_photos_taken_before_and_during_an_outage_are_all_read_by_the_same_workers(tmp_path):
    with Cluster() as cluster:
        url = cluster.database_url("sk_worker_outage")
        environment = {
            **app_environment(database_url=url, data_dir=tmp_path),
            "DJANGO_LOG_LEVEL": "WARNING",
        }
        manage(environment, "migrate", "--noinput")
        manage(environment, "createcachetable")
        table = int(manage(environment, "shell", "-c", TABLE).split()[-1])
        log = (tmp_path / "workers.log").open("w")
        parent = subprocess.Popen(
            [sys.executable, "manage.py", "task_workers", "--processes", "1"],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_for(lambda: len(psutil.Process(parent.pid).children()) == 1, timeout=30)
            (child,) = psutil.Process(parent.pid).children()

            taken = take(environment, table, "win_016.jpg", "win_029.jpg", "phone_010.jpg")
            assert taken.returncode == 0, taken.stderr
            # Stopped while the worker reads the first photo, if this machine lets us catch it.
            wait_for(lambda: tasks_running(url) or "read" in photo_statuses(url), timeout=60)
            cluster.stop()
            down = time.monotonic()
            refused = take(environment, table, "win_016.jpg")
            assert refused.returncode != 0 and "OperationalError" in refused.stderr
            time.sleep(max(OUTAGE_SECONDS - (time.monotonic() - down), 0))
            # Through the outage: the same processes, none ended.
            assert parent.poll() is None and child.is_running()
            assert psutil.Process(parent.pid).children() == [child]
            cluster.start()

            again = take(environment, table, "win_016.jpg")  # the player takes it again
            assert again.returncode == 0, again.stderr
            try:
                wait_for(lambda: photo_statuses(url) == ["read"] * 4, timeout=90, step=0.5)
            except TimeoutError:
                pytest.fail(f"{photo_statuses(url)}\n{workers_log(log)}")
            assert parent.poll() is None and psutil.Process(parent.pid).children() == [child]
            # The upkeep tries again less often each time (5, 10, 20 s): the photos may be read
            # before its next try says the database is back.
            wait_for(lambda: "The database answers again." in workers_log(log), timeout=70)
        finally:
            process_stop(parent, timeout=30)
            log.close()
        out = (tmp_path / "workers.log").read_text()
        assert parent.returncode == 0, out
        assert "the database does not answer (OperationalError: " in out
        assert "the database answers again" in out
        assert "The database does not answer (" in out and "The database answers again." in out


def workers_log(log) -> str:
    log.flush()
    return Path(log.name).read_text()
