"""Two instances of the app behind a real nginx, sharing only what production instances share:
one PostgreSQL, one object store for the photos, one Redis for the cache (DJANGO_CACHE_URL; with
`cache="database"`, the database's cache table instead), one secret key. An instance is the
Procfile's web process (gunicorn) and its worker (the task workers that read photos), both in an
empty folder of its own, with its DJANGO_DATA_DIR and DJANGO_MEDIA_ROOT inside, so nothing on
disk is shared; both trust one proxy in front (DJANGO_TRUSTED_PROXIES=1).

    with Stack(folder) as stack:
        stack.url                       # nginx: round robin over both, failing over to the other
        stack.apps["a"], stack.apps["b"]
        stack.environment               # what a manage.py command or the consistency check needs
        stack.answered_by(response)     # "a" or "b": nginx names the instance that answered
        session_from("127.0.0.2")       # a client with a loopback address of its own

A request with the header `X-Instance: a` (or `b`) goes to that instance only. nginx is Debian's
(installed with apt when missing, as tools/pg_cluster.py installs PostgreSQL), run in the
foreground with a generated configuration in a folder of its own, on a free loopback port.
"""

import contextlib
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import requests
from requests.adapters import HTTPAdapter

from tools.loadtest.server import ROOT, App, LoopbackSession, app_environment, release
from tools.object_store import ObjectStore
from tools.pg_cluster import Cluster, debian_binary, free_port, process_stop, wait_for
from tools.redis_server import RedisServer

INSTANCES = ("a", "b")
UPSTREAM_HEADER = "X-Upstream"


def nginx_binary() -> str:
    """Debian's nginx, installing nginx-light if there is none."""
    return debian_binary("nginx", package="nginx-light", folder="/usr/sbin")


def nginx_config(*, port: int, upstreams: dict[str, str], folder: Path) -> str:
    """Round robin over every upstream, one chosen by X-Instance, the answering one named."""
    servers = "".join(
        # Refused once, an instance is left out for 5 s, then tried again.
        f"        server {address} max_fails=1 fail_timeout=5s;\n"
        for address in upstreams.values()
    )
    named = "".join(
        f"    upstream {name} {{\n        server {address};\n    }}\n"
        for name, address in upstreams.items()
    )
    choices = "".join(f"        {name} {name};\n" for name in upstreams)
    return f"""\
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;

events {{
    worker_connections 1024;
}}

http {{
    log_format upstream '$remote_addr "$request" $status $upstream_addr $request_time';
    access_log {folder}/access.log upstream;

    # Bodies (photos) and answers stay in memory: the workers, run as nobody when nginx starts
    # as root, could not write temporary files in a folder of root's.
    client_max_body_size 25m;
    client_body_buffer_size 25m;
    proxy_max_temp_file_size 0;

    upstream both {{
{servers}    }}
{named}
    map $http_x_instance $instances {{
        default both;
{choices}    }}

    server {{
        listen 127.0.0.1:{port};

        location / {{
            proxy_pass http://$instances;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            # A connection refused (a dead instance) goes to the other. A request already sent
            # is retried only when it is idempotent (nginx's default): a write in flight when
            # its instance died may have been saved, and a retry would be answered "stale".
            proxy_next_upstream error timeout;
            proxy_next_upstream_tries 2;
            proxy_connect_timeout 5s;
            add_header {UPSTREAM_HEADER} $upstream_addr always;
        }}
    }}
}}
"""


