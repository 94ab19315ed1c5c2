"""The `syndicate` command-line tool: serve, run a worker, write the OpenAPI document."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from typing import BinaryIO

import click
import prometheus_client
import redis
import yaml
from redis.exceptions import RedisClusterException
from rq import Queue

from events.envelope import decode as envelope_decode
from games.registry import RULESETS
from games.search import DEFAULT_BUDGET_MS, Budget
from games.selfplay import contenders, rotations
from games.selfplay import simulate as simulate_games
from service.application import queries
from service.application.audit import audit_log, audit_player
from service.application.house import House
from service.application.rebuild import rebuild_read_models
from service.bootstrap import bootstrap
from service.config import Config, ConfigError
from service.http import context
from service.observability import logs
from service.ops import arena as arenas
from service.ops import gunicorn_conf
from service.ops.cluster import local_topology
from service.ops.gunicorn_conf import gunicorn_args
from service.ops.redis_server import RedisServer, binary
from service.ops.supervisor import Child, Supervisor, command
from service.worker import jobs
from service.worker.backoff import Backoff
from service.worker.runner import Worker, release_paced, running_here, sweep_every, work_until_stopped
from service.worker.scheduler import QUEUES, Scheduler


@click.group()
def main() -> None:
    """Syndicate: gangster card games over HTTP."""


@main.command()
def run() -> None:
    """Serve the API with gunicorn and a worker; start a Redis under ./var/ unless REDIS_URL is set.

    Whichever of them dies is restarted (see service/ops/supervisor.py); SIGINT or SIGTERM stops them all."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s syndicate run: %(message)s", datefmt="%H:%M:%S")
    config = Config()
    env = dict(os.environ)
    children = []
    if config.redis_url:
        checked(config)  # a setting that cannot work is said now, not by each child as it dies
    else:
        try:
            binary()
        except RuntimeError as error:
            raise click.UsageError(f"REDIS_URL is not set, and no Redis of our own can be started: {error}") from None
        server = RedisServer(config.data_dir / "redis", config.redis_port, config.redis_fsync)
        env["REDIS_URL"] = server.url
        children.append(Child("redis-server", server.start_process))
        click.echo(f"redis-server (AOF on) at {server.url}, data in {server.data_dir}/")
    # One metrics directory for gunicorn's workers and the worker: the API's /metrics counts bot turns too.
    metrics_dir = None if env.get("PROMETHEUS_MULTIPROC_DIR") else tempfile.mkdtemp(prefix="syndicate-metrics-")
    if metrics_dir:
        env["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    children.append(Child("gunicorn", command([sys.executable, "-m", "service.ops.cli", "serve"], env)))
    children.append(Child("worker", command([sys.executable, "-m", "service.ops.cli", "worker"], env)))
    supervisor = Supervisor(children)
    signal.signal(signal.SIGINT, lambda *_: supervisor.stop())
    signal.signal(signal.SIGTERM, lambda *_: supervisor.stop())
    click.echo(f"Syndicate on http://{config.host}:{config.port}/  (docs at /docs; Ctrl-C stops it all)")
    try:
        supervisor.run()
    finally:
        if metrics_dir:
            shutil.rmtree(metrics_dir, ignore_errors=True)


@main.command()
def serve() -> None:
    """Serve the API with gunicorn at SYNDICATE_HOST:SYNDICATE_PORT with SYNDICATE_WEB_WORKERS workers (the
    container's command; `syndicate run` runs it too). gunicorn takes over this process."""
    config = Config()
    if not config.redis_url:
        raise click.UsageError("set REDIS_URL to the Redis that holds the games (`syndicate run` starts its own)")
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # where each worker keeps its counts for /metrics
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="syndicate-metrics-")
        os.environ[gunicorn_conf.TEMPORARY] = "1"  # gunicorn removes it when it exits
    sys.stdout.flush()
    os.execv(sys.executable, [sys.executable, "-m", "gunicorn", *gunicorn_args(config)])


