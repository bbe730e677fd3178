"""The app as production runs it, on a database of our own: the Procfile's `release` steps, static
files collected for WhiteNoise, then the Procfile's `web` line (gunicorn) with DEBUG off and a
freshly generated secret key, on loopback.

Production sits behind TLS; here requests are plain HTTP on 127.0.0.1, so DJANGO_SECURE_SSL_REDIRECT
is off and the HTTP clients send the secure session cookie over loopback (`LoopbackSession`)."""

import http.cookiejar
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import psutil
import requests

from tools.pg_cluster import free_port, process_stop, wait_for

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def app_environment(*, database_url: str, data_dir: Path, workers: int = 2) -> dict[str, str]:
    """The environment of a production process, as a platform would set it."""
    return {
        **os.environ,
        "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "DATABASE_URL": database_url,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_DATA_DIR": str(data_dir),
        "DJANGO_MEDIA_ROOT": str(data_dir / "media"),
        "DJANGO_LOG_LEVEL": "WARNING",
        "WEB_CONCURRENCY": str(workers),
    }


def procfile(process: str) -> str:
    """The command of one process type in the Procfile."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        if name.strip() == process:
            return command.strip()
    raise LookupError(f"no {process!r} in the Procfile")


def manage(environment: dict[str, str], *args: str) -> str:
    """Run `manage.py` with the app's environment; its output."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def release(environment: dict[str, str]) -> None:
    """The Procfile's release steps and collectstatic (which a build step runs before them)."""
    manage(environment, "collectstatic", "--noinput", "--verbosity", "0")
    subprocess.run(procfile("release"), shell=True, cwd=ROOT, env=environment, check=True)


class App:
    """gunicorn started by the Procfile's web line; `url`, `pid`, `workers()`, `stop()`.

    `folder`: the process's working folder, the checkout by default. An instance of several
    gets an empty one of its own, so that nothing it writes relative to it is shared."""

    def __init__(self, environment: dict[str, str], *, log: Path, folder: Path = ROOT):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # The Procfile binds every interface; the load test keeps to loopback.
        command = procfile("web").replace("0.0.0.0", "127.0.0.1")
        command = re.sub(r"--access-logfile -\s*", "", command)  # 100,000 lines nobody reads
        self.log = log.open("w")
        self.process = subprocess.Popen(
            ["bash", "-c", f"exec {command}"],
            cwd=folder,
            # gunicorn finds the app on the path when it runs elsewhere than the checkout.
            env={**environment, "PORT": str(self.port), "PYTHONPATH": str(ROOT)},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.pid = self.process.pid
        wait_for(self.answers, timeout=60, step=0.2)

    def answers(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(
                f"gunicorn exited with {self.process.returncode}: see {self.log.name}"
            )
        try:
            return requests.get(f"{self.url}/healthz", timeout=5).status_code == 200
        except requests.RequestException:  # not listening yet, or a worker still booting
            return False

    def workers(self) -> list[psutil.Process]:
        return psutil.Process(self.pid).children()

    def stop(self) -> None:
        process_stop(self.process, timeout=30)
        self.log.close()

    def __enter__(self) -> "App":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


class LoopbackCookies(http.cookiejar.DefaultCookiePolicy):
    """Send secure cookies to 127.0.0.1 over plain HTTP, as browsers do for localhost: in
    production the TLS proxy stands where this loopback is."""

    def return_ok_secure(self, cookie, request):
        return True


class LoopbackCookiesMixin:
    """For a requests.Session (or Locust's HttpSession): the Cookie header made from the
    session's own jar under LoopbackCookies. requests merges the jar into a fresh one with the
    default policy, which would leave the secure session cookie out. Redirects are not
    followed with the cookies: the clients here ask with allow_redirects=False."""

    def prepare_request(self, request):
        self.cookies.set_policy(LoopbackCookies())
        prepared = super().prepare_request(request)
        prepared.headers.pop("Cookie", None)
        prepared.prepare_cookies(self.cookies)
        return prepared


class LoopbackSession(LoopbackCookiesMixin, requests.Session):
    pass


def log_in(session: requests.Session, base_url: str, username: str, password: str) -> None:
    """Log in through the real login form (its CSRF token included)."""
    login = f"{base_url}/accounts/login/"
    page = session.get(login, timeout=30, allow_redirects=False)
    answer = session.post(
        login,
        data={"username": username, "password": password, "csrfmiddlewaretoken": csrf(page.text)},
        timeout=30,
        allow_redirects=False,
    )
    if answer.status_code != 302:
        raise RuntimeError(f"login as {username} answered {answer.status_code}")


def csrf(html: str) -> str:
    """The CSRF token a page carries (in a form or in the body's hx-headers)."""
    found = re.search(r'csrfmiddlewaretoken" value="([^"]+)"', html) or re.search(
        r'X-CSRFToken&quot;: &quot;([^&]+)&quot;|"X-CSRFToken": "([^"]+)"', html
    )
    if found is None:
        raise LookupError("no CSRF token on the page")
    return next(group for group in found.groups() if group)