class Proxy:
    """nginx in front of `upstreams` ({"a": "127.0.0.1:8001", ...}); `url`, `stop()`."""

    def __init__(self, upstreams: dict[str, str], *, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = folder / "nginx.conf"
        config.write_text(nginx_config(port=self.port, upstreams=upstreams, folder=folder))
        self.log = (folder / "nginx.out").open("w")
        self.process = subprocess.Popen(
            # -e: the error log before the configuration is read (else Debian's, in /var/log).
            [nginx_binary(), "-p", str(folder), "-c", str(config), "-e", str(folder / "error.log")],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_for(self.answers, timeout=30, step=0.1)

    def answers(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(
                f"nginx exited with {self.process.returncode}: see {self.folder}/error.log"
            )
        try:
            return requests.get(f"{self.url}/healthz", timeout=5).status_code == 200
        except requests.RequestException:
            return False

    def stop(self) -> None:
        process_stop(self.process)
        self.log.close()


class Worker:
    """The Procfile's worker line (`manage.py task_workers`), run in `folder`; `stop()`."""

    def __init__(self, environment: dict[str, str], *, log: Path, folder: Path):
        self.log = log.open("w")
        self.process = subprocess.Popen(
            # manage.py by its full name: the worker's folder is not the checkout.
            [sys.executable, str(ROOT / "manage.py"), "task_workers"],
            cwd=folder,
            env=environment,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def processes(self) -> list[psutil.Process]:
        """The worker and its processes of db_worker."""
        try:
            parent = psutil.Process(self.process.pid)
            return [parent, *parent.children(recursive=True)]
        except psutil.Error:
            return []

    def pause(self) -> None:
        """SIGSTOP to the worker and its processes: a worker that hangs, or a machine that
        stopped them; tasks wait in the queue."""
        for process in self.processes():
            with contextlib.suppress(psutil.Error):
                process.suspend()

    def resume(self) -> None:
        for process in self.processes():
            with contextlib.suppress(psutil.Error):
                process.resume()

    def stop(self) -> None:
        self.resume()  # a stopped process would not hear SIGTERM
        # It stops its own processes of db_worker when told to (SIGTERM).
        process_stop(self.process, timeout=30)
        self.log.close()


class Stack:
    """PostgreSQL, the object store, Redis (unless `cache="database"`), two instances and nginx
    in front, in `folder`."""

    def __init__(self, folder: Path, *, workers: int = 2, cache: str = "redis"):
        self.folder, self.workers, self.cache = folder, workers, cache
        self.apps: dict[str, App] = {}
        self.task_workers: list[Worker] = []
        self.cluster = self.store = self.proxy = self.redis = None

    def start(self) -> None:
        self.cluster = Cluster()
        self.cluster.start()
        self.store = ObjectStore()
        self.store.start()
        if self.cache == "redis":
            self.redis = RedisServer()
            self.redis.start()
        shared = app_environment(
            database_url=self.cluster.database_url("sk_instances"),
            data_dir=self.folder / "release",
            workers=self.workers,
        ) | {
            **self.store.environment(),
            **(self.redis.environment() if self.redis else {}),
            "DJANGO_TRUSTED_PROXIES": "1",
            # One process reading photos an instance: two in all, for a machine of two cores.
            "DJANGO_TASK_WORKERS": "1",
        }
        release(shared)
        self.environment = shared
        # Started side by side: each takes a few seconds to load the app.
        with ThreadPoolExecutor(len(INSTANCES)) as starting:
            for started in [starting.submit(self._instance, name, shared) for name in INSTANCES]:
                started.result()  # an instance that did not start raises here
        self.apps = dict(sorted(self.apps.items()))
        self.names = {f"127.0.0.1:{app.port}": name for name, app in self.apps.items()}
        upstreams = {name: f"127.0.0.1:{app.port}" for name, app in self.apps.items()}
        self.proxy = Proxy(upstreams, folder=self.folder / "nginx")
        self.url = self.proxy.url

    def _instance(self, name: str, shared: dict[str, str]) -> None:
        """Start one instance, its web process and its worker: the shared environment, a
        working folder of its own."""
        folder = self.folder / f"instance-{name}"
        folder.mkdir()
        environment = shared | {
            "DJANGO_DATA_DIR": str(folder / "data"),
            "DJANGO_MEDIA_ROOT": str(folder / "media"),
        }
        log = self.folder / f"worker-{name}.log"
        self.task_workers.append(Worker(environment, log=log, folder=folder))
        self.apps[name] = App(environment, log=self.folder / f"gunicorn-{name}.log", folder=folder)

    def answered_by(self, response: requests.Response) -> str:
        """Which instance answered: the last upstream nginx tried (it lists every one it tried,
        the one that failed first)."""
        tried = response.headers[UPSTREAM_HEADER]
        return self.names[tried.replace(" : ", ", ").split(", ")[-1]]

    def stop(self) -> None:
        if self.proxy:
            self.proxy.stop()
        for app in self.apps.values():
            app.stop()
        for worker in self.task_workers:
            worker.stop()
        if self.store:
            self.store.stop()
        if self.redis:
            self.redis.remove()
        if self.cluster:
            self.cluster.remove()

    def __enter__(self) -> "Stack":
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class SourceAddressAdapter(HTTPAdapter):
    """Connections from a chosen local address: all of 127.0.0.0/8 is loopback, so clients on
    127.0.0.2, 127.0.0.3... reach nginx as different client addresses."""

    def __init__(self, address: str, **kwargs):
        self.address = address
        super().__init__(**kwargs)

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, source_address=(self.address, 0), **kwargs)


def session_from(address: str) -> LoopbackSession:
    """A LoopbackSession whose connections leave from `address` (on loopback)."""
    session = LoopbackSession()
    session.mount("http://", SourceAddressAdapter(address))
    return session
