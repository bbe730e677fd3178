"""The load test's report, in Markdown: per level, each action's figures, errors by status, the
CPU of each process, the goals at 20 and at 100 tables, how the figures grow, the ceilings of
score entry and the trivial view, and the fault run; with two instances too, both stacks side by
side."""

import statistics

GOAL_LEVEL = 20
# The largest club night of `make loadtest`: the same goals, but for the score entry's ceiling.
LARGE_LEVEL = 100
POLLS = ("live poll", "tv poll")
CACHES = {
    "redis": "the cache in a Redis of its own (DJANGO_CACHE_URL), which answers the screens' "
    "polls of unchanged tables with no query",
    "database": "the cache in the database's cache table (no DJANGO_CACHE_URL, as `make run` "
    "has it), the screens' polls of unchanged tables answered after one query",
}
INSTANCES = {1: "One instance", 2: "Two instances behind nginx"}
TWO_INSTANCES = (
    "Two instances: the same club night through nginx (Debian's, one worker process, a new "
    "connection to gunicorn a request, round robin) in front of two gunicorns as the Procfile "
    "runs them (each WEB_CONCURRENCY=2, a request at a time each: four workers in all), each "
    "instance with the Procfile's worker beside it (one task worker, idle unless tables take "
    "photos) and an empty folder of its own, on a PostgreSQL 15 of their own, photos in an "
    "S3-compatible object store (moto's server), DJANGO_TRUSTED_PROXIES=1. One instance: "
    "gunicorn alone, asked directly, as in `make loadtest`."
)
TWO_CORES = (
    "On this two-core machine the figures show correctness, not speed-up: both instances, "
    "nginx, PostgreSQL and Locust share the same two cores, so the second instance brings no "
    "CPU of its own, only one more hop (nginx) and more processes to schedule."
)


def number(text: str) -> float:
    """A figure of Locust's CSV; "N/A" (no request) as 0."""
    try:
        return float(text)
    except ValueError:
        return 0.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def action_rows(result: dict) -> list[dict]:
    return [row for row in result["stats"] if row["Name"] != "Aggregated"]


def measured_seconds(result: dict) -> float:
    """How long the figures were measured: from the moment every device was logged in."""
    total = next(row for row in result["stats"] if row["Name"] == "Aggregated")
    return number(total["Request Count"]) / max(number(total["Requests/s"]), 0.001)


def errors(result: dict) -> dict[str, int]:
    return {
        key: count
        for key, count in sorted(result["record"]["statuses"].items())
        if not key.endswith((" 200", " 302", " 304"))
    }


def level_name(result: dict) -> str:
    return f"{result['tables']} tables, a tap every {result['tap_seconds']:g} s a table"


def heading(result: dict) -> str:
    """The level, and on which stack (the fault run says nothing: always one instance)."""
    stack = {1: ", one instance", 2: ", two instances"}.get(result.get("instances"), "")
    return level_name(result) + stack


def server_errors(result: dict) -> int:
    """How many answers were 5xx."""
    return sum(n for key, n in result["record"]["statuses"].items() if key.split()[-1][0] == "5")


