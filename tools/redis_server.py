"""A throwaway Redis: Debian's redis-server (installed with apt when missing, as
tools/pg_cluster.py installs PostgreSQL), started as a process of its own on a free loopback
port, in a temporary folder, keeping nothing on disk.

    with RedisServer() as server:
        server.url                 # redis://127.0.0.1:<port>/0
        server.environment()       # DJANGO_CACHE_URL, what an app process needs to share it
        server.stop(); server.start()
        server.remove()            # stopped, its folder deleted (what leaving `with` does)

It keeps its keys in memory only (no snapshot, no append-only file): a stop forgets them.
"""

import shutil
import subprocess
import tempfile
from pathlib import Path

import redis

from tools.pg_cluster import debian_binary, free_port, process_stop, wait_for


def redis_binary() -> str:
    """Debian's redis-server, installing it if there is none."""
    return debian_binary("redis-server", package="redis-server", folder="/usr/bin")


class RedisServer:
    """redis-server on a free loopback port; `start`/`stop` as often as a test needs."""

    def __init__(self, *, port: int | None = None):
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.binary = redis_binary()
        self.folder = Path(tempfile.mkdtemp(prefix="sk-redis-"))
        self.process = None

    def environment(self) -> dict[str, str]:
        return {"DJANGO_CACHE_URL": self.url}

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=2)

    def start(self) -> None:
        """Start the server and wait until it answers."""
        self.log = (self.folder / "redis.log").open("a")
        self.process = subprocess.Popen(
            [
                self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
                "--dir", str(self.folder), "--save", "", "--appendonly", "no",
                "--daemonize", "no", "--loglevel", "warning",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        wait_for(self.answers, timeout=30, step=0.05)

    def answers(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(
                f"redis-server exited with {self.process.returncode}: see {self.log.name}"
            )
        try:
            return self.client().ping()
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.process is not None:
            process_stop(self.process)
            self.process = None
            self.log.close()

    def remove(self) -> None:
        """Stop the server and delete its folder."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "RedisServer":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.remove()
