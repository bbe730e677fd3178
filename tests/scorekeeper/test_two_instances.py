"""Two instances of the app behind a real nginx (tools/loadtest/instances.py), as stateless
instances run in production: one PostgreSQL, one object store for photos, nothing on either
instance's disk that the other needs. Every request goes through the proxy; `X-Instance` picks
the instance where a test needs one, and nginx names the one that answered.

Needs root (PostgreSQL runs as `postgres`), Debian's PostgreSQL and nginx (installed when
missing); `make test` leaves it out (marker `postgres_server`), `.ci/run` runs it. The last test
kills an instance: it stays last in the module."""

import itertools
import json
import re
import signal
import threading
import time
from pathlib import Path

import psutil
import pytest
import requests

from tools.loadtest.instances import Stack, session_from
from tools.loadtest.run import consistency
from tools.loadtest.server import LoopbackSession, csrf, manage
from tools.pg_cluster import wait_for

pytestmark = pytest.mark.postgres_server

PHOTO = Path(__file__).parents[1] / "recognition" / "photos" / "phone_010.jpg"
# The seeded tables, by what each test does with them (a test's taps never meet another's).
PHOTO_TABLE, LIVE_TABLE, STALE_TABLE, THROTTLE_TABLE = 0, 1, 2, 3
KILL_TABLES = [4, 5, 6]


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    with Stack(tmp_path_factory.mktemp("instances")) as stack:
        yield stack


@pytest.fixture(scope="module")
def seeded(stack, tmp_path_factory):
    """seed_load's tables, with their tablets' accounts and sessions."""
    out = tmp_path_factory.mktemp("seeded") / "tables.json"
    manage(stack.environment, "seed_load", "--tables", "7", "--out", str(out), "--prefix", "two")
    return json.loads(out.read_text()) | {"path": out}


def on(instance: str) -> dict[str, str]:
    """The header that sends a request to one instance."""
    return {"X-Instance": instance}


def tablet(seeded: dict, table: int, which: str = "a") -> LoopbackSession:
    """A session of the table's tablet `which`, logged in earlier (seed_load's session)."""
    username = seeded["tables"][table]["tablets"][0 if which == "a" else 1]
    session = LoopbackSession()
    session.cookies.set("sessionid", seeded["sessions"][username][0], domain="127.0.0.1")
    return session


