"""`make run`'s server, started as `syndicate run` would be, plays the README's curl walkthrough."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from service.ops.redis_server import free_port

README = Path(__file__).parent.parent / "README.md"


def readme_blocks() -> tuple[str, str]:
    """The walkthrough script and the output the README says it prints."""
    text = README.read_text()
    script = re.search(r"<!-- walkthrough[^>]*-->\n```sh\n(.*?)```", text, re.S)
    output = re.search(r"It prints:\n\n```text\n(.*?)```", text, re.S)
    assert script and output, "the README lost its walkthrough"
    return script.group(1), output.group(1)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env |= {
        "SYNDICATE_PORT": str(port),
        "SYNDICATE_REDIS_PORT": str(free_port()),
        "SYNDICATE_DATA_DIR": str(tmp_path / "var"),
        "SYNDICATE_WEB_WORKERS": "1",
    }
    process = subprocess.Popen([sys.executable, "-m", "service.ops.cli", "run"], env=env, cwd=tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url, process)
        yield url, process
    finally:  # even when it did not come up: no server left behind
        if process.poll() is None:
            process.send_signal(signal.SIGINT)  # as Ctrl-C: it stops its gunicorn, worker and Redis
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            if requests.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except (requests.ConnectionError, requests.Timeout):
            pass  # not listening yet, or its worker still booting (slow on a busy machine)
        assert process.poll() is None and time.monotonic() < deadline, "syndicate run did not come up"
        time.sleep(0.2)


def test_readme_walkthrough_plays_a_game_to_its_result(live_server, tmp_path: Path) -> None:
    url, _ = live_server
    script, expected = readme_blocks()
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        env={**os.environ, "API": url, "SYNDICATE": str(Path(sys.executable).parent / "syndicate")},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected


def test_ctrl_c_stops_the_server_and_its_redis(live_server, tmp_path: Path) -> None:
    url, process = live_server
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=30) == 0
    with pytest.raises(requests.ConnectionError):
        requests.get(f"{url}/healthz", timeout=1)
    assert (tmp_path / "var" / "redis" / "appendonly.aof").exists() or any((tmp_path / "var" / "redis").glob("*.aof*"))
