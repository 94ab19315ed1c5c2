"""`syndicate run`'s supervisor: it starts its children in order, restarts whichever dies (with backoff),
and stops them all, last started first, when asked.

Each child runs in a session of its own: Ctrl-C reaches the supervisor alone, which stops Redis only after
the processes that use it; and when a child dies, whatever it had started (gunicorn's workers, RQ's scheduler)
is killed with it rather than left holding a port or a lock.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from service.worker.backoff import Backoff

log = logging.getLogger(__name__)

Start = Callable[[], subprocess.Popen[bytes]]


def command(args: list[str], env: Mapping[str, str] | None = None) -> Start:
    """Start `args` as a child in a session (and so a process group) of its own."""
    return lambda: subprocess.Popen(args, env=env, start_new_session=True)


@dataclass
class Child:
    """A process to keep running; `start` may raise if it cannot start."""

    name: str
    start: Start
    backoff: Backoff = field(default_factory=Backoff)
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    due_at: float = 0.0
    """When to start it (again)."""


def describe(status: int) -> str:
    return f"killed by {signal.Signals(-status).name}" if status < 0 else f"exit status {status}"


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill what is left of a child's process group: what it started and left behind."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)


class Supervisor:
    def __init__(self, children: list[Child], poll_s: float = 0.2, stop_timeout_s: float = 30) -> None:
        self.children = children
        self.poll_s = poll_s
        self.stop_timeout_s = stop_timeout_s
        self.stopping = threading.Event()

    def run(self) -> None:
        """Keep every child running until `stop()`; then stop them, last started first."""
        try:
            while not self.stopping.is_set():
                for child in self.children:
                    self.tend(child)
                self.stopping.wait(self.poll_s)
        finally:
            for child in reversed(self.children):
                self.halt(child)

    def stop(self) -> None:
        """Safe to call from a signal handler."""
        self.stopping.set()

    def tend(self, child: Child) -> None:
        """Notice a child's death and schedule its restart; start it when it is due."""
        now = time.monotonic()
        if child.process is not None and (status := child.process.poll()) is not None:
            kill_group(child.process)
            delay = child.backoff.delay(now - child.started_at)
            pid, how = child.process.pid, describe(status)
            log.warning("%s (pid %d) died (%s); restarting it in %g s", child.name, pid, how, delay)
            child.process, child.due_at = None, now + delay
        if child.process is None and now >= child.due_at and not self.stopping.is_set():
            self.launch(child)

    def launch(self, child: Child) -> None:
        try:
            child.process = child.start()
        except Exception as error:  # e.g. a redis-server that does not come up on its port
            delay = child.backoff.delay(0)
            log.error("%s did not start: %s; trying again in %g s", child.name, error, delay)
            child.due_at = time.monotonic() + delay
            return
        child.started_at = time.monotonic()
        log.info("%s started (pid %d)", child.name, child.process.pid)

    def halt(self, child: Child) -> None:
        process = child.process
        if process is None:
            return
        if process.poll() is None:
            log.info("stopping %s (pid %d)", child.name, process.pid)
            process.terminate()
            try:
                process.wait(timeout=self.stop_timeout_s)
            except subprocess.TimeoutExpired:
                log.warning("%s (pid %d) did not stop in time; killing it", child.name, process.pid)
                process.kill()
                process.wait()
        kill_group(process)