def version_of(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def etag_of(html: str) -> str:
    return re.search(r'data-etag="([^"]+)"', html).group(1).replace("&quot;", '"')


def tap(session, stack, table: dict, action: str, *, version, token, instance=None, **data):
    """A tap of the round screen, as htmx sends it; to `instance`, or to either."""
    return session.post(
        f"{stack.url}/tables/{table['table']}/{action}/",
        data={"version": version, **data},
        headers={"X-CSRFToken": token, "HX-Request": "true", **(on(instance) if instance else {})},
        allow_redirects=False,
        timeout=10,
    )


def test_a_member_who_signs_up_on_one_instance_is_recognised_on_the_other(stack):
    member = session_from("127.0.0.1")
    page = member.get(f"{stack.url}/accounts/signup/", headers=on("a"), timeout=10)
    signed_up = member.post(
        f"{stack.url}/accounts/signup/",
        data={
            "username": "between-instances",
            "password1": "Tab1e-talk-across!",
            "password2": "Tab1e-talk-across!",
            "csrfmiddlewaretoken": csrf(page.text),
        },
        headers=on("a"),
        allow_redirects=False,
        timeout=10,
    )
    assert signed_up.status_code == 302, signed_up.text
    assert stack.answered_by(signed_up) == "a"

    account = member.get(f"{stack.url}/accounts/settings/", headers=on("b"), allow_redirects=False)
    assert account.status_code == 200
    assert stack.answered_by(account) == "b"
    assert "signed in as <strong>between-instances</strong>" in account.text


def test_a_photo_taken_on_one_instance_is_in_the_bucket_read_shown_and_deleted_on_the_other(
    stack, seeded
):
    table = seeded["tables"][PHOTO_TABLE]
    scorer = tablet(seeded, PHOTO_TABLE)
    checker = scorer.get(f"{stack.url}/tables/{table['table']}/check/", headers=on("a"))
    before = stack.store.keys()
    taken = scorer.post(
        f"{stack.url}/tables/{table['table']}/photos/",
        data={"csrfmiddlewaretoken": csrf(checker.text)},
        files={"photo": (PHOTO.name, PHOTO.read_bytes(), "image/jpeg")},
        headers=on("a"),
        timeout=30,
    )
    assert taken.status_code == 200
    assert stack.answered_by(taken) == "a"
    photo = re.search(r'name="photo" value="(\d+)"', taken.text).group(1)
    (upload,) = stack.store.keys() - before

    # A worker of either instance reads it from the bucket; the page asks b until it is read.
    def read():
        reading = scorer.get(f"{stack.url}/photos/{photo}/reading/", headers=on("b"), timeout=10)
        assert reading.status_code in (200, 204)
        return reading.status_code == 200

    wait_for(read, timeout=30, step=0.5)
    (key,) = stack.store.keys() - before  # the upload, re-encoded without its EXIF
    assert key.startswith("photos/") and key != upload
    # Nothing was written on either instance's own disk.
    for instance in ("a", "b"):
        assert not [p for p in (stack.folder / f"instance-{instance}").rglob("*") if p.is_file()]

    shown = scorer.get(f"{stack.url}/photos/{photo}/", headers=on("b"), timeout=10)
    assert shown.status_code == 200
    assert stack.answered_by(shown) == "b"
    kept = stack.store.client().get_object(Bucket=stack.store.bucket, Key=key)["Body"].read()
    assert shown.content == kept
    assert shown.content.startswith(b"\xff\xd8")  # a JPEG

    deleted = scorer.post(
        f"{stack.url}/photos/{photo}/delete/",
        data={"csrfmiddlewaretoken": csrf(checker.text), "back": "photos"},
        headers=on("b"),
        allow_redirects=False,
        timeout=10,
    )
    assert deleted.status_code == 302
    assert stack.answered_by(deleted) == "b"
    assert stack.store.keys() == before  # its object is gone
    gone = scorer.get(f"{stack.url}/photos/{photo}/", headers=on("a"), timeout=10)
    assert gone.status_code == 404


def test_a_tap_on_one_instance_reaches_a_screen_polling_the_other_within_two_seconds(stack, seeded):
    table = seeded["tables"][LIVE_TABLE]
    # The round screen of the second tablet, on instance b, as the page polls: its signed poll
    # address and the ETag of what it shows.
    screen = tablet(seeded, LIVE_TABLE, "b")
    page = screen.get(f"{stack.url}/tables/{table['table']}/", headers=on("b"))
    poll = re.search(r'id="live" hx-get="([^"]+)"', page.text).group(1).replace("&amp;", "&")
    shown = etag_of(page.text)

    def polled():
        headers = on("b") | {"HX-Request": "true", "If-None-Match": shown}
        return screen.get(f"{stack.url}{poll}", headers=headers, timeout=10)

    unchanged = polled()
    assert unchanged.status_code == 304
    assert stack.answered_by(unchanged) == "b"

    scorer = tablet(seeded, LIVE_TABLE)
    play = scorer.get(f"{stack.url}/tables/{table['table']}/", headers=on("a"))
    version = version_of(play.text)
    tapped = tap(
        scorer, stack, table, "may-i", version=version, token=csrf(play.text),
        instance="a", seat=table["seats"][0],
    )  # fmt: skip
    assert tapped.status_code == 200
    assert 'class="message refusal"' not in tapped.text
    tapped_at = time.monotonic()
    changed = polled()
    while changed.status_code == 304 and time.monotonic() - tapped_at < 2:
        time.sleep(0.1)
        changed = polled()
    assert changed.status_code == 200, "the screen did not see the tap within 2 s"
    assert stack.answered_by(changed) == "b"
    assert version_of(changed.text) == version + 1
    assert "called May I?" in changed.text


def test_a_stale_tap_is_refused_on_the_other_instance(stack, seeded):
    table = seeded["tables"][STALE_TABLE]
    first, second = tablet(seeded, STALE_TABLE, "a"), tablet(seeded, STALE_TABLE, "b")
    pages = {
        name: session.get(f"{stack.url}/tables/{table['table']}/", headers=on(name))
        for name, session in (("a", first), ("b", second))
    }
    version = version_of(pages["a"].text)
    assert version_of(pages["b"].text) == version
    accepted = tap(
        first, stack, table, "may-i", version=version, token=csrf(pages["a"].text),
        instance="a", seat=table["seats"][1],
    )  # fmt: skip
    assert accepted.status_code == 200
    assert stack.answered_by(accepted) == "a"

    # The second tablet still shows the old version, and taps on instance b.
    stale = tap(
        second, stack, table, "shanghai", version=version, token=csrf(pages["b"].text),
        instance="b", seat=table["seats"][2],
    )  # fmt: skip
    assert stale.status_code == 409
    assert stack.answered_by(stale) == "b"
    assert 'class="message refusal"' in stale.text
    assert version_of(stale.text) == version + 1  # the fresh table, with what changed
    assert "called May I?" in stale.text


def log_in_attempt(client, stack, instance: str, username: str, password: str):
    page = client.get(f"{stack.url}/accounts/login/", headers=on(instance), timeout=10)
    return client.post(
        f"{stack.url}/accounts/login/",
        data={"username": username, "password": password, "csrfmiddlewaretoken": csrf(page.text)},
        headers=on(instance),
        allow_redirects=False,
        timeout=10,
    )


def test_wrong_passwords_are_counted_across_both_instances(stack, seeded):
    username = seeded["tables"][THROTTLE_TABLE]["tablets"][0]
    guesser = session_from("127.0.0.2")
    answers = [
        log_in_attempt(guesser, stack, instance, username, "not-the-password")
        for instance in "abab"
    ]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 200]
    assert [stack.answered_by(answer) for answer in answers] == list("abab")
    # The fifth, on instance a, is the limit: locked, whichever instance is asked next.
    assert log_in_attempt(guesser, stack, "a", username, "still-not-it").status_code == 429
    locked = log_in_attempt(guesser, stack, "b", username, seeded["password"])
    assert locked.status_code == 429
    assert "Too many attempts" in locked.text