@main.command("cluster")
@click.option("--apis", type=click.IntRange(min=1), default=2, show_default=True, help="API processes")
@click.option("--workers", type=click.IntRange(min=0), default=2, show_default=True, help="worker processes")
def cluster_command(apis: int, workers: int) -> None:
    """Run the scaled-out topology on this machine: a Redis Cluster (3 masters, 3 replicas), a Redis for the
    queues, API processes on ports from SYNDICATE_PORT up, and workers; Ctrl-C stops it all.

    Cluster nodes listen on SYNDICATE_CLUSTER_PORT (7000) to +5, the queue Redis on SYNDICATE_QUEUE_PORT (6391),
    data under SYNDICATE_DATA_DIR (var)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s syndicate cluster: %(message)s", datefmt="%H:%M:%S")
    config = Config()
    node_port = int(os.environ.get("SYNDICATE_CLUSTER_PORT", "7000"))
    queue_port = int(os.environ.get("SYNDICATE_QUEUE_PORT", "6391"))
    children, lines = local_topology(
        config.data_dir, node_port, queue_port, config.port, apis, workers, config.redis_fsync
    )
    supervisor = Supervisor(children)
    signal.signal(signal.SIGINT, lambda *_: supervisor.stop())
    signal.signal(signal.SIGTERM, lambda *_: supervisor.stop())
    for line in lines:
        click.echo(line)
    click.echo("Ctrl-C stops it all")
    supervisor.run()


@main.command()
@click.option("--burst", is_flag=True, help="work until the queue is empty, then stop")
@click.option("--check", is_flag=True, help="exit 0 if a worker of this host is registered and alive (health check)")
def worker(burst: bool, check: bool) -> None:
    """Run an RQ worker (with its scheduler) for bots, deadlines, tallies and the sweep; it outlives Redis outages."""
    config = Config()
    if check:  # a health check answers at once: it asks the queue's Redis, where workers register
        sys.exit(0 if running_here(checked(config).queue_redis()) else 1)
    client, queue_client = connect_when_up(), checked(config).queue_redis()
    logs.configure(logging.INFO)  # one JSON line per job (service/worker/jobs.py)
    logging.getLogger("rq").setLevel(logging.WARNING)  # RQ's own lines per job would repeat ours
    services = bootstrap(config, client, queue_client)
    scheduler = services.jobs
    assert isinstance(scheduler, Scheduler)
    house = House(services, config.stall_s, budget=Budget(ms=config.bot_budget_ms), review_step_s=config.review_step_s)
    workshop = jobs.Workshop(house, scheduler)
    if config.worker_metrics_port:
        prometheus_client.start_http_server(config.worker_metrics_port)
    if burst:
        queues = [Queue(name, connection=queue_client) for name in QUEUES]
        Worker(queues, connection=queue_client, workshop=workshop).work(
            with_scheduler=True, burst=True, logging_level="WARNING"
        )
        return
    threading.Thread(target=sweep_every, args=(queue_client, config.sweep_s), daemon=True).start()
    threading.Thread(target=release_paced, args=(scheduler,), daemon=True).start()
    work_until_stopped(queue_client, workshop)


@main.command()
def openapi() -> None:
    """Print the OpenAPI document generated from the code (committed as api_spec/openapi.yaml)."""
    click.echo(openapi_yaml(), nl=False)


def connect() -> redis.Redis:
    config = Config()
    if not config.redis_url:
        own = RedisServer(config.data_dir / "redis", config.redis_port).url
        raise click.UsageError(
            f"set REDIS_URL to the Redis that holds the games (the one `syndicate run` starts: REDIS_URL={own})"
        )
    return checked(config).redis()


def connect_when_up() -> redis.Redis:
    """`connect()`, waiting for a Redis Cluster that does not answer yet: its client asks a node for the
    cluster's layout as it is made (a plain Redis client connects at its first command, and the worker waits
    there)."""
    backoff = Backoff()
    while True:
        try:
            return connect()
        except (redis.RedisError, RedisClusterException) as error:
            delay = backoff.delay(0)
            logging.warning("the games' Redis Cluster does not answer (%s); trying again in %g s", error, delay)
            time.sleep(delay)


def checked(config: Config) -> Config:
    try:
        config.check()
    except ConfigError as error:
        raise click.UsageError(str(error)) from None
    return config


@main.group()
def projections() -> None:
    """Read models: views, lobby, results, ratings, players."""


@projections.command("rebuild")
def rebuild() -> None:
    """Drop every read model and rebuild it from the event streams."""
    count = rebuild_read_models(bootstrap(client=connect()))
    click.echo(f"rebuilt the read models of {count} games")


@main.command()
@click.argument("game_id", required=False)
@click.option("--log", "log_file", type=click.File("rb"), help="an exported log (NDJSON): audit it offline")
@click.option("--player", "player_id", help="audit a player's own log instead of a game's")
def audit(game_id: str | None, log_file: BinaryIO | None, player_id: str | None) -> None:
    """Replay a game's log through the rules and check it; exit 1 if any check fails."""
    if player_id is not None:
        store = bootstrap(client=connect()).players
        report = audit_player(player_id, store.log(player_id), store.get(player_id)).as_dict()
    elif log_file is not None:
        envelopes = [envelope_decode(line) for line in log_file if line.strip()]
        report = audit_log(game_id or (envelopes[0].game_id if envelopes else ""), envelopes).as_dict()
    elif game_id:
        report = queries.audit(bootstrap(client=connect()), game_id).as_dict()
    else:
        raise click.UsageError("name a game, or give --log FILE")
    click.echo(json.dumps(report, indent=2))
    sys.exit(0 if report["ok"] else 1)


