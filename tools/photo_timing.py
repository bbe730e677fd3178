"""Time a hand's photo on the score entry from its upload to the page with its cards marked,
against the recognizer alone on the same photo (issue #36: at most 1.2 times).

    DJANGO_DEBUG=true DJANGO_DATA_DIR=/tmp/photo-timing .venv/bin/python -m tools.photo_timing

Photos: the test photos named on the command line (default: a webcam fan of 18 cards, a webcam
shot of 9 cards, a phone photo of one card, and that 9-card shot made a 12-megapixel JPEG).
Each figure is the median of --runs (default 7) after one run to warm up, in seconds, the three
measured one after another in each run, each after a rest of REST_SECONDS (as a tablet's photo
comes to a worker and a web process that were idle); each ratio is the median of the runs'
ratios:

- **alone**: ``read_cards`` on the upload's bytes, in this process, its models loaded;
- **in the request** (``DJANGO_TASKS_BACKEND=immediate``): the score entry's upload, stored,
  read in the request and answered with the cards marked (or, where the answer polls for them,
  as the app did before issue #36, until the poll brings them);
- **with a worker**: the upload answered at once, ``task_worker`` (django-tasks-db's worker) in
  a process of its own (waiting 0.02 s when idle, as ``task_workers`` runs it; with
  DJANGO_CACHE_URL, woken by the upload's doorbell), and the page's poll at the pace its
  ``hx-trigger`` says until the marked page comes.

The tool runs on an older commit too (copy it there, with ``db_worker --no-reload`` for
``task_worker`` before it existed; ``--worker-interval 0.25`` as its ``task_workers`` waited) to
measure before and after alike.

Django's test client, no HTTP and no browser; the photo throttle is off. Uses the database the
settings name (SQLite in DJANGO_DATA_DIR), migrates it and leaves the table there. The last line
is JSON.
"""

import argparse
import io
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

PHOTOS = Path(__file__).resolve().parents[1] / "tests" / "recognition" / "photos"
DEFAULT = ["win_016.jpg", "win_029.jpg", "phone_010.jpg", "12mp"]
WORKER_IDLE_SECONDS = 0.02  # task_workers' --interval (0.25 before issue #36, then 0.1, 0.05)
# Measured back to back, the worker's reading right after the in-request one took 0.04 to 0.09 s
# longer than after a rest (docs/photo-timing.md): the rest keeps one measurement out of the next.
REST_SECONDS = 0.5


def photo_bytes(name: str) -> bytes:
    if name != "12mp":
        return (PHOTOS / name).read_bytes()
    from PIL import Image

    with Image.open(PHOTOS / "win_029.jpg") as image:
        large = image.convert("RGB").resize((4032, 3024), Image.Resampling.BICUBIC)
    buffer = io.BytesIO()
    large.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def main(names: list[str], runs: int, worker_idle: float = WORKER_IDLE_SECONDS) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from django.test import Client, override_settings
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from recognizer import read_cards
    from scorekeeper import services

    setup_test_environment()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)  # the workers' heartbeat is kept there
    user, _ = get_user_model().objects.get_or_create(username="photo-timing")
    club = services.club_create(user=user, name=f"Photo timing {time.time():.0f}")
    players = [services.player_create(user=user, club=club, name=f"P{n}") for n in range(3)]
    game = services.game_start(
        club=club,
        user=user,
        players=players,
        first_dealer=0,
        season=club.seasons.first(),
        profile=club.profiles.first(),
    )
    ann, ben, _ = game.seats.order_by("position")
    services.round_record_went_out(game=game, version=game.version, seat=ann, user=user)
    game.refresh_from_db()
    client = Client()
    client.force_login(user)

    def upload(content: bytes):
        return client.post(
            reverse("score_photo", args=[game.pk]),
            {
                "version": game.version,
                "photo_seat": ben.pk,
                f"photo_{ben.pk}": SimpleUploadedFile("hand.jpg", content),
            },
            headers={"HX-Request": "true"},
        )

    def marked(started: float, answer) -> float:
        """Seconds from `started` to the marked page: the answer itself, or the page's poll at
        the pace its hx-trigger says, from the answer on."""
        text = answer.content.decode()
        poll = re.search(r'hx-get="(/photos/\d+/reading/)" hx-trigger="every (\d+)(ms|s)"', text)
        if poll is None:
            assert "<figure" in text, "the answer shows no marked photo and polls for none"
            return time.perf_counter() - started
        pace = int(poll.group(2)) / (1000 if poll.group(3) == "ms" else 1)
        while True:
            time.sleep(pace)
            if client.get(poll.group(1), headers={"HX-Request": "true"}).status_code == 200:
                return time.perf_counter() - started

    immediate = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}

    def in_the_request(content: bytes) -> float:
        with override_settings(TASKS=immediate):
            started = time.perf_counter()
            return marked(started, upload(content))

    def with_a_worker(content: bytes) -> float:
        started = time.perf_counter()
        return marked(started, upload(content))

    def alone(content: bytes) -> float:
        started = time.perf_counter()
        read_cards(content)
        return time.perf_counter() - started

    # The worker is a process of its own, as task_workers runs it, on the same database.
    worker = subprocess.Popen(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "task_worker"]
        + ["--interval", str(worker_idle)],
        cwd=settings.BASE_DIR,
    )
    results = []
    with override_settings(RATELIMIT_ENABLE=False):
        for name in names:
            content = photo_bytes(name)
            # The three, one after another in each run, so that they share the machine's load;
            # a first run warms up (models loaded, caches filled) and is not counted.
            times = {"alone": [], "in_request": [], "with_worker": []}
            for run in range(runs + 1):
                measured = {}
                for kind, measure in (
                    ("alone", alone),
                    ("in_request", in_the_request),
                    ("with_worker", with_a_worker),
                ):
                    time.sleep(REST_SECONDS)
                    measured[kind] = measure(content)
                for kind, seconds in measured.items():
                    if run:
                        times[kind].append(seconds)
            ratios = {
                kind: [
                    seconds / base
                    for seconds, base in zip(times[kind], times["alone"], strict=True)
                ]
                for kind in ("in_request", "with_worker")
            }
            results.append(
                {
                    "photo": name,
                    "bytes": len(content),
                    **{
                        kind: round(statistics.median(seconds), 3)
                        for kind, seconds in times.items()
                    },
                    **{
                        f"{kind}_ratio": round(statistics.median(values), 2)
                        for kind, values in ratios.items()
                    },
                }
            )
    worker.terminate()
    worker.wait(timeout=30)
    return {"runs": runs, "photos": results}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="*", default=DEFAULT)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--worker-interval", type=float, default=WORKER_IDLE_SECONDS)
    options = parser.parse_args()
    report = main(options.photos, options.runs, options.worker_interval)
    print("| photo | alone s | in the request s | ratio | with a worker s | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in report["photos"]:
        print(
            f"| {row['photo']} | {row['alone']} | {row['in_request']} | "
            f"{row['in_request_ratio']} | {row['with_worker']} | {row['with_worker_ratio']} |"
        )
    print(json.dumps(report))
