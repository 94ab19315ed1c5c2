"""Live feeds under gunicorn: which worker class keeps serving moves while many SSE streams are open.

For each worker class, start gunicorn against a Redis of our own, open N Server-Sent Event streams on
one game, then play a whole 3-player game over HTTP: report the move latency and whether every
stream saw every event. Run with `make bench` (or `python -m benchmarks.sse`).
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

from service.config import every_rate_limit
from service.ops.redis_server import RedisServer, free_port

CARDS = (1, 3, 5, 12, 10, 8, 2, 4, 6, 11, 9, 7)
CLASSES = {
    "sync": ["--worker-class", "sync", "--workers", "2"],
    "gthread": ["--worker-class", "gthread", "--workers", "2", "--threads", "32"],
    "gevent": ["--worker-class", "gevent", "--workers", "2", "--worker-connections", "1000"],
}


def serve(redis_url: str, worker_args: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, **every_rate_limit("1000000 per minute")}
    args = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", *worker_args, "service.wsgi:app"]
    log = open(Path(tempfile.gettempdir()) / f"gunicorn-{port}.log", "wb")  # noqa: SIM115
    # A session of its own, so that stopping it stops its workers too (streams still open hold them).
    process = subprocess.Popen(args, env=env, stdout=log, stderr=log, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            requests.get(f"{url}/healthz", timeout=1)
            return process, url
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not start")


def measure(url: str, streams: int) -> str:
    created = requests.post(
        f"{url}/v1/games",
        json={"ruleset": "twelve-gangsters", "seats": [{"name": n} for n in "ABC"], "options": {"first_boss": 0}},
        timeout=10,
    ).json()
    game, tokens = created["game_id"], [t["token"] for t in created["tokens"]]
    seen: list[set[int]] = [set() for _ in range(streams)]
    opened = threading.Semaphore(0)

    def listen(i: int) -> None:
        try:
            with requests.get(f"{url}/v1/games/{game}/events/stream", stream=True, timeout=60) as response:
                opened.release()
                for line in response.iter_lines():
                    if line.startswith(b"id:"):
                        seen[i].add(int(line[3:]))
                    elif line == b"event: game_finished":
                        break  # the feed stays open until the tally, which no worker makes here
        except requests.RequestException:
            opened.release()

    listeners = [threading.Thread(target=listen, args=(i,), daemon=True) for i in range(streams)]
    for listener in listeners:
        listener.start()
    opening = time.monotonic() + 10  # for all of them together: a worker class that cannot open them all
    for _ in range(streams):
        opened.acquire(timeout=max(0.0, opening - time.monotonic()))
    latencies = []
    for card in CARDS:
        for seat in range(3):
            started = time.perf_counter()
            try:
                moved = requests.post(
                    f"{url}/v1/games/{game}/moves",
                    json={"type": "play", "card": card},
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                    timeout=10,
                )
            except requests.RequestException:
                return f"moves blocked (timed out) with {streams} streams open"
            if moved.status_code != 200:
                return f"a move failed with {moved.status_code}: {moved.text[:200]}"
            latencies.append(time.perf_counter() - started)
    deadline = time.monotonic() + 20  # for all of them together: a stalled stream never ends on its own
    for listener in listeners:
        listener.join(timeout=max(0.0, deadline - time.monotonic()))
    total = requests.get(f"{url}/v1/games/{game}", timeout=10).json()["version"]
    complete = sum(versions >= set(range(1, total + 1)) for versions in seen)
    p50, p95 = statistics.median(latencies), statistics.quantiles(latencies, n=20)[-1]
    return f"move p50 {p50 * 1e3:.1f} ms, p95 {p95 * 1e3:.1f} ms; {complete}/{streams} streams saw all {total} events"


def main(streams: tuple[int, ...] = (20, 200), classes: tuple[str, ...] = tuple(CLASSES)) -> None:
    with tempfile.TemporaryDirectory() as data:
        redis_server = RedisServer(Path(data), free_port()).start()
        try:
            for name, args in ((n, CLASSES[n]) for n in classes):
                for count in streams:
                    process, url = serve(redis_server.url, args)
                    try:
                        print(f"gunicorn {name:8} {count:4} SSE streams: {measure(url, count)}", flush=True)
                    finally:
                        # Open streams would hold a graceful stop for the full timeout: kill the arbiter and workers.
                        os.killpg(process.pid, signal.SIGKILL)
                        process.wait(timeout=30)
        finally:
            redis_server.stop()


if __name__ == "__main__":
    main(classes=tuple(sys.argv[1:]) or tuple(CLASSES))