BUDGET_MS = click.option(
    "--budget-ms",
    type=click.FloatRange(min=1),
    default=DEFAULT_BUDGET_MS,
    show_default=True,
    help="a searching bot's (hard) time a decision",
)
"""The `--budget-ms` of the commands that seat bots."""


@main.command()
@click.option(
    "--ruleset", "ruleset_id", type=click.Choice(sorted(RULESETS)), default="twelve-gangsters", show_default=True
)
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="games to play")
@click.option("--seats", required=True, help="a bot kind per seat, comma-separated: smart,random,random")
@click.option("--seed", type=int, default=0, show_default=True, help="the seed the games' seeds derive from")
@BUDGET_MS
def simulate(ruleset_id: str, games: int, seats: str, seed: int, budget_ms: float) -> None:
    """Play all-bot games in-process (no Redis) and compare each bot's wins with its fair share."""
    ruleset = RULESETS[ruleset_id]
    kinds = seat_kinds(ruleset_id, seats)
    command = f"syndicate simulate --ruleset {ruleset_id} --games {games} --seats {','.join(kinds)} --seed {seed}"
    if "hard" in kinds:
        command += f" --budget-ms {budget_ms:g}"
    started = time.perf_counter()
    report = simulate_games(ruleset, kinds, games, seed, Budget(ms=budget_ms))
    elapsed = time.perf_counter() - started
    click.echo(f"$ {command}")
    click.echo(f"{ruleset.name}: {games} games, {len(kinds)} seats, in {elapsed:.1f} s")
    click.echo("")
    click.echo(f"{'seat':>4}  {'kind':<10} {'wins':>6} {'win rate':>9} {'mean score':>11}")
    for row in report["seats"]:
        click.echo(
            f"{row['seat']:>4}  {row['kind']:<10} {row['wins']:>6} {row['win_rate']:>9.1%} {row['mean_score']:>11.1f}"
        )
    click.echo("")
    click.echo(f"{'kind':<10} {'seats':>5} {'win rate':>9} {'fair share':>11} {'x fair':>7}")
    for kind, row in report["kinds"].items():
        click.echo(
            f"{kind:<10} {row['seats']:>5} {row['win_rate']:>9.1%} {row['fair_share']:>11.1%}"
            f" {row['vs_fair_share']:>7.2f}"
        )
    click.echo("")
    click.echo("A shared victory counts as a win for each winner; a kind's win rate is per seat.")


@main.command()
@click.option(
    "--ruleset", "ruleset_id", type=click.Choice(sorted(RULESETS)), default="twelve-gangsters", show_default=True
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=60,
    show_default=True,
    help="games to play, rounded up to whole rotations of the seats",
)
@click.option("--seats", required=True, help="a bot kind per seat, comma-separated: pimc,smart,random")
@click.option("--seed", type=int, default=0, show_default=True, help="the seed the games' seeds derive from")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="processes to play on")
@BUDGET_MS
def arena(ruleset_id: str, games: int, seats: str, seed: int, jobs: int, budget_ms: float) -> None:
    """Play head-to-head tables of bots in process (no Redis), each game turning the kinds one seat further, and
    print each kind's wins against its fair share, its decision times and its rating on the service's scale."""
    kinds = seat_kinds(ruleset_id, seats)
    games = rotations(games, len(kinds))
    command = f"syndicate arena --ruleset {ruleset_id} --games {games} --seats {','.join(kinds)} --seed {seed}"
    if "hard" in kinds:
        command += f" --budget-ms {budget_ms:g}"
    found = arenas.run(ruleset_id, kinds, games, seed, jobs, budget_ms)
    for line in arenas.lines(found, command + (f" --jobs {jobs}" if jobs > 1 else "")):
        click.echo(line)


def seat_kinds(ruleset_id: str, seats: str) -> list[str]:
    """The bot kind of each seat, as `--seats` names them; a usage error for a kind the ruleset has no bot of or
    a number of seats it does not take."""
    ruleset = RULESETS[ruleset_id]
    kinds = [kind.strip() for kind in seats.split(",")]
    known = contenders(ruleset)
    unknown = next((kind for kind in kinds if kind not in known), None)
    if unknown is not None:
        choices = ", ".join(sorted(known))
        raise click.UsageError(f"unknown bot kind {unknown!r} for {ruleset_id}: choose from {choices}")
    if not ruleset.min_seats <= len(kinds) <= ruleset.max_seats:
        seat_range = f"{ruleset.min_seats} to {ruleset.max_seats}"
        raise click.UsageError(f"{ruleset.name} takes {seat_range} seats, not {len(kinds)}")
    return kinds


def openapi_yaml() -> str:
    from service.http.app import create_app

    config = dataclasses.replace(Config(), redis_url="redis://127.0.0.1:1/0", redis_cluster=False, min_replicas=0)
    app = create_app(config)
    spec = app.extensions[context.API].document()
    document: str = yaml.safe_dump(spec, sort_keys=True, allow_unicode=True)
    return document


if __name__ == "__main__":
    main()
