"""A throwaway S3-compatible object store: moto's server mode, started as a process of its own on
loopback (never a mock patched into the process), with one empty bucket.

    with ObjectStore() as store:
        store.storage_url          # s3://<bucket>?endpoint_url=http://127.0.0.1:<port>&...
        store.environment()        # DJANGO_STORAGE_URL and the AWS_* credentials the app reads
        store.keys()               # every object's key in the bucket
        store.stop(); store.start()

The credentials are moto's own placeholders: it accepts any.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import boto3
import requests

from tools.pg_cluster import free_port, process_stop, wait_for

ACCESS_KEY = "scorekeeper-test"
SECRET_KEY = "scorekeeper-test-secret"
REGION = "us-east-1"


class ObjectStore:
    """moto_server on a free loopback port; `start`/`stop` as often as a test needs (its
    objects live in memory: a stop forgets them)."""

    def __init__(self, *, bucket: str = "scorekeeper-photos", port: int | None = None):
        self.bucket = bucket
        self.port = port or free_port()
        self.endpoint_url = f"http://127.0.0.1:{self.port}"
        self.folder = Path(tempfile.mkdtemp(prefix="sk-s3-"))
        self.process = None

    @property
    def storage_url(self) -> str:
        return (
            f"s3://{self.bucket}?endpoint_url={self.endpoint_url}"
            f"&region_name={REGION}&addressing_style=path"
        )

    def environment(self) -> dict[str, str]:
        """What an app process needs in its environment to keep its photos here."""
        return {
            "DJANGO_STORAGE_URL": self.storage_url,
            "AWS_ACCESS_KEY_ID": ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY": SECRET_KEY,
        }

    def client(self):
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint_url,
            region_name=REGION,
            aws_access_key_id=ACCESS_KEY,
            aws_secret_access_key=SECRET_KEY,
        )

    def start(self) -> None:
        """Start the server, wait until it answers, and make the bucket."""
        server = Path(sys.executable).with_name("moto_server")
        command = [str(server)] if server.exists() else [sys.executable, "-m", "moto.server"]
        self.log = (self.folder / "moto.log").open("a")
        self.process = subprocess.Popen(
            [*command, "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "MOTO_ALLOW_NONEXISTENT_REGION": "false"},
        )
        wait_for(self.answers, timeout=30, step=0.1)
        self.client().create_bucket(Bucket=self.bucket)

    def answers(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(
                f"moto_server exited with {self.process.returncode}: see {self.log.name}"
            )
        try:
            return requests.get(f"{self.endpoint_url}/moto-api/", timeout=2).ok
        except requests.RequestException:
            return False

    def keys(self) -> set[str]:
        """Every object's key in the bucket."""
        pages = self.client().get_paginator("list_objects_v2").paginate(Bucket=self.bucket)
        return {item["Key"] for page in pages for item in page.get("Contents", [])}

    def stop(self) -> None:
        if self.process is not None:
            process_stop(self.process)
            self.log.close()

    def __enter__(self) -> "ObjectStore":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
