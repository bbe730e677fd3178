"""`make loadtest`: a club night at 5, 20 and 50 tables, then a fault run; a report, and exit
status 1 if the consistency check finds anything lost or extra.

    .venv/bin/python -m tools.loadtest.run [--levels 5 20 50] [--run-time 60] [--no-faults]

Starts a throwaway PostgreSQL (tools/pg_cluster.py), the app as the Procfile runs it
(tools/loadtest/server.py), seeds the tables for each level, drives them with Locust in another
process (tools/loadtest/locustfile.py), samples the CPU of gunicorn, PostgreSQL and Locust, and
checks the database after each run (tools/loadtest/consistency.py). Writes loadtest-report.md.
"""

import argparse
import contextlib
import csv
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from tools.loadtest import faults, report
from tools.loadtest.server import ROOT, App, app_environment, manage, release
from tools.pg_cluster import Cluster

LOCUSTFILE = Path(__file__).with_name("locustfile.py")


class CpuSampler(threading.Thread):
    """Every second, the CPU (% of one core) of gunicorn (master and workers), PostgreSQL and
    Locust; `summary()` gives their means and peaks."""

    def __init__(self, groups: dict[str, callable]):
        super().__init__(daemon=True)
        self.groups, self.samples, self.running = groups, [], True
        self.seen: dict[int, psutil.Process] = {}

    def percent(self, processes) -> float:
        total = 0.0
        for process in processes:
            known = self.seen.setdefault(process.pid, process)
            with contextlib.suppress(psutil.Error):
                total += known.cpu_percent()
        return total

    def run(self):
        while self.running:
            self.samples.append({name: self.percent(find()) for name, find in self.groups.items()})
            time.sleep(1)

    def cpu_seconds(self, name: str) -> float:
        return sum(sample[name] for sample in self.samples) / 100  # a sample a second

    def summary(self) -> dict[str, tuple[float, float]]:
        steady = self.samples[2:] or self.samples  # the first sample of a process reads 0
        return {
            name: (sum(s[name] for s in steady) / len(steady), max(s[name] for s in steady))
            for name in self.groups
        }


def family(pid: int) -> list[psutil.Process]:
    try:
        parent = psutil.Process(pid)
        return [parent, *parent.children(recursive=True)]
    except psutil.Error:
        return []


def locust(*, environment, folder: Path, name: str, tables: Path, run_time: int, max_requests):
    """Run Locust headless against the app; its stats rows and the generator's record."""
    record = folder / f"{name}-record.json"
    command = [
        sys.executable, "-m", "locust", "-f", str(LOCUSTFILE), "--headless",
        "--host", environment["APP_URL"], "--run-time", f"{run_time}s",
        "--csv", str(folder / name), "--only-summary", "--loglevel", "WARNING",
        "--stop-timeout", "5",
    ]  # fmt: skip
    users = json.loads(tables.read_text())["users"]
    command += ["--users", str(users), "--spawn-rate", str(max(10, users // 2))]
    env = {
        **environment,
        "LOADTEST_TABLES": str(tables),
        "LOADTEST_RECORD": str(record),
        "LOADTEST_MAX_REQUESTS": str(max_requests),
    }
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    return process, record


def stats_rows(path: Path) -> list[dict]:
    with path.open() as rows:
        return list(csv.DictReader(rows))


def club_night(
    *, cluster, app, environment, folder, tables: int, run_time: int, name: str, during=None
) -> dict:
    """Seed `tables` tables and play them for `run_time` seconds (`during(tables_json)` meanwhile,
    if given); the figures, the CPU and the consistency check."""
    seeded = folder / f"{name}-tables.json"
    manage(
        environment, "seed_load", "--tables", str(tables), "--out", str(seeded), "--prefix", name
    )
    users = 3 * tables + max(1, tables // 4) + 2  # as the locustfile counts them
    seeded.write_text(json.dumps(json.loads(seeded.read_text()) | {"users": users}))
    postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])
    process, record = locust(
        environment=environment,
        folder=folder,
        name=name,
        tables=seeded,
        # The figures are measured once every device is ready, for about `run_time` seconds.
        run_time=run_time + 10,
        max_requests=400 * run_time,
    )
    sampler = CpuSampler(
        {
            "gunicorn": lambda: family(app.pid),
            "postgresql": lambda: family(postmaster),
            "locust": lambda: family(process.pid),
        }
    )
    sampler.start()
    seen = during(seeded) if during else None
    process.wait()
    sampler.running = False
    checked = subprocess.run(
        [sys.executable, "-m", "tools.loadtest.consistency", str(record), str(seeded)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
    )
    print(checked.stdout + checked.stderr, end="")
    return {
        "name": name,
        "tables": tables,
        "stats": stats_rows(folder / f"{name}_stats.csv"),
        "record": json.loads(record.read_text()),
        "cpu": sampler.summary(),
        "gunicorn_cpu_seconds": sampler.cpu_seconds("gunicorn"),
        "consistency": checked.stdout.strip() + checked.stderr.strip(),
        "consistent": checked.returncode == 0,
        "load": os.getloadavg(),
        "seen": seen,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[5, 20, 50])
    parser.add_argument("--run-time", type=int, default=60, help="seconds measured a level")
    parser.add_argument("--no-faults", action="store_true")
    parser.add_argument("--report", default="loadtest-report.md")
    arguments = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="sk-loadtest-"))
    results, fault = [], None
    with Cluster() as cluster:
        environment = app_environment(
            database_url=cluster.database_url("sk_load"), data_dir=folder / "data"
        )
        print(f"== preparing: PostgreSQL on port {cluster.port}, migrate, collectstatic")
        release(environment)
        with App(environment, log=folder / "gunicorn.log") as app:
            environment["APP_URL"] = app.url
            where = {"cluster": cluster, "app": app, "environment": environment, "folder": folder}
            for tables in arguments.levels:
                print(f"== {tables} tables for {arguments.run_time} s")
                results.append(
                    club_night(
                        **where, tables=tables, run_time=arguments.run_time, name=f"t{tables}"
                    )
                )
            if not arguments.no_faults:
                print("== fault run: a worker killed, PostgreSQL stopped for 10 s")
                fault = club_night(
                    **where,
                    tables=5,
                    run_time=50,
                    name="faults",
                    during=lambda tables: faults.inflict(app=app, cluster=cluster, tables=tables),
                )
    text = report.write(results, fault, uptime=subprocess.getoutput("uptime"))
    Path(arguments.report).write_text(text)
    print(text)
    print(f"(written to {arguments.report}; raw files in {folder})")
    everything = results + ([fault] if fault else [])
    return 0 if all(result["consistent"] for result in everything) else 1


if __name__ == "__main__":
    sys.exit(main())
