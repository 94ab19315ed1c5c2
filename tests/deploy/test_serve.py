"""`syndicate serve`, the container's command, as a real gunicorn: it honours SYNDICATE_HOST, _PORT and
_WEB_WORKERS (and the image's and compose's health checks ask the port it listens on), logs JSON, adds its
workers' metrics up, and stops within its graceful timeout with a live feed open, ending the feed cleanly so that
its client can resume with Last-Event-ID."""

from __future__ import annotations

import gc
import logging
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from flask import Flask
from gunicorn.config import Config

from service.observability.logs import GUNICORN
from service.ops.gunicorn_conf import GRACEFUL_TIMEOUT_S, AccessLogger, post_worker_init
from service.ops.redis_server import free_port
from tests.client import metric_value
from tests.deploy.conftest import Served
from tests.deploy.test_container import DOCKER_STOP_WAIT_S, compose, final_stage
from tests.waiting import wait_for

SEATS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]


def counter(url: str, name: str, **labels: str) -> float:
    return metric_value(requests.get(f"{url}/metrics", timeout=5).text, name, **labels)


def test_serve_binds_where_configured_with_as_many_workers_and_logs_json(serve: Callable[..., Served]) -> None:
    served = serve(workers=2)
    response = requests.get(f"{served.url}/readyz", headers={"X-Request-ID": "probe-42"}, timeout=5)
    assert response.status_code == 200 and response.headers["X-Request-ID"] == "probe-42"
    lines = served.lines()
    assert any(line["message"] == f"Listening at: {served.url} ({served.process.pid})" for line in lines)
    [logged] = wait_for(lambda: [line for line in served.lines() if line.get("request_id") == "probe-42"], "log")
    assert logged["route"] == "/readyz" and logged["status"] == 200 and logged["duration_ms"] >= 0


def test_metrics_add_up_across_workers(serve: Callable[..., Served]) -> None:
    served = serve(workers=2)

    def answered_by() -> set[int]:
        return {line["pid"] for line in served.lines() if line.get("route") == "/v1/games"}

    sent = 0
    while len(answered_by()) < 2:  # a new connection each time, until both workers have answered some
        assert requests.get(f"{served.url}/v1/games?page_size=1", timeout=5).status_code == 200
        sent += 1
        assert sent < 500, "one worker took every connection"
    labels = {"route": "/v1/games", "method": "GET", "status": "200"}
    for _ in range(4):  # whichever worker answers /metrics, it counts every worker's requests
        assert counter(served.url, "syndicate_http_requests_total", **labels) == sent


def test_on_sigterm_an_open_live_feed_ends_cleanly_and_the_server_stops_in_time(serve: Callable[..., Served]) -> None:
    served = serve(workers=1)
    created = requests.post(f"{served.url}/v1/games", json={"ruleset": "twelve-gangsters", "seats": SEATS}, timeout=5)
    game = created.json()["game_id"]
    received: list[str] = []
    ended: dict[str, Any] = {}

    def follow() -> None:
        with requests.get(f"{served.url}/v1/games/{game}/events/stream", stream=True, timeout=30) as response:
            try:
                received.extend(line for line in response.iter_lines(decode_unicode=True) if line.startswith("id: "))
                ended["cleanly"] = True
            except requests.exceptions.ChunkedEncodingError:
                ended["cleanly"] = False
            ended["at"] = time.monotonic()

    listener = threading.Thread(target=follow, daemon=True)
    listener.start()
    wait_for(lambda: received[-1:] == ["id: 3"], "the backlog to arrive")
    assert counter(served.url, "syndicate_live_feeds_open") == 1

    stopped_at = time.monotonic()
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=GRACEFUL_TIMEOUT_S + 5) == 0
    assert time.monotonic() - stopped_at < DOCKER_STOP_WAIT_S, "stopped before `docker stop` would SIGKILL it"
    listener.join(timeout=5)
    assert ended["cleanly"], "the feed ended with a complete response, not a cut connection"
    assert ended["at"] - stopped_at < GRACEFUL_TIMEOUT_S
    assert not any("graceful timeout" in line["message"] for line in served.lines()), "no worker had to be killed"


def test_serve_without_redis_url_says_so_and_starts_nothing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "service.ops.cli", "serve"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "set REDIS_URL" in done.stderr


def healthy(check: list[str], environ: dict[str, str]) -> bool:
    """Whether a health check's command passes, run with the container's environment (its `python` is ours)."""
    args = [sys.executable if arg == "python" else arg for arg in check]
    return subprocess.run(args, env={**os.environ, **environ}, capture_output=True, timeout=10).returncode == 0


def test_the_health_checks_ask_the_port_the_api_is_configured_to_listen_on(serve: Callable[..., Served]) -> None:
    served = serve()
    port = str(urlsplit(served.url).port)
    api = compose({"SYNDICATE_PORT": port})["services"]["api"]
    environment = {name: str(value) for name, value in api["environment"].items()}
    assert environment["SYNDICATE_PORT"] == port, "the API listens where it is told"
    assert [str(published).rpartition(":")[2] for published in api["ports"]] == [port], "and publishes that port"
    assert api["healthcheck"]["test"][0] == "CMD"
    compose_check = api["healthcheck"]["test"][1:]
    [image_check] = [rest.partition(" CMD ")[2] for keyword, rest in final_stage() if keyword == "HEALTHCHECK"]
    for check in (compose_check, shlex.split(image_check)):
        assert healthy(check, environment), check
        assert not healthy(check, {**environment, "SYNDICATE_PORT": str(free_port())}), "nothing listens there"


def test_a_worker_that_has_loaded_the_app_freezes_it_out_of_the_garbage_collectors_passes() -> None:
    """A full collection otherwise walks every module, schema and rule the app holds, and the worker's requests wait."""
    gc.unfreeze()
    app = Flask("loaded")
    try:
        post_worker_init(SimpleNamespace(wsgi=app, alive=True))
        assert gc.get_freeze_count() > 0
        assert app.extensions, "the live feeds were told how to know the worker serves"
    finally:
        gc.unfreeze()


def test_gunicorn_builds_no_access_line_that_the_logging_config_drops() -> None:
    """The app logs each request itself; gunicorn's access line, silenced, is not worked out either."""
    root = logging.getLogger()
    kept = root.handlers[:], root.level
    try:
        config = Config()
        config.set("logconfig_dict", GUNICORN)
        logger = AccessLogger(config)
        assert not logger.access_log.isEnabledFor(logging.INFO)
        logger.access(None, None, {}, timedelta(0))  # nothing is read of a response or request that is not there

        config.set("logconfig_dict", {**GUNICORN, "loggers": {"gunicorn.access": {"level": "INFO"}}})
        with pytest.raises(AttributeError):  # an access log left on is written as gunicorn writes it
            AccessLogger(config).access(None, None, {}, timedelta(0))
    finally:
        root.handlers[:], _ = kept
        root.setLevel(kept[1])
