"""A throwaway PostgreSQL cluster: its own data folder, port and socket, so stopping it never
touches the shared cluster on port 5432. The load test's fault run and the restart test stop and
start it at will.

    with Cluster() as cluster:
        url = cluster.database_url("scorekeeper")   # postgres://scorekeeper@127.0.0.1:<port>/...
        cluster.stop(); cluster.start()

It needs Debian's PostgreSQL binaries (installed with apt when missing, as `.ci/run` does) and,
run as root, becomes the `postgres` user for the server (PostgreSQL refuses to run as root).
Connections from 127.0.0.1 are trusted: the cluster listens on loopback only and lives as long
as the test that made it.
"""

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ROLE = "scorekeeper"


def apt_install(package: str) -> None:
    """Install a Debian package (the servers the tests and the load test start are Debian's)."""
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", package], check=True)


def debian_binary(command: str, *, package: str, folder: str) -> str:
    """The path of a Debian command (looked for on PATH, then in `folder`), installing
    `package` if there is none."""
    found = shutil.which(command) or shutil.which(command, path=folder)
    if found is None:
        apt_install(package)
        found = shutil.which(command, path=folder)
    return found


def binaries() -> Path:
    """The newest installed PostgreSQL's bin folder, installing PostgreSQL if there is none."""
    found = list(Path("/usr/lib/postgresql").glob("*/bin"))
    if not found:
        apt_install("postgresql")
        found = list(Path("/usr/lib/postgresql").glob("*/bin"))
    return max(found, key=lambda folder: int(folder.parent.name))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """One PostgreSQL server in a temporary folder; `start`/`stop` as often as a test needs."""

    def __init__(self, *, port: int | None = None):
        self.port = port or free_port()
        self.bin = binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="sk-pg-"))
        self.data = self.folder / "data"
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            shutil.chown(self.folder, user="postgres", group="postgres")
        self._run("initdb", "-D", str(self.data), "-U", ROLE, "--auth=trust", "-E", "UTF8")

    def _run(self, program: str, *args: str) -> subprocess.CompletedProcess:
        command = [str(self.bin / program), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        return subprocess.run(command, check=True, capture_output=True, text=True)

    def start(self) -> None:
        """Start the server and wait until it takes connections."""
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.folder / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        """Stop the server at once (fast shutdown: open connections are cut)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def running(self) -> bool:
        status = subprocess.run(
            [str(self.bin / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)]
        )
        return status.returncode == 0

    def database_url(self, name: str) -> str:
        """A new database `name` (made if missing) and the DATABASE_URL that reaches it."""
        exists = self._run(
            "psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", ROLE, "-d", "postgres",
            "-tAc", f"SELECT 1 FROM pg_database WHERE datname = '{name}'",
        )  # fmt: skip
        if not exists.stdout.strip():
            self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", ROLE, name)
        return f"postgres://{ROLE}:{ROLE}@127.0.0.1:{self.port}/{name}"

    def remove(self) -> None:
        """Stop the server if it runs and delete its folder."""
        if (self.data / "postmaster.pid").exists():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "Cluster":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def wait_for(condition, *, timeout: float, step: float = 0.1) -> float:
    """Seconds until `condition()` was true, polling every `step`; TimeoutError after `timeout`."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > timeout:
            raise TimeoutError(f"not true after {timeout} s: {condition}")
        time.sleep(step)
    return time.monotonic() - started


def process_stop(process: subprocess.Popen, *, timeout: float = 10) -> None:
    """Ask a process to stop (SIGTERM), and kill it if it has not within `timeout` seconds."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
