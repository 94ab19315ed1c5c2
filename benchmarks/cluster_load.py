"""Scaling out on a Redis Cluster: moves/s through one API process against two, under the same load.

A 3-master, 3-replica Redis Cluster of our own (service/ops/cluster.py, the same as `make cluster`), a plain
Redis for the queues, and three API processes on it, each gunicorn with one gevent worker
(`service.ops.gunicorn_conf.gunicorn_args`): A and B as deployed, and C with `SYNDICATE_MIN_REPLICAS=1` (each write
waits for its replica). The clients play 3-seat 12 Gangsters games exactly as in `benchmarks.http_load` (one
keep-alive connection each), and the targets alternate in each round, so the machine's noise falls on all:
- `one`: every client on A;
- `two`: the clients split between A and B (a load balancer's job, done by the clients);
- `one+wait`: every client on C.
Each figure is the median over its rounds; the ratios are what to quote. On a machine of few cores the
cluster's six redis-servers, the clients and the API processes share them, so two processes gain only what
cores are left.

    .venv/bin/python -m benchmarks.cluster_load --clients 8 --duration 10 --rounds 3
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
from pathlib import Path
from typing import Any

import redis
from redis.cluster import RedisCluster

from benchmarks.common import Gunicorn, env_float, env_int, free_port, machine, ratio, say_command, service_config
from benchmarks.http_load import HEADER, RoundResult, describe, drive, summarise
from service.ops.cluster import LocalCluster
from service.ops.redis_server import RedisServer

TARGETS = ("one", "two", "one+wait")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cluster_load", description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=env_int("BENCH_HTTP_CLIENTS", 8))
    parser.add_argument("--duration", type=float, default=env_float("BENCH_HTTP_DURATION", 10), help="seconds")
    parser.add_argument("--rounds", type=int, default=env_int("BENCH_HTTP_ROUNDS", 3), help="rounds per target")
    parser.add_argument("--fsync", default="always", help="the cluster nodes' appendfsync (the service's default)")
    args = parser.parse_args(argv)
    print("== Scaling out: one API process against two on a 3-master Redis Cluster, the same load", flush=True)
    say_command(
        "benchmarks.cluster_load",
        ["--clients", str(args.clients), "--duration", f"{args.duration:g}", "--rounds", str(args.rounds)],
    )
    with tempfile.TemporaryDirectory(prefix="syndicate-bench-cluster-") as data:
        cluster = LocalCluster(Path(data) / "cluster", fsync=args.fsync).start()
        queues = RedisServer(Path(data) / "queues", free_port(), fsync="everysec").start()
        try:
            rounds = measure(cluster, queues, args)
        finally:
            queues.stop()
            cluster.stop()
    summary = {target: summarise(results) for target, results in rounds.items()}
    print(f"median of {args.rounds} rounds each:")
    print(HEADER)
    for target in TARGETS:
        s = summary[target]
        print(f"{target:<9} {s['rate']:>9.0f} {s['p50']:>8.2f} {s['p99']:>8.2f} {s['errors']:>7} {s['moves']:>8}")
    one, two, wait = (summary[t] for t in TARGETS)
    print(f"two/one: throughput {ratio(two['rate'], one['rate'])}, p50 {ratio(two['p50'], one['p50'])}")
    print(f"one+wait/one: throughput {ratio(wait['rate'], one['rate'])}, p50 {ratio(wait['p50'], one['p50'])}")
    for target, results in rounds.items():
        errors = [e for r in results for e in r.first_errors]
        if errors:
            print(f"{target}: {sum(r.errors for r in results)} errors; the first: " + " | ".join(errors[:5]))
    return summary


def measure(cluster: LocalCluster, queues: RedisServer, args: argparse.Namespace) -> dict[str, list[RoundResult]]:
    print(machine(redis.Redis(port=cluster.ports[0])))
    base = dataclasses.replace(
        service_config(cluster.url, 0, workers=1), redis_cluster=True, queue_url=queues.url, min_replicas=0
    )
    apis = [
        Gunicorn(dataclasses.replace(base, port=free_port())),
        Gunicorn(dataclasses.replace(base, port=free_port())),
        Gunicorn(dataclasses.replace(base, port=free_port(), min_replicas=1, replica_timeout_ms=1000)),
    ]
    print(
        f"Redis Cluster: 3 masters, 3 replicas, appendfsync {args.fsync}; {args.clients} client processes, "
        f"one keep-alive connection each, {args.duration:g} s per round; each API process gunicorn with 1 gevent "
        f"worker: {' '.join(apis[0].args)}",
        flush=True,
    )
    for api in apis:
        api.start()
    try:
        a, b, c = (api.config.port for api in apis)
        ports = {"one": [a], "two": [a, b], "one+wait": [c]}
        for target in TARGETS:
            drive("service", ports[target], args.clients, 2, target)  # warm-up
        rounds: dict[str, list[RoundResult]] = {t: [] for t in TARGETS}
        print(f"{'round':<6} {HEADER}")
        for number in range(1, args.rounds + 1):
            for target in TARGETS:
                result = drive("service", ports[target], args.clients, args.duration, target)
                rounds[target].append(result)
                print(f"{number:<6} {describe(result)}", flush=True)
        games = sum(1 for _ in RedisCluster.from_url(cluster.url).scan_iter(match="syndicate:game:*:events"))
        print(f"games played: {games}, over masters on ports {sorted(cluster.masters())}")
        return rounds
    finally:
        for api in apis:
            api.stop()


if __name__ == "__main__":
    main()
