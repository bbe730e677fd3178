"""A club night for Locust: per table, a tablet playing whole games through the HTTP forms, a
second tablet tapping now and then (racing the first: a 409 is an accepted answer), three
screens following the table (both tablets' round screens and the TV, each polling every
second, as the pages do), and members opening the standings and player pages; plus a client of
the trivial view (/healthz), the ceiling.

How fast the tables play: a real table taps the app ten to fifteen times a contract, and a
contract takes eight to twelve minutes, so about once every 40 s. LOADTEST_TAP_SECONDS is the
mean gap between the playing tablet's taps (10 s by default: four times a real table, every
table at a tournament's busiest); the second tablet taps about a third as often. The screens
poll every second whatever the pace: at a real club night they send most of the requests.

Driven by tools/loadtest/run.py, which sets LOADTEST_TABLES (seed_load's JSON), LOADTEST_RECORD
(where every write and its outcome is written for the consistency check),
LOADTEST_MAX_REQUESTS (the run stops after that many requests, or at --run-time),
LOADTEST_TAP_SECONDS and LOADTEST_PHOTO_SHARE.

Photos: on a share of the tables (LOADTEST_PHOTO_SHARE, none by default), the playing tablet
photographs each hand before saving the scores, as a player does: it sends the photo (a real one
of tests/recognition/photos, its bytes as they are) to the score entry's photo view, polls the
address the answer gives at the pace the page does (its hx-trigger) until the cards are read,
and only then takes the next hand's. "photo upload→marks" is the time from sending a photo to the
answer with its cards (the marks on the photo)."""

import itertools
import json
import os
import random
import re
import time
from collections import Counter
from pathlib import Path

import gevent
from locust import FastHttpUser, HttpUser, between, constant, events, task
from locust.clients import HttpSession
from locust.exception import StopUser

from tools.loadtest.server import LoopbackCookiesMixin, csrf