def level_section(result: dict) -> list[str]:
    cpu = ", ".join(
        f"{name} {mean:.0f}% (peak {peak:.0f}%)" for name, (mean, peak) in result["cpu"].items()
    )
    polls = result["record"]["unchanged_polls"]
    total = next(row for row in result["stats"] if row["Name"] == "Aggregated")
    logins = result["record"]["logins"]
    lines = [
        f"### {heading(result)}",
        "",
        f"{len(logins)} devices logged in (median {statistics.median(logins or [0]):.0f} ms, "
        f"max {max(logins or [0]):.0f} ms: a password hash each, before the figures below).",
        f"{int(total['Request Count'])} requests in {measured_seconds(result):.0f} s, "
        f"{number(total['Requests/s']):.1f} req/s; machine load {result['load'][0]:.2f}; "
        f"CPU (% of one core): {cpu}.",
        f"gunicorn's CPU time a request, over the whole run: {cpu_per_request(result):.1f} ms "
        "(what the figures above cost whatever else the machine does).",
        "Unchanged polls (304, round screens and TVs): median "
        f"{statistics.median(polls or [0]):.1f} ms, "
        f"p95 {percentile(polls, 0.95):.1f} ms over {len(polls)} polls. " + poll_share(result),
        "",
        "| action | requests | req/s | median ms | p95 ms | p99 ms | failures |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in action_rows(result):
        lines.append(
            f"| {row['Name']} | {row['Request Count']} | {number(row['Requests/s']):.2f} "
            f"| {row['50%']} | {row['95%']} | {row['99%']} | {row['Failure Count']} |"
        )
    writes = result["record"]["writes"]
    outcomes = {
        o: sum(w["outcome"] == o for w in writes) for o in ("accepted", "refused", "unknown")
    }
    lines += [
        "",
        f"Writes: {outcomes['accepted']} accepted, {outcomes['refused']} refused (409 or a "
        f"rule's refusal), {outcomes['unknown']} lost in flight. Other statuses: "
        f"{errors(result) or 'none'}.",
        f"Consistency: {result['consistency']}",
        "",
    ]
    if result.get("queue"):
        lines[-1:-1] = [
            f"Task queue (READY and RUNNING tasks, every second): median "
            f"{statistics.median(result['queue']):g}, max {max(result['queue'])}."
        ]
    return lines


def poll_share(result: dict) -> str:
    """What share of the run's requests the screens' polls were, and of those, the 304s."""
    statuses = result["record"]["statuses"]
    everything = sum(statuses.values())
    polls = {key: n for key, n in statuses.items() if key.rsplit(" ", 1)[0] in POLLS}
    unchanged = sum(n for key, n in polls.items() if key.endswith(" 304"))
    return (
        f"Polls: {sum(polls.values()) / max(everything, 1):.0%} of the run's requests, "
        f"{unchanged / max(sum(polls.values()), 1):.0%} of them answered 304."
    )


# Logging in is a password hash, slow by design and once a device a night: not a tap; a photo's
# time to its marks is no request but the wait of several.
NOT_TAPS = ("log in", "login page", "photo upload→marks")
PHOTO_POLL = "photo reading poll"


def goals(result: dict, rushes: dict | None, *, throughput: bool = True) -> list[str]:
    rows = action_rows(result)
    taps = [row for row in rows if row["Name"] not in NOT_TAPS]
    slow = [f"{row['Name']} {row['95%']} ms" for row in taps if number(row["95%"]) >= 100]
    server_errors = {k: v for k, v in errors(result).items() if k.split()[-1].startswith("5")}
    polls = result["record"]["unchanged_polls"]
    poll_median = statistics.median(polls or [0])

    def verdict(ok: bool) -> str:
        return "met" if ok else "**missed**"

    return [
        f"## Goals at {heading(result)}",
        "",
        f"- every action's p95 under 100 ms (logging in apart): {verdict(not slow)}"
        + (f" ({', '.join(slow)})" if slow else ""),
        f"- zero 5xx: {verdict(not server_errors)} {server_errors or ''}",
        f"- unchanged poll median under 5 ms: {verdict(poll_median < 5)} ({poll_median:.1f} ms)",
        f"- consistency check clean: {verdict(result['consistent'])}",
        *([throughput_goal(rushes)] if throughput else []),
        "",
    ]


def rush_row(rush: dict, name: str) -> dict:
    return next((row for row in rush["stats"] if row["Name"] == name), {})


def throughput_goal(rushes: dict | None) -> str:
    goal = "- score entry throughput at least half the trivial view's: "
    if rushes is None:
        return goal + "not measured (run without --no-ceilings)"
    saves = number(rush_row(rushes["score"], "score").get("Requests/s", "0"))
    trivial = number(rush_row(rushes["trivial"], "trivial view (/healthz)").get("Requests/s", "0"))
    ratio = saves / max(trivial, 0.001)
    verdict = "met" if ratio >= 0.5 else "**missed**"
    return goal + f"{verdict} ({saves:.1f} saves/s against {trivial:.0f}/s: {ratio:.1%})"


def ceilings_section(rushes: dict) -> list[str]:
    lines = [
        "## Ceilings",
        "",
        f"Each at its ceiling on the same stack, one after the other: {rushes['clients']} "
        "clients (four times gunicorn's workers) with no pause for 20 s, each opening a "
        "connection a request. Score entry plays tables of its own: who went out, then everyone's "
        "cards, contract after contract.",
        "",
        "| client | request | requests | req/s | median ms | p95 ms | gunicorn CPU % "
        "| Locust CPU % |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for rush, names in (("score", ["went_out", "score"]), ("trivial", ["trivial view (/healthz)"])):
        for name in names:
            row = rush_row(rushes[rush], name)
            lines.append(
                f"| {rush} | {name} | {row.get('Request Count', 0)} "
                f"| {number(row.get('Requests/s', '0')):.1f} | {row.get('50%', '')} "
                f"| {row.get('95%', '')} | {rushes[rush]['cpu']['gunicorn'][0]:.0f} "
                f"| {rushes[rush]['cpu']['locust'][0]:.0f} |"
            )
    return lines + ["", f"Consistency: {rushes['consistency']}", ""]


def growth(results: list[dict]) -> list[str]:
    lines = [
        "## How the figures grow",
        "",
        "| tables | a tap every | req/s | median ms | p95 ms | unchanged poll median ms "
        "| gunicorn CPU % | PostgreSQL CPU % | Redis CPU % | Locust CPU % "
        "| gunicorn CPU ms a request |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        total = next(row for row in result["stats"] if row["Name"] == "Aggregated")
        cpu = result["cpu"]
        redis = f"{cpu['redis'][0]:.0f}" if "redis" in cpu else "-"
        lines.append(
            f"| {result['tables']} | {result['tap_seconds']:g} s "
            f"| {number(total['Requests/s']):.1f} | {total['50%']} | {total['95%']} "
            f"| {statistics.median(result['record']['unchanged_polls'] or [0]):.1f} "
            f"| {cpu['gunicorn'][0]:.0f} | {cpu['postgresql'][0]:.0f} | {redis} "
            f"| {cpu['locust'][0]:.0f} | {cpu_per_request(result):.1f} |"
        )
    busiest = max(
        ((name, cpu) for name, cpu in results[-1]["cpu"].items() if name != "other processes"),
        key=lambda item: item[1][0],
    )
    lines += [
        "",
        f"At {heading(results[-1])} the busiest process group is {busiest[0]} "
        f"({busiest[1][0]:.0f}% of one core on average, {busiest[1][1]:.0f}% at peak; the "
        "machine has 2 cores, 200% in all, shared with the other processes).",
        "",
    ]
    return lines


def cpu_per_request(result: dict) -> float:
    requests = sum(result["record"]["statuses"].values())
    return 1000 * result["gunicorn_cpu_seconds"] / max(requests, 1)


def in_flight(result: dict) -> int:
    return sum(n for key, n in result["record"]["statuses"].items() if key.endswith(" 0"))


def fault_section(fault: dict) -> list[str]:
    seen = fault["seen"]
    return [
        "## Fault run (5 tables)",
        "",
        f"- A gunicorn worker killed at {seen['worker_killed_at']:.1f} s: gunicorn had two "
        f"workers again after {seen['worker_replaced_after']:.1f} s. The probe (a member "
        f"with the table open, every 100 ms) saw {seen['worker_killed']}.",
        f"- PostgreSQL stopped at {seen['database_stopped_at']:.1f} s for 10 s: the probe saw "
        f"{seen['database_away']}.",
        f"- Started again at {seen['database_started_at']:.1f} s: pages answered normally "
        f"{seen['recovered_after']:.1f} s later, with no app restart; afterwards the probe saw "
        f"{seen['after']}.",
        f"- Before the faults: {seen['before']}.",
        f"- Requests cut in flight (no answer: the killed worker's, and those caught by the "
        f"stop): {in_flight(fault)}; every other request was answered, 503 with the friendly "
        "page while the database was away.",
        "",
        *level_section(fault),
    ]


def side_by_side(ones: list[dict], twos: list[dict]) -> list[str]:
    """Each level played on both stacks: each action's p95, the 5xx, the unchanged polls' median
    and the consistency check, one instance against two."""
    lines = ["## One instance and two, side by side", "", TWO_CORES, ""]
    for one in ones:
        level = (one["tables"], one["tap_seconds"])
        two = next((r for r in twos if (r["tables"], r["tap_seconds"]) == level), None)
        if two is None:
            continue
        by_name = {row["Name"]: row for row in action_rows(two)}
        names = [row["Name"] for row in action_rows(one)]
        names += [name for name in by_name if name not in names]
        by_name_one = {row["Name"]: row for row in action_rows(one)}
        lines += [
            f"### {level_name(one)}",
            "",
            "| action | requests, one | p95 ms, one | requests, two | p95 ms, two |",
            "|---|---:|---:|---:|---:|",
        ]
        for name in names:
            first, second = by_name_one.get(name, {}), by_name.get(name, {})
            lines.append(
                f"| {name} | {first.get('Request Count', 0)} | {first.get('95%', 'N/A')} "
                f"| {second.get('Request Count', 0)} | {second.get('95%', 'N/A')} |"
            )
        totals = [next(r for r in run["stats"] if r["Name"] == "Aggregated") for run in (one, two)]
        polls = [statistics.median(run["record"]["unchanged_polls"] or [0]) for run in (one, two)]
        lines += [
            "",
            "| | one instance | two instances |",
            "|---|---:|---:|",
            f"| requests a second | {number(totals[0]['Requests/s']):.1f} "
            f"| {number(totals[1]['Requests/s']):.1f} |",
            f"| p95 ms, every request | {totals[0]['95%']} | {totals[1]['95%']} |",
            f"| 5xx answers | {server_errors(one)} | {server_errors(two)} |",
            f"| no answer (cut in flight) | {in_flight(one)} | {in_flight(two)} |",
            f"| unchanged poll median ms | {polls[0]:.1f} | {polls[1]:.1f} |",
            f"| gunicorn CPU ms a request | {cpu_per_request(one):.1f} "
            f"| {cpu_per_request(two):.1f} |",
            "",
            f"- Consistency, one instance: {one['consistency']}",
            f"- Consistency, two instances: {two['consistency']}",
            "",
        ]
    return lines


def photo_figures(result: dict) -> dict:
    """What became of a run's photos: how many were sent and read, the seconds from sending
    each to its marks, the polls answered 204, the task queue's length, the statuses after."""
    photos = result["record"].get("photos", [])
    sent = [photo for photo in photos if "refused" not in photo]
    seconds = [photo["ms"] / 1000 for photo in sent if photo["ms"] is not None]
    queue = result.get("queue") or [0]
    return {
        "sent": len(sent),
        "refused": sorted({photo["refused"] for photo in photos if "refused" in photo}),
        "refused_count": len(photos) - len(sent),
        "read": len(seconds),
        "median": statistics.median(seconds or [0]),
        "p95": percentile(seconds, 0.95),
        "max": max(seconds or [0]),
        "waiting_polls": sum(photo["waiting_polls"] for photo in sent),
        "queue_median": statistics.median(queue),
        "queue_max": max(queue),
        "statuses": result.get("photos") or {},
    }


def statuses_text(statuses: dict) -> str:
    return ", ".join(f"{count} {status}" for status, count in sorted(statuses.items())) or "none"


def photos_section(with_worker: dict, in_request: dict | None) -> list[str]:
    """The goals' level with photos: read by the Procfile's worker, and (if played) read in the
    request, side by side; each action's p95, the photos' time to their marks, the queue."""
    runs = [("read by the worker", with_worker)]
    if in_request:
        runs.append(("read in the request", in_request))
    figures = [photo_figures(result) for _, result in runs]
    share = with_worker.get("photo_share") or 0
    one_in = f"one table in {round(1 / share)}" if share else "no table"
    columns = " | ".join(name for name, _ in runs)
    rule = "|---|" + "---:|" * len(runs)

    def row(label: str, values) -> str:
        return f"| {label} | " + " | ".join(values) + " |"

    lines = [
        f"## Photos at {level_name(with_worker)}",
        "",
        f"At score entry {one_in} photographs each hand before saving the scores: the tablet "
        "sends the photo (a real one, tests/recognition/photos) to the score entry's photo "
        "view, polls the address it answers at the pace the page does, until the cards "
        "are read, then takes the next hand's. *Photo upload→marks*: from sending a photo to "
        "the answer with its cards. Read by the worker: the Procfile's `worker` beside "
        "gunicorn (DJANGO_TASK_WORKERS processes of db_worker, one a core by default). Read in "
        "the request: DJANGO_TASKS_BACKEND=immediate, no worker, as before part 4 of #37. The "
        "task queue (READY and RUNNING tasks) is sampled every second.",
        "",
        f"| | {columns} |",
        rule,
        row(
            "photos sent / read / refused",
            [f"{f['sent']} / {f['read']} / {f['refused_count']}" for f in figures],
        ),
        row("upload→marks median s", [f"{f['median']:.1f}" for f in figures]),
        row("upload→marks p95 s", [f"{f['p95']:.1f}" for f in figures]),
        row("upload→marks max s", [f"{f['max']:.1f}" for f in figures]),
        row(
            "photo upload p95 ms",
            [str(rush_row(result, "photo upload").get("95%", "N/A")) for _, result in runs],
        ),
        row("polls answered 204", [str(f["waiting_polls"]) for f in figures]),
        row(
            "task queue median / max",
            [f"{f['queue_median']:g} / {f['queue_max']}" for f in figures],
        ),
        row("photos after the run", [statuses_text(f["statuses"]) for f in figures]),
        row(
            "CPU % gunicorn / task worker",
            [
                f"{result['cpu']['gunicorn'][0]:.0f} / "
                + (
                    f"{result['cpu']['task worker'][0]:.0f}"
                    if "task worker" in result["cpu"]
                    else "-"
                )
                for _, result in runs
            ],
        ),
        row(
            "CPU % of other processes (not the stack's)",
            [f"{result['cpu'].get('other processes', (0, 0))[0]:.0f}" for _, result in runs],
        ),
        row("5xx answers", [str(server_errors(result)) for _, result in runs]),
        "",
        "Read: the tablet had the cards before the run ended. Refused: "
        + ("; ".join(sorted({why for f in figures for why in f["refused"]})) or "none").rstrip(".")
        + ".",
        "",
        f"| action | {' | '.join(f'requests, {n} | p95 ms, {n}' for n, _ in runs)} |",
        "|---|" + "---:|---:|" * len(runs),
    ]
    names = list(dict.fromkeys(row["Name"] for _, result in runs for row in action_rows(result)))
    for name in names:
        cells = []
        for _, result in runs:
            found = rush_row(result, name)
            cells += [str(found.get("Request Count", 0)), str(found.get("95%", "N/A"))]
        lines.append(row(name, cells))
    slow = {
        label: [
            f"{row['Name']} {row['95%']} ms"
            for row in action_rows(result)
            if row["Name"] not in NOT_TAPS and number(row["95%"]) >= 100
        ]
        for label, result in runs
    }

    def verdict(ok: bool) -> str:
        return "met" if ok else "**missed**"

    lines += ["", f"Goals at {level_name(with_worker)} with photos:"]
    for (label, result), figure in zip(runs, figures, strict=True):
        lines += [
            f"- {label}: every tap's p95 under 100 ms: {verdict(not slow[label])}"
            + (f" ({', '.join(slow[label])})" if slow[label] else "")
            + f"; photo upload→marks p95 under 3 s: {verdict(figure['read'] and figure['p95'] < 3)}"
            f" ({figure['p95']:.1f} s); consistency: {result['consistency']}",
        ]
    return lines + [""]


def worker_stop_section(result: dict) -> list[str]:
    """The run whose task worker was stopped a while: what waited, what stayed fast, and
    whether every photo was read once it was back."""
    seen = result["seen"]
    stopped, resumed = seen["stopped"], seen["resumed"]
    during = [entry for entry in result["record"]["timeline"] if stopped <= entry[0] < resumed]
    taps = [entry for entry in during if entry[1] not in (PHOTO_POLL, *NOT_TAPS)]
    by_name: dict[str, list[float]] = {}
    for _, name, _, ms in taps:
        by_name.setdefault(name, []).append(ms)
    waiting = sum(1 for entry in during if entry[1] == PHOTO_POLL and entry[2] == 204)
    # A photo waited for the worker if it was sent before the worker was back and not read
    # before the worker stopped.
    waiting_photos = [
        photo
        for photo in result["record"].get("photos", [])
        if "refused" not in photo
        and photo["at"] < resumed
        and (photo["ms"] is None or photo["at"] + photo["ms"] / 1000 > stopped)
    ]
    waited = [photo["ms"] / 1000 for photo in waiting_photos if photo["ms"] is not None]
    figures = photo_figures(result)
    left = figures["statuses"].get("reading", 0)
    each = ", ".join(
        f"{name} {percentile(times, 0.95):.0f} ms ({len(times)})"
        for name, times in sorted(by_name.items())
    )
    return [
        f"## Worker stopped for {resumed - stopped:.0f} s ({level_name(result)}, photos)",
        "",
        f"The Procfile's worker and its db_worker processes stopped (SIGSTOP) "
        f"{stopped - seen['started']:.0f} s into the run, let go (SIGCONT) "
        f"{resumed - stopped:.0f} s later.",
        "",
        f"- Photos waited: the reading polls answered 204 {waiting} times during the stop; "
        f"{len(waiting_photos)} photos waited for the worker, {len(waited)} of them read while "
        "the tablets polled"
        + (
            f", {statistics.median(waited):.1f} s (median) and at most {max(waited):.1f} s "
            "after they were sent."
            if waited
            else "."
        ),
        f"- Taps during the stop: p95 {percentile([t[3] for t in taps], 0.95):.0f} ms over "
        f"{len(taps)} requests; by action (p95, count): {each or 'none'}.",
        f"- Photos after the run, once the queue was empty: {statuses_text(figures['statuses'])}"
        f": {'none' if not left else f'**{left}**'} left reading. Task queue median "
        f"{figures['queue_median']:g}, max {figures['queue_max']}.",
        f"- Over the whole run: {figures['sent']} photos sent, {figures['read']} read while the "
        f"tablets polled, upload→marks median {figures['median']:.1f} s, p95 "
        f"{figures['p95']:.1f} s, max {figures['max']:.1f} s.",
        "- CPU (% of one core): "
        + ", ".join(f"{name} {mean:.0f}%" for name, (mean, _) in result["cpu"].items())
        + ".",
        f"- Consistency: {result['consistency']}",
        "",
    ]


def write(
    runs: dict[int, list[dict]],
    fault: dict | None,
    rushes: dict | None,
    *,
    uptime: str,
    command: str,
    photos: dict | None = None,
    cache: str = "redis",
) -> str:
    """The report of the levels played on each stack (`runs`, by how many instances), with
    `cache` ("redis" or "database") as the app's cache."""
    lines = [
        "# Load test report",
        "",
        f"`{command}`",
        "",
        "`make loadtest` (gunicorn as the Procfile runs it, WEB_CONCURRENCY=2 sync workers, and "
        f"its worker, PostgreSQL 15 of its own, {CACHES[cache]}, DEBUG off; Locust on loopback). "
        "Times in ms as Locust measured them. Machine at the end: " + uptime.strip(),
        "",
        "A table is two tablets and three screens: the playing tablet taps (or asks the "
        "checker) every N s on average, the second about a third as often; both tablets' "
        "round screens and the TV poll every second, as the pages do. A real table taps about "
        "every 40 s (ten to fifteen taps a contract of eight to twelve minutes): the club "
        "levels tap four times as fast, the stress level twenty times.",
        "",
    ]
    if 2 in runs:
        # With both stacks, the side-by-side section says it beside the figures.
        lines += [TWO_INSTANCES, ""] + ([] if 1 in runs else [TWO_CORES, ""])
    for instances, results in sorted(runs.items()):
        if len(runs) > 1:
            lines += [f"## {INSTANCES[instances]}", ""]
        for result in results:
            lines += level_section(result)
    results = runs[min(runs)]
    at_goal = [r for r in results if r["tables"] == GOAL_LEVEL] or results[-1:]  # club pace
    lines += goals(at_goal[0], rushes)
    large = [r for r in results if r["tables"] == LARGE_LEVEL and r is not at_goal[0]]
    if large:
        lines += goals(large[0], rushes, throughput=False)
    lines += growth(results)
    photos = photos or {}
    if at_goal[0].get("photo_share"):
        lines += photos_section(at_goal[0], photos.get("in_request"))
    if "worker_stop" in photos:
        lines += worker_stop_section(photos["worker_stop"])
    if len(runs) > 1:
        lines += side_by_side(runs[1], runs[2])
    if rushes:
        lines += ceilings_section(rushes)
    if fault:
        lines += fault_section(fault)
    return "\n".join(lines) + "\n"
