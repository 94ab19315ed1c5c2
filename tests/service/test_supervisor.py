"""The supervisor `syndicate run` uses: a child that dies is restarted, with backoff, and logged."""

from __future__ import annotations

import re
import subprocess
import threading
import time
from collections.abc import Callable

import pytest

from service.ops.supervisor import Child, Supervisor, command
from service.worker.backoff import Backoff

LOGGER = "service.ops.supervisor"


def supervise(children: list[Child], seconds: float) -> Supervisor:
    """Run a supervisor over `children` for a while in a thread, then stop it."""
    supervisor = Supervisor(children, poll_s=0.01)
    thread = threading.Thread(target=supervisor.run)
    thread.start()
    time.sleep(seconds)
    supervisor.stop()
    thread.join(timeout=10)
    assert not thread.is_alive()
    return supervisor


def restart_delays(caplog: pytest.LogCaptureFixture, name: str) -> list[float]:
    return [float(d) for d in re.findall(rf"{name} \(pid \d+\) died .*; restarting it in ([\d.]+) s", caplog.text)]


def test_backoff_doubles_to_its_cap_and_starts_over_after_a_steady_run() -> None:
    backoff = Backoff(first=0.5, cap=4, steady_s=10)
    assert [backoff.delay(ran_s=1) for _ in range(6)] == [0.5, 1, 2, 4, 4, 4]
    assert backoff.delay(ran_s=60) == 0.5
    assert backoff.delay(ran_s=1) == 1


def test_a_child_that_keeps_dying_is_restarted_ever_more_slowly(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger=LOGGER)
    child = Child("flaky", command(["sh", "-c", "exit 3"]), Backoff(first=0.05, cap=0.2, steady_s=10))
    supervise([child], seconds=1.2)
    assert re.search(r"flaky \(pid \d+\) died \(exit status 3\); restarting it in 0.05 s", caplog.text)
    assert restart_delays(caplog, "flaky")[:5] == [0.05, 0.1, 0.2, 0.2, 0.2]


def test_a_child_that_ran_steadily_is_restarted_at_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger=LOGGER)
    child = Child("steady", command(["sh", "-c", "sleep 0.25; exit 1"]), Backoff(first=0.05, cap=1, steady_s=0.2))
    supervise([child], seconds=1.2)
    delays = restart_delays(caplog, "steady")
    assert len(delays) >= 3 and set(delays) == {0.05}


def test_a_child_that_cannot_even_start_is_tried_again(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger=LOGGER)
    tries: list[float] = []

    def start() -> subprocess.Popen[bytes]:
        tries.append(time.monotonic())
        raise RuntimeError("redis-server did not start on port 1")

    supervise([Child("redis-server", start, Backoff(first=0.05, cap=0.1))], seconds=0.5)
    assert 3 <= len(tries) <= 10
    assert "redis-server did not start: redis-server did not start on port 1; trying again in 0.05 s" in caplog.text


def test_stop_ends_every_child_last_started_first(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger=LOGGER)
    started: dict[str, subprocess.Popen[bytes]] = {}

    def tracked(name: str) -> Callable[[], subprocess.Popen[bytes]]:
        def start() -> subprocess.Popen[bytes]:
            started[name] = command(["sleep", "30"])()
            return started[name]

        return start

    begun = time.monotonic()
    supervise([Child("first", tracked("first")), Child("second", tracked("second"))], seconds=0.3)
    assert time.monotonic() - begun < 5
    assert all(process.returncode is not None for process in started.values())
    assert caplog.text.index("stopping second") < caplog.text.index("stopping first")
    assert "died" not in caplog.text
