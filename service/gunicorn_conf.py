"""gunicorn's settings beyond its command line (`syndicate serve` passes `--config python:service.gunicorn_conf`):
logs as JSON, and the hooks that keep `/metrics` right across workers and end live feeds before a worker stops."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from service.logs import GUNICORN
from service.supervisor import alive

logconfig_dict = GUNICORN
control_socket_disable = True
"""gunicorn's control socket has one path per user (~/.gunicorn/gunicorn.ctl): two servers on one host, two
`syndicate run`s or tests beside one, would take it from each other. Nothing here uses it."""

TEMPORARY = "SYNDICATE_METRICS_DIR_TEMPORARY"
"""Set by `syndicate serve` when it made PROMETHEUS_MULTIPROC_DIR itself, for this gunicorn only."""


def on_starting(server: Any) -> None:
    """A gunicorn started again (`syndicate run` restarts one that died) finds the files of workers that died
    with it: their share of the live gauges is dropped, their counts kept."""
    from prometheus_client import multiprocess

    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    for path in Path(directory).glob("gauge_live*_*.db") if directory else ():
        pid = int(path.stem.rsplit("_", 1)[1])
        if not alive(pid):
            multiprocess.mark_process_dead(pid, directory)


def post_worker_init(worker: Any) -> None:
    """Live feeds look at `worker.alive` while they wait: on SIGTERM they end, well within the graceful timeout,
    instead of holding the worker until it is killed (clients reconnect elsewhere with Last-Event-ID)."""
    from service import live

    live.serve_while(lambda: bool(worker.alive))


def child_exit(server: Any, worker: Any) -> None:
    """A worker that exited no longer counts in the live gauges (prometheus-client's multiprocess mode)."""
    from prometheus_client import multiprocess

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    """The metrics directory `syndicate serve` made goes with the server (one given to it stays)."""
    if os.environ.get(TEMPORARY) and (directory := os.environ.get("PROMETHEUS_MULTIPROC_DIR")):
        shutil.rmtree(directory, ignore_errors=True)
