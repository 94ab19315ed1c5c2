"""`make cluster` (`syndicate cluster`): the whole topology on one machine, as the README tells a user to try it."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import requests

from service.ops.cluster import BUS_OFFSET, LocalCluster
from tests.cluster.conftest import ready
from tests.waiting import wait_for


def free_run(count: int) -> int:
    """The first of `count` consecutive free ports whose cluster bus ports are free too."""
    while True:
        base = random.randrange(20000, 30000)
        try:
            for port in [p for first in range(base, base + count) for p in (first, first + BUS_OFFSET)]:
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base


def test_make_cluster_serves_a_game_on_either_api_and_stops_on_ctrl_c(cluster: LocalCluster, tmp_path: Path) -> None:
    # (`cluster` only so that this test is skipped, with the others, where no cluster can run.)
    base = free_run(6 + 1 + 2)
    env = {
        **os.environ,
        "SYNDICATE_DATA_DIR": str(tmp_path),
        "SYNDICATE_CLUSTER_PORT": str(base),
        "SYNDICATE_QUEUE_PORT": str(base + 6),
        "SYNDICATE_PORT": str(base + 7),
        "SYNDICATE_SWEEP_S": "1",
        "SYNDICATE_BOT_PACE_S": "0",  # its bot game as fast as the workers go
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "service.ops.cli", "cluster"], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(5)]
        urls = [m.group(1) for line in lines if (m := re.match(r"API: (\S+)/ ", line))]
        assert urls == [f"http://127.0.0.1:{base + 7}", f"http://127.0.0.1:{base + 8}"], lines
        for url in urls:
            wait_for(lambda url=url: ready(url), timeout_s=30, what=url)
        seats = [{"bot": "smart"}, {"bot": "random"}, {"bot": "random"}]
        created = requests.post(f"{urls[0]}/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats}, timeout=10)
        game_id = created.json()["game_id"]

        def tallied() -> bool:
            result = requests.get(f"{urls[1]}/v1/games/{game_id}/result", timeout=10)
            return result.ok and result.json()["tallied"]

        wait_for(tallied, timeout_s=60, what="the bots' game, played by the workers, read on the other API")
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
    assert all((tmp_path / "cluster" / f"node-{base + i}" / "nodes.conf").stat().st_size for i in range(6))
    for port in range(base, base + 9):
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0, f"port {port} still answers"
