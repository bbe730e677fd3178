"""The app recovers by itself from a database restart: gunicorn, as the Procfile runs it, on a
PostgreSQL server of its own that the test stops and starts (never the shared one).

Needs root (to run the server as `postgres`) and Debian's PostgreSQL binaries (installed when
missing); `make test` leaves it out (marker `postgres_server`), `.ci/run` runs it."""

import json

import pytest

from tools.loadtest.server import App, LoopbackSession, app_environment, log_in, manage, release
from tools.pg_cluster import Cluster, wait_for

pytestmark = pytest.mark.postgres_server


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """(cluster, app, a seeded table) for the module: one server and one gunicorn."""
    folder = tmp_path_factory.mktemp("restart")
    with Cluster() as cluster:
        environment = app_environment(
            database_url=cluster.database_url("sk_load_restart"), data_dir=folder
        )
        release(environment)
        manage(environment, "seed_load", "--tables", "1", "--out", str(folder / "tables.json"))
        seeded = json.loads((folder / "tables.json").read_text())
        with App(environment, log=folder / "gunicorn.log") as app:
            yield cluster, app, seeded


def test_pages_say_back_in_a_moment_while_postgresql_is_down_and_recover_without_a_restart(
    running,
):
    cluster, app, seeded = running
    table = seeded["tables"][0]
    session = LoopbackSession()
    log_in(session, app.url, table["tablets"][0], seeded["password"])
    page = f"{app.url}/tables/{table['table']}/"
    workers = {worker.pid for worker in app.workers()}
    assert session.get(page, timeout=10).status_code == 200

    cluster.stop()
    for address in (page, f"{app.url}/clubs/{table['club']}/standings/", f"{app.url}/"):
        away = session.get(address, timeout=10)
        assert away.status_code == 503, address
        assert "Back in a moment" in away.text
        assert away.headers["Retry-After"] == "10"
    health = session.get(f"{app.url}/healthz", timeout=10)
    assert health.status_code == 503
    assert health.json() == {"database": "unavailable"}

    cluster.start()
    # The workers' broken connections are noticed and replaced on the next request.
    wait_for(lambda: session.get(page, timeout=10).status_code == 200, timeout=10)
    assert "Back in a moment" not in session.get(page, timeout=10).text
    assert session.get(f"{app.url}/healthz", timeout=10).json() == {"database": "ok"}
    # Recovered by itself: the same gunicorn and the same workers, none restarted.
    assert app.process.poll() is None
    assert {worker.pid for worker in app.workers()} == workers
