"""How gunicorn serves the API: its command line (`gunicorn_args`, which `syndicate serve` runs), and the settings
beyond it (`--config python:service.ops.gunicorn_conf`): logs as JSON, and the hooks that keep `/metrics` right
across workers and end live feeds before a worker stops."""

from __future__ import annotations

import gc
import logging
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gunicorn.glogging import Logger

from service.observability.logs import GUNICORN
from service.observability.processes import alive

if TYPE_CHECKING:  # gunicorn loads this module before it patches sockets for gevent: nothing here imports redis
    from service.config import Config

GRACEFUL_TIMEOUT_S = 8
"""How long a stopping gunicorn lets requests finish: below the 10 s that `docker stop` waits before SIGKILL.
Live feeds end within live.WAKE_S of SIGTERM, and their clients resume elsewhere with Last-Event-ID."""


def gunicorn_args(config: Config) -> list[str]:
    """gevent workers: a live feed holds its connection open, and `make bench` shows gevent serving
    moves at a steady pace with 200 feeds open, where sync and gthread workers stall. Ours answer gunicorn's
    own refusals as problem+json (service/ops/gunicorn_worker.py)."""
    worker_class = "service.ops.gunicorn_worker.ProblemWorker"
    workers = ["--workers", str(config.workers), "--worker-class", worker_class, "--worker-connections", "1000"]
    settings = ["--config", "python:service.ops.gunicorn_conf", "--graceful-timeout", str(GRACEFUL_TIMEOUT_S)]
    return [*settings, "--bind", f"{config.host}:{config.port}", *workers, "service.wsgi:app"]


class AccessLogger(Logger):
    """gunicorn's logger, building no access line that the logging config drops: gunicorn works out a line's fields
    (every header, the time, the size) whenever a logging config is given, whatever its level for the access log.
    Ours silences it (the app logs each request itself), and the fields cost a worker 3% of its time under load."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        if self.access_log.isEnabledFor(logging.INFO):
            super().access(resp, req, environ, request_time)


logconfig_dict = GUNICORN
logger_class = AccessLogger
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
    instead of holding the worker until it is killed (clients reconnect elsewhere with Last-Event-ID).

    The app once loaded, what it holds is frozen out of the garbage collector's sight: its oldest generation's
    passes then walk only what requests left behind, instead of every module, schema and rule (a pass over all of
    it held a worker's requests for 20 to 40 ms)."""
    from service.http import context

    context.serve_while(worker.wsgi, lambda: bool(worker.alive))
    gc.collect()
    gc.freeze()


def child_exit(server: Any, worker: Any) -> None:
    """A worker that exited no longer counts in the live gauges (prometheus-client's multiprocess mode)."""
    from prometheus_client import multiprocess

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    """The metrics directory `syndicate serve` made goes with the server (one given to it stays)."""
    if os.environ.get(TEMPORARY) and (directory := os.environ.get("PROMETHEUS_MULTIPROC_DIR")):
        shutil.rmtree(directory, ignore_errors=True)
