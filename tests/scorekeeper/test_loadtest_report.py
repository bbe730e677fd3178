"""The load test's report (tools/loadtest/report.py) from fixed figures: the goals at 20 and at
100 tables, the polls' share and how the figures grow; the photos' time to their marks and the
queue, each tap's p95 against its goal, read by the worker and in the request side by side, and
what the run with the worker stopped saw."""

from tools.loadtest.report import photos_section, worker_stop_section, write


def stats_row(name: str, count: int, p95: int) -> dict:
    return {
        "Name": name,
        "Request Count": str(count),
        "Requests/s": "1.0",
        "50%": str(p95 // 2),
        "95%": str(p95),
        "99%": str(p95),
        "Failure Count": "0",
    }


def night(*, score_p95: int, photos: list[dict], queue: list[int], timeline=()) -> dict:
    stats = [
        stats_row("score", 10, score_p95),
        stats_row("photo upload", 8, 40),
        stats_row("photo upload→marks", 8, 2500),
        stats_row("Aggregated", 26, 2500),
    ]
    return {
        "tables": 20,
        "tap_seconds": 10,
        "photo_share": 0.25,
        "stats": stats,
        "record": {"photos": photos, "statuses": {"score 200": 10}, "timeline": list(timeline)},
        "queue": queue,
        "photos": {"read": len(photos)},
        "cpu": {"gunicorn": (50.0, 90.0), "task worker": (30.0, 100.0)},
        "consistency": "no differences",
    }


def test_the_photos_section_sets_the_worker_and_the_request_side_by_side_with_their_goals():
    sent = [{"at": 0, "ms": 1000 * s, "waiting_polls": 1} for s in (1, 2, 2, 4)]
    with_worker = night(score_p95=60, photos=sent, queue=[0, 1, 3, 0, 0])
    in_request = night(score_p95=900, photos=sent[:2], queue=[0, 0])
    text = "\n".join(photos_section(with_worker, in_request))
    assert "one table in 4 photographs each hand" in text
    assert "| | read by the worker | read in the request |" in text
    assert "| photos sent / read / refused | 4 / 4 / 0 | 2 / 2 / 0 |" in text
    assert "| upload→marks median s | 2.0 | 1.5 |" in text
    assert "| upload→marks p95 s | 4.0 | 2.0 |" in text
    assert "| task queue median / max | 0 / 3 | 0 / 0 |" in text
    assert "| polls answered 204 | 4 | 2 |" in text
    assert "| score | 10 | 60 | 10 | 900 |" in text
    # The time to the marks is no request: only the taps are held to 100 ms.
    assert "- read by the worker: every tap's p95 under 100 ms: met" in text
    assert "photo upload→marks p95 under 3 s: **missed** (4.0 s)" in text
    assert "- read in the request: every tap's p95 under 100 ms: **missed** (score 900 ms)" in text


def test_the_photos_section_without_the_comparison_has_one_column():
    text = "\n".join(photos_section(night(score_p95=60, photos=[], queue=[]), None))
    assert "| | read by the worker |\n|---|---:|" in text
    assert "photo upload→marks p95 under 3 s: **missed** (0.0 s)" in text  # none was read


def test_the_worker_stopped_section_counts_what_waited_during_the_stop_only():
    timeline = [
        [5, "photo reading poll", 204, 3],  # before the stop
        [10, "photo reading poll", 204, 3],
        [11, "photo reading poll", 204, 4],
        [12, "may_i", 200, 30],
        [13, "score", 200, 80],
        [25, "photo reading poll", 200, 5],  # after
    ]
    photos = [
        {"at": 2, "ms": 1500, "waiting_polls": 1},
        {"at": 10, "ms": 14000, "waiting_polls": 12},
    ]
    result = night(score_p95=60, photos=photos, queue=[0, 1, 1, 2], timeline=timeline)
    result["seen"] = {"started": 0, "stopped": 10, "resumed": 20}
    text = "\n".join(worker_stop_section(result))
    assert "## Worker stopped for 10 s" in text
    assert "answered 204 2 times during the stop; 1 photos waited for the worker" in text
    assert "1 of them read while the tablets polled, 14.0 s (median) and at most 14.0 s" in text
    assert "p95 80 ms over 2 requests" in text
    assert ": none left reading" in text
    assert "Task queue median 1, max 2" in text


def test_a_refused_photo_is_counted_apart_with_its_reason():
    sent = [{"at": 0, "ms": 2000, "waiting_polls": 1}]
    sent.append({"at": 1, "ms": None, "waiting_polls": 0, "refused": "The round was scored."})
    text = "\n".join(photos_section(night(score_p95=60, photos=sent, queue=[0]), None))
    assert "| photos sent / read / refused | 1 / 1 / 1 |" in text
    assert "Refused: The round was scored.\n" in text


def test_a_photo_left_reading_is_shown():
    result = night(score_p95=60, photos=[], queue=[0], timeline=[])
    result["photos"] = {"read": 3, "reading": 1}
    result["seen"] = {"started": 0, "stopped": 10, "resumed": 40}
    assert "**1** left reading" in "\n".join(worker_stop_section(result))


def club_night(tables: int, *, score_p95: int, polls: int, consistent: bool = True) -> dict:
    stats = [stats_row("score", 10, score_p95), stats_row("live poll", polls, 8)]
    stats.append(stats_row("Aggregated", 10 + polls, score_p95))
    return {
        "tables": tables,
        "tap_seconds": 10,
        "instances": 1,
        "stats": stats,
        "record": {
            "statuses": {"score 200": 10, "live poll 304": polls - 10, "live poll 200": 10},
            "unchanged_polls": [2.0] * (polls - 10),
            "logins": [900.0],
            "writes": [],
        },
        "cpu": {
            "gunicorn": (tables * 1.0, 150.0),
            "postgresql": (tables / 10, 30.0),
            "redis": (2.0, 5.0),
            "locust": (10.0, 20.0),
        },
        "gunicorn_cpu_seconds": (10 + polls) * 0.002,
        "load": (1.0, 1.0, 1.0),
        "consistency": "no differences" if consistent else "table 1: an event too many",
        "consistent": consistent,
    }


def test_the_report_holds_the_goals_at_20_and_at_100_tables_and_how_the_figures_grow():
    runs = {1: [club_night(20, score_p95=60, polls=90), club_night(100, score_p95=130, polls=490)]}
    text = write(runs, None, None, uptime="up", command="python -m tools.loadtest.run")
    assert "the cache in a Redis of its own (DJANGO_CACHE_URL)" in text
    assert "Polls: 98% of the run's requests, 98% of them answered 304." in text
    at_20 = text.split("## Goals at 20 tables")[1].split("##")[0]
    assert "every action's p95 under 100 ms (logging in apart): met" in at_20
    assert "score entry throughput at least half the trivial view's: not measured" in at_20
    at_100 = text.split("## Goals at 100 tables")[1].split("##")[0]
    assert "every action's p95 under 100 ms (logging in apart): **missed** (score 130 ms)" in at_100
    assert "consistency check clean: met" in at_100
    assert "throughput" not in at_100
    assert "| 100 | 10 s | 1.0 | 65 | 130 | 2.0 | 100 | 10 | 2 | 10 | 2.0 |" in text


def test_the_report_names_the_database_cache_and_a_consistency_failure():
    runs = {1: [club_night(20, score_p95=60, polls=90, consistent=False)]}
    text = write(runs, None, None, uptime="up", command="c", cache="database")
    assert "the cache in the database's cache table" in text
    assert "consistency check clean: **missed**" in text
    assert "| 20 | 10 s | 1.0 | 30 | 60 | 2.0 | 20 | 2 | 2 | 10 | 2.0 |" in text