def test_two_clients_behind_the_proxy_are_throttled_apart(stack, seeded):
    """The lockout by address counts the client's address (X-Forwarded-For), not the proxy's."""
    username = seeded["tables"][THROTTLE_TABLE]["tablets"][1]
    guesser, neighbour = session_from("127.0.0.3"), session_from("127.0.0.4")
    # Five wrong passwords for the account: it is locked at the guesser's address...
    statuses = [
        log_in_attempt(guesser, stack, "ab"[n % 2], username, "guess").status_code for n in range(5)
    ]
    assert statuses == [200, 200, 200, 200, 429]
    assert log_in_attempt(guesser, stack, "b", username, seeded["password"]).status_code == 429

    # ...not at the neighbour's, another address through the same proxy.
    logged_in = log_in_attempt(neighbour, stack, "a", username, seeded["password"])
    assert logged_in.status_code == 302
    assert neighbour.get(f"{stack.url}/accounts/settings/", headers=on("b")).status_code == 200


class Traffic:
    """Threads playing tables and polling their screens through the proxy (round robin), each
    request noted with when it was sent and answered, its status and who answered; the taps also
    as the load test records them, for the consistency check."""

    # A contract: two May I?s, someone goes out, the scores; seven contracts make a game.
    STEPS = ("may-i", "may-i", "went-out", "score")
    KINDS = {"may-i": ["may_i"], "went-out": ["went_out"], "score": ["round_scored"]}

    def __init__(self, stack, seeded, tables: list[int]):
        self.stack, self.seeded = stack, seeded
        self.requests, self.writes = [], []
        self.running = True
        self.threads = [
            threading.Thread(target=target, args=(table,), daemon=True)
            for table in tables
            for target in (self.play, self.follow)
        ]

    def send(self, name: str, method, url: str, **kwargs):
        sent = time.monotonic()
        try:
            answer = method(f"{self.stack.url}{url}", timeout=10, allow_redirects=False, **kwargs)
        except requests.RequestException:
            answer = None
        status = answer.status_code if answer is not None else 0
        instance = self.stack.answered_by(answer) if answer is not None else None
        self.requests.append((name, sent, time.monotonic(), status, instance))
        return answer

    def play(self, index: int):
        table = self.seeded["tables"][index]
        session = tablet(self.seeded, index)
        page = self.send("table page", session.get, f"/tables/{table['table']}/")
        token, version = csrf(page.text), version_of(page.text)
        seats = table["seats"]
        for step in itertools.count():
            if not self.running:
                return
            action = self.STEPS[step % len(self.STEPS)]
            data = {"version": version}
            if action == "may-i":
                data["seat"] = seats[step % 2]
            elif action == "went-out":
                data["seat"] = seats[3]
            else:
                data |= {f"cards_{seat}": "K 7 3" for seat in seats[:3]}
            written = {
                "table": table["table"],
                "version": version,
                "action": action,
                "kinds": self.KINDS[action],
                "user": table["tablets"][0],
                "outcome": "unknown",
                "status": 0,
            }
            self.writes.append(written)
            headers = {"X-CSRFToken": token, "HX-Request": "true"}
            answer = self.send(
                action, session.post, f"/tables/{table['table']}/{action}/", data=data,
                headers=headers,
            )  # fmt: skip
            status = answer.status_code if answer is not None else 0
            if status in (200, 409):
                refused = status == 409 or 'class="message refusal"' in answer.text
                written.update(outcome="refused" if refused else "accepted", status=status)
                version = version_of(answer.text)
            else:  # lost in flight: saved or not, the table says which
                written["status"] = status
                page = self.send("table page", session.get, f"/tables/{table['table']}/")
                version = version_of(page.text)
            time.sleep(0.15)  # a game of 28 writes outlasts the run

    def follow(self, index: int):
        table = self.seeded["tables"][index]
        screen = tablet(self.seeded, index, "b")
        page = self.send("table page", screen.get, f"/tables/{table['table']}/")
        poll = re.search(r'id="live" hx-get="([^"]+)"', page.text).group(1).replace("&amp;", "&")
        shown = etag_of(page.text)
        while self.running:
            headers = {"HX-Request": "true", "If-None-Match": shown}
            answer = self.send("poll", screen.get, poll, headers=headers)
            if answer is not None and answer.status_code == 200:
                shown = answer.headers["ETag"]
            time.sleep(0.1)

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.running = False
        for thread in self.threads:
            thread.join(timeout=30)