SEEDED = json.loads(Path(os.environ["LOADTEST_TABLES"]).read_text())
TABLES = SEEDED["tables"]
MAX_REQUESTS = int(os.environ.get("LOADTEST_MAX_REQUESTS", "0"))
TAP_SECONDS = float(os.environ.get("LOADTEST_TAP_SECONDS", "10"))
PHOTO_SHARE = float(os.environ.get("LOADTEST_PHOTO_SHARE", "0"))
PHOTO_FILES = sorted((Path(__file__).parents[2] / "tests/recognition/photos").glob("*.jpg"))
PHOTO_GIVE_UP = 180  # seconds a tablet polls one photo before saving the scores without it
SETTLE = 5
# The seed rules' seven contracts as (books, runs).
CONTRACTS = [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
BOOK_RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
RUNS = [["2", "3", "4", "5"], ["6", "7", "8", "9"], ["10", "J", "Q", "K"]]
POINTS = [5, 10, 15, 20, 25, 30, 40, 50, 65, 80]  # what hands of cards can be worth
HANDS_LEFT = ["K 7 JK", "3 3 9", "A Q", "10 10 5 2", "JK", "8"]
# Which event kinds a write may make (going down in a no-discard contract is going out).
KINDS = {
    "may_i": ["may_i"],
    "went_down": ["went_down", "went_out"],
    "melds": ["went_down", "went_out"],
    "lay_off": ["laid_off", "shanghai_claim"],
    "shanghai": ["shanghai_claim", "shanghai_protect"],
    "went_out": ["went_out"],
    "score": ["round_scored"],
    "undo": ["undo"],
    "round_edit": ["score_edited"],
}

RECORD: list[dict] = []  # every write: table, version sent, action, user, outcome
STATUSES: Counter = Counter()  # (request name, status) -> count
CHECKS: Counter = Counter()  # table -> questions answered (each keeps a Check row)
# The ETag of what each page shows, by (table, page). A tablet's taps and its round screen's
# polls are one page, as in the browser: a tap's answer swaps in the table with its ETag, so
# the page's next poll is answered 304 rather than sending the same table again.
SHOWN: dict[tuple[int, str], str] = {}
DEVICES = ("a", "b", "screen a", "screen b", "tv", "member", "rush")
seat_taken = {name: itertools.count() for name in DEVICES}


def page_etag(html: str | None) -> str:
    """The ETag a page's table carries (data-etag), as its poll sends it back."""
    etag = re.search(r'data-etag="([^"]+)"', html or "")
    return etag.group(1).replace("&quot;", '"') if etag else ""


class LoopbackHttpSession(LoopbackCookiesMixin, HttpSession):
    pass


UNCHANGED_POLLS: list[float] = []  # ms of each 304 answer to a screen's poll
LOGINS: list[float] = []  # ms of each login (a password hash: once a device a night)
# Every request of a tablet or member (not the screens' polls nor the trivial view), as
# [seconds since the epoch, name, status, ms]: what was answered during a given span (a worker
# stopped, say). Reset with the figures, like Locust's.
TIMELINE: list[list] = []
PHOTOS: list[dict] = []  # each photo sent: when, its ms to the marks (None: never read), 204s
POLLED = ("live poll", "tv poll", "trivial view (/healthz)")
PHOTO_EVENT = "photo"  # the request type of "photo upload→marks", which is no request
ready = itertools.count(1)
members = itertools.count()
_environment = None


@events.init.add_listener
def keep_environment(environment, **kwargs):
    global _environment
    _environment = environment


@events.request.add_listener
def count(name, response, exception, response_time, request_type="", **kwargs):
    if request_type == PHOTO_EVENT:
        return
    status = getattr(response, "status_code", 0) or 0
    if name not in POLLED:
        TIMELINE.append([time.time(), name, status, response_time])
    STATUSES[f"{name} {status}"] += 1
    if name in ("live poll", "tv poll") and status == 304:
        UNCHANGED_POLLS.append(response_time)
    if name == "log in":
        LOGINS.append(response_time)
    if MAX_REQUESTS and STATUSES.total() == MAX_REQUESTS:
        gevent.spawn(_environment.runner.quit)


@events.quitting.add_listener
def write_record(environment, **kwargs):
    with open(os.environ["LOADTEST_RECORD"], "w") as out:
        json.dump(
            {
                "writes": RECORD,
                "statuses": dict(STATUSES),
                "checks": dict(CHECKS),
                "unchanged_polls": UNCHANGED_POLLS,
                "logins": LOGINS,
                "timeline": TIMELINE,
                "photos": PHOTOS,
            },
            out,
            indent=0,
        )


def melds_for(contract: int, seat: int) -> tuple[str, str]:
    """A legal going-down for the contract (different cards for each seat), and a card that
    lays off on its first meld."""
    books, runs = CONTRACTS[contract - 1]
    melds = []
    for k in range(books):
        rank = BOOK_RANKS[(3 * seat + k) % len(BOOK_RANKS)]
        melds.append(f"{rank}H {rank}S {rank}D")
    suit = "HSDC"[seat]
    melds += [" ".join(f"{rank}{suit}" for rank in RUNS[k]) for k in range(runs)]
    lay_off = f"{BOOK_RANKS[3 * seat % len(BOOK_RANKS)]}C" if books else f"6{suit}"
    return " | ".join(melds), lay_off


def device_ready():
    """Once every device is ready (the one logging in through the form too: its password hash is
    deliberately slow, and LOGINS keeps its time apart) and SETTLE seconds more have passed for
    the requests queued by every device opening its page at once to be answered, the figures
    start again: they are of the night, not of its start (at a club, devices arrive over an
    hour)."""
    if next(ready) == USERS - Ceiling.fixed_count:
        gevent.spawn_later(SETTLE, reset_figures)


def reset_figures():
    _environment.stats.reset_all()
    UNCHANGED_POLLS.clear()
    TIMELINE.clear()


class Table(HttpUser):
    """What every client of one table shares: logging in and reading the table's state."""

    abstract = True
    tablet = "a"
    page = None  # the page it shares with a round screen (SHOWN), if one polls
    session = 0  # which of the account's seeded sessions; None: log in through the form

    def log_in(self):
        login = self.client.get("/accounts/login/", name="login page")
        self.client.post(
            "/accounts/login/",
            data={
                "username": self.username,
                "password": SEEDED["password"],
                "csrfmiddlewaretoken": csrf(login.text),
            },
            name="log in",
            allow_redirects=False,
        )

    def on_start(self):
        self.client = LoopbackHttpSession(
            base_url=self.host, request_event=self.client.request_event, user=self
        )
        self.sit_at(TABLES[next(seat_taken[self.role]) % len(TABLES)])
        device_ready()

    def sit_at(self, table: dict):
        """Open `table` on this device, as one of its tablets."""
        self.table = table
        self.pk = self.table["table"]
        self.username = self.table["tablets"][0 if self.tablet == "a" else 1]
        self.token = ""
        if self.session is None:
            self.log_in()
        else:  # a device that logged in earlier in the evening
            key = SEEDED["sessions"][self.username][self.session]
            self.client.cookies.set("sessionid", key, domain="127.0.0.1", path="/")
        self.version, self.contract, self.scoring, self.over = 0, 1, False, False
        self.hands = []
        self.read_table()

    def read_table(self):
        page = self.client.get(f"/tables/{self.pk}/", name="table page")
        if page.status_code == 200 and "X-CSRFToken" in page.text:
            self.token = csrf(page.text)
            self.learn(page.text)
        return page

    def learn(self, html: str):
        """The table's state as the page shows it."""
        if found := re.search(r'data-version="(\d+)"', html):
            self.version = int(found.group(1))
        if found := re.search(r"<h1>Contract (\d+) of", html):
            self.contract = int(found.group(1))
        self.scoring = "table-screen scoring" in html
        self.over = "<h1>Game over</h1>" in html
        # The hands score entry asks for: not that of whoever went out.
        self.hands = [
            int(seat) for seat in re.findall(r'class="hand-entry" data-seat="(\d+)"', html)
        ]
        if self.page and (etag := page_etag(html)):
            SHOWN[(self.pk, self.page)] = etag

    def write(self, action: str, url: str, data: dict, *, htmx: bool = True):
        """POST a write with the version this screen shows; record what became of it."""
        sent = data.setdefault("version", self.version)
        headers = {"X-CSRFToken": self.token} | ({"HX-Request": "true"} if htmx else {})
        # Recorded before it is sent: a write still in flight when the run stops stays
        # "unknown" (saved or not, the check accepts either), never missing from the record.
        written = {
            "table": self.pk,
            "version": int(sent),
            "action": action,
            "kinds": KINDS[action],
            "user": self.username,
            "outcome": "unknown",
            "status": 0,
        }
        RECORD.append(written)
        with self.client.post(
            url, data=data, headers=headers, name=action, allow_redirects=False, catch_response=True
        ) as answer:
            status = answer.status_code
            if status in (200, 302, 409):
                answer.success()  # a refusal is a correct answer, not an error
            # A tap (htmx) answers the fresh table, with the reason if it was refused; a form
            # answers a redirect when saved, else the form again with the reason.
            refused = 'class="message refusal"' in (answer.text or "")
            if status >= 500 or status == 0:
                outcome = "unknown"  # lost in flight: saved or not, the check accepts either
            elif status == 302 or (htmx and status == 200 and not refused):
                outcome = "accepted"
            else:
                outcome = "refused"
            written.update(outcome=outcome, status=status)
            if status in (200, 409) and htmx:
                self.learn(answer.text)
            elif outcome == "accepted":
                self.version = int(sent) + 1
            return answer


class TabletA(Table):
    """The table's main tablet: plays the whole game, contract by contract, a tap or a question
    every TAP_SECONDS on average."""

    role, tablet, page = "a", "a", "a"
    wait_time = between(TAP_SECONDS / 2, 3 * TAP_SECONDS / 2)

    def on_start(self):
        super().on_start()
        self.steps = []
        # Which tables take photos: every n-th, n = 1 / share (one in four at 0.25).
        index = TABLES.index(self.table)
        self.photographs = PHOTO_SHARE > 0 and index % round(1 / PHOTO_SHARE) == 0

    @task
    def play(self):
        if self.over:
            self.member_pages()
            return
        if not self.steps:
            self.steps = self.round_steps()
        self.steps.pop(0)()

    def round_steps(self):
        if self.scoring:
            steps = [self.score]
            if self.contract > 1 and random.random() < 0.3:
                steps.append(self.round_edit)
            return steps
        seat = random.randrange(4)
        seats = self.table["seats"]
        steps = [self.may_i] * random.randint(0, 3)  # a third in a round is refused
        steps += [self.ask_hint, lambda: self.go_down(seat)]
        if self.contract not in (7,):  # in contract 7 going down is going out
            steps += [lambda: self.lay_off(seat)]
            if random.random() < 0.5:
                other = seats[(seat + 1) % 4]
                steps.append(lambda: self.write_tap("shanghai", seat=other, discarder=seats[seat]))
            if random.random() < 0.5:
                steps.append(lambda: self.write_tap("went_down", seat=seats[(seat + 2) % 4]))
            if random.random() < 0.2:
                steps += [self.may_i, lambda: self.write_tap("undo")]
            steps.append(lambda: self.write_tap("went_out", seat=seats[seat]))
        return steps

    def write_tap(self, action: str, **data):
        url = f"/tables/{self.pk}/{action.replace('_', '-')}/"
        return self.write(action, url, data)

    def may_i(self):
        self.write_tap("may_i", seat=random.choice(self.table["seats"]))

    def ask(self, question: str, cards: str, **extra):
        """A question to the table's checker; every answer is kept as a Check row."""
        data = {"question": question, "cards": cards, **extra}
        answer = self.client.post(
            f"/tables/{self.pk}/check/",
            data=data,
            headers={"X-CSRFToken": self.token},
            name=f"check {question}",
            allow_redirects=False,
        )
        if answer.status_code == 200 and 'class="verdict' in answer.text:  # a Check was kept
            CHECKS[str(self.pk)] += 1
        return answer

    def ask_hint(self):
        self.ask("hint", "7H 7S 7D 8C 9C 10C JC KH KD 2S JK")

    def go_down(self, seat: int):
        melds, _ = melds_for(self.contract, seat)
        self.ask("down", melds)
        self.write(
            "melds",
            f"/tables/{self.pk}/melds/",
            {"seat": self.table["seats"][seat], "melds": melds},
            htmx=False,
        )

    def lay_off(self, seat: int):
        _, card = melds_for(self.contract, seat)
        answer = self.ask("layoff", card, target=0)
        meld = re.search(r'name="meld" value="(\d+)"', answer.text or "")
        if meld:
            data = {"seat": self.table["seats"][seat], "melds": card, "meld": meld.group(1)}
            self.write("lay_off", f"/tables/{self.pk}/lay-off/", data, htmx=False)

    def score(self):
        data = {f"cards_{seat}": random.choice(HANDS_LEFT) for seat in self.table["seats"]}
        if self.photographs:
            if not self.hands:  # scoring began with a form's redirect: the page shows the hands
                self.read_table()
            for seat in list(self.hands):
                self.photograph(seat, data)
        self.write("score", f"/tables/{self.pk}/score/", data)

    def photograph(self, seat: int, typed: dict):
        """Send a photo of `seat`'s hand with what was typed, then poll it every second until
        its cards are read; the time from sending to the cards, as "photo upload→marks"."""
        photo = random.choice(PHOTO_FILES)
        sent = time.time()
        answer = self.client.post(
            f"/tables/{self.pk}/score/photo/",
            data={**typed, "version": self.version, "photo_seat": seat},
            files={f"photo_{seat}": (photo.name, photo.read_bytes(), "image/jpeg")},
            headers={"X-CSRFToken": self.token, "HX-Request": "true"},
            name="photo upload",
            allow_redirects=False,
        )
        reading = re.search(
            r'hx-get="(/photos/\d+/reading/)" hx-trigger="every (\d+)ms"', answer.text or ""
        )
        kept = {"at": sent, "ms": None, "waiting_polls": 0}
        PHOTOS.append(kept)
        if answer.status_code == 200 and reading is None and "photo-result" in answer.text:
            # Read in the request (no worker): the answer is the marked page itself.
            self.photo_marked(kept, 1000 * (time.time() - sent))
            return
        if answer.status_code != 200 or reading is None:
            # Refused (the round was scored meanwhile, say): why, for the report.
            why = re.search(r'class="message refusal"[^>]*>([^<]*)<', answer.text or "")
            kept["refused"] = why.group(1) if why else f"status {answer.status_code}"
            return
        while time.time() - sent < PHOTO_GIVE_UP:
            gevent.sleep(int(reading.group(2)) / 1000)  # the pace photo_reading.html polls at
            poll = self.client.get(
                reading.group(1), headers={"HX-Request": "true"}, name="photo reading poll"
            )
            if poll.status_code == 204:
                kept["waiting_polls"] += 1
            elif poll.status_code == 200 and "photo-result" in poll.text:
                self.photo_marked(kept, 1000 * (time.time() - sent))
                return

    def photo_marked(self, kept: dict, ms: float):
        kept["ms"] = ms
        events.request.fire(
            request_type=PHOTO_EVENT,
            name="photo upload→marks",
            response_time=ms,
            response_length=0,
            response=None,
            exception=None,
            context={},
        )

    def round_edit(self):
        number = self.contract - 1
        url = f"/tables/{self.pk}/rounds/{number}/edit/"
        page = self.client.get(url, name="round edit page")
        version = re.search(r'name="version" value="(\d+)"', page.text or "")
        if page.status_code == 200 and version:
            data = {f"points_{seat}": random.choice(POINTS) for seat in self.table["seats"]}
            self.write("round_edit", url, {"version": version.group(1), **data}, htmx=False)

    def member_pages(self):
        self.client.get(f"/clubs/{self.table['club']}/standings/", name="standings")
        self.client.get(f"/players/{random.choice(self.table['players'])}/", name="player page")


class TabletB(TabletA):
    """The second tablet: now and then a May I? or a Shanghai protect, sometimes from a screen
    that is seconds old, racing the first tablet."""

    role, tablet, page = "b", "b", "b"
    wait_time = between(3 * TAP_SECONDS / 2, 4 * TAP_SECONDS)

    @task
    def play(self):
        if random.random() < 0.5:
            self.read_table()
        else:
            gevent.sleep(random.uniform(0, 1.5))  # a screen left a moment before tapping
        if self.over:
            return
        if random.random() < 0.7:
            self.may_i()
        else:
            self.write_tap("shanghai", seat=random.choice(self.table["seats"]))


class Screen(FastHttpUser):
    """A screen following one table, polling every second with the ETag of what it shows: a
    tablet's round screen (signed in, the poll address the page gives) or the TV (its link).
    Locust's lighter client: screens send most of the night's requests."""

    abstract = True
    wait_time = constant(1)
    tablet = "a"
    poll_name = "live poll"

    def on_start(self):
        self.table = TABLES[next(seat_taken[self.role]) % len(TABLES)]
        self.pk = self.table["table"]
        self.open()
        device_ready()

    def open(self):
        username = self.table["tablets"][0 if self.tablet == "a" else 1]
        self.headers = {"Cookie": f"sessionid={SEEDED['sessions'][username][0]}"}
        page = self.client.get(f"/tables/{self.pk}/", headers=self.headers, name="table page")
        poll = re.search(r'id="live" hx-get="([^"]+)"', page.text or "")
        self.poll_url = poll.group(1).replace("&amp;", "&") if poll else f"/tables/{self.pk}/live/"
        SHOWN[(self.pk, self.page)] = page.headers.get("ETag") or page_etag(page.text)

    @task
    def poll(self):
        shown = (self.pk, self.page)
        headers = self.headers | {"HX-Request": "true", "If-None-Match": SHOWN[shown]}
        answer = self.client.get(self.poll_url, headers=headers, name=self.poll_name)
        if answer.status_code == 200:
            SHOWN[shown] = answer.headers.get("ETag") or SHOWN[shown]


class TabletScreenA(Screen):
    role, tablet, page = "screen a", "a", "a"


class TabletScreenB(Screen):
    role, tablet, page = "screen b", "b", "b"


class TvScreen(Screen):
    """The TV: no account, the table's link."""

    role, page = "tv", "tv"
    poll_name = "tv poll"

    def open(self):
        self.headers = {}
        self.poll_url = f"/tv/{self.table['tv']}/"
        page = self.client.get(self.poll_url, name="tv page")
        SHOWN[(self.pk, self.page)] = page.headers.get("ETag") or page_etag(page.text)


class Member(Table):
    """A player between rounds: the standings, a player's page, a season's standings. The first
    logs in through the form (a password hash, deliberately slow), the others were logged in
    earlier in the evening."""

    role = "member"
    tablet = "b"
    session = 1

    def on_start(self):
        if next(members) == 0:
            self.session = None
        super().on_start()

    wait_time = between(3, 8)

    @task
    def standings(self):
        self.client.get(f"/clubs/{self.table['club']}/standings/", name="standings")
        self.client.get(f"/seasons/{self.table['season']}/standings/", name="season standings")
        self.client.get(f"/players/{random.choice(self.table['players'])}/", name="player page")


class Ceiling(FastHttpUser):
    """The trivial view on the same stack, at twice the pace of a screen."""

    wait_time = constant(0.5)

    @task
    def healthz(self):
        self.client.get("/healthz", name="trivial view (/healthz)")


class ScoreRush(TabletA):
    """Score entry at its ceiling, in a run of its own with as many clients as gunicorn has
    threads and no pause: on a table of its own, who went out, then everyone's cards, contract
    after contract, and on to an unplayed table when the game is over."""

    role = "rush"
    wait_time = constant(0)

    def on_start(self):
        super().on_start()
        self.client.headers["Connection"] = "close"  # see TrivialRush

    @task
    def play(self):
        if self.over:
            taken = next(seat_taken[self.role])
            if taken >= len(TABLES):
                raise StopUser()
            self.sit_at(TABLES[taken])
        if self.scoring:
            self.score()
        else:
            self.write_tap("went_out", seat=self.table["seats"][0])


class TrivialRush(FastHttpUser):
    """The trivial view at its ceiling, the same way. A connection a request, for both rushes:
    a gunicorn worker keeps every connection it accepts, and one worker can accept them all,
    leaving the other idle; a new connection goes to whichever worker takes it first."""

    wait_time = constant(0)

    @task
    def healthz(self):
        headers = {"Connection": "close"}
        self.client.get("/healthz", headers=headers, name="trivial view (/healthz)")


# Which of these run is named on Locust's command line (run.py): the night's, or one rush.
# A table: two tablets and three screens; a member for every four tables; two ceilings.
TabletA.fixed_count = TabletB.fixed_count = len(TABLES)
TabletScreenA.fixed_count = TabletScreenB.fixed_count = TvScreen.fixed_count = len(TABLES)
Member.fixed_count = max(1, len(TABLES) // 4)
Ceiling.fixed_count = 2
USERS = 5 * len(TABLES) + Member.fixed_count + Ceiling.fixed_count