def gone(processes: list[psutil.Process]) -> bool:
    """Whether every process has exited (a zombie has: its sockets are closed)."""
    for process in processes:
        try:
            if process.status() != psutil.STATUS_ZOMBIE:
                return False
        except psutil.NoSuchProcess:
            pass
    return True


def test_when_an_instance_is_killed_the_other_answers_and_nothing_is_lost(stack, seeded, tmp_path):
    app = stack.apps["a"]
    gunicorn = [psutil.Process(app.pid), *app.workers()]
    with Traffic(stack, seeded, KILL_TABLES) as traffic:
        time.sleep(2)
        # The kill takes a moment: until every process of it has exited, its listening socket
        # still takes connections, and a request queued there is cut when it closes.
        kill_sent = time.monotonic()
        for process in gunicorn:
            process.send_signal(signal.SIGKILL)
        wait_for(lambda: gone(gunicorn), timeout=10, step=0.001)
        killed = time.monotonic()
        app.process.wait(timeout=10)
        time.sleep(3)

    before = [r for r in traffic.requests if r[2] < kill_sent]
    after = [r for r in traffic.requests if r[1] > killed]
    in_flight = [r for r in traffic.requests if r[1] <= killed and r[2] >= kill_sent]
    assert {r[4] for r in before} == {"a", "b"}, "round robin used both before the kill"
    assert len([r for r in after if r[0] in Traffic.KINDS]) >= 5, "taps went on after the kill"
    # Every request sent once the instance was gone was answered by b, none with a server
    # error: a connection refused by the dead instance goes to the other.
    assert [r for r in after if r[3] == 0 or r[3] >= 500] == []
    assert {r[4] for r in after} == {"b"}
    # Of the requests in flight at the kill, nginx resends those it may (a poll, a page) to b;
    # a write already sent (nginx never resends a POST: it may have been saved) is answered
    # 502. So at most one a playing thread fails, a write, answered 502; the consistency check
    # accepts it saved or not.
    failed = [r for r in traffic.requests if r[3] == 0 or r[3] >= 500]
    assert all(r in in_flight for r in failed), failed
    assert len(failed) <= len(KILL_TABLES)
    assert all(r[3] == 502 and r[0] in Traffic.KINDS for r in failed), failed

    record, tables = tmp_path / "record.json", tmp_path / "tables.json"
    record.write_text(json.dumps({"writes": traffic.writes, "checks": {}}))
    played = [seeded["tables"][index] for index in KILL_TABLES]
    tables.write_text(json.dumps({"tables": played}))
    checked = consistency(stack.environment, record, tables)
    assert checked.returncode == 0, checked.stdout
    assert "nothing lost, nothing extra" in checked.stdout
    assert sum(w["outcome"] == "accepted" for w in traffic.writes) > 10
