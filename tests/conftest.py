"""One real redis-server per test session, on a port of its own, and a clean database per test."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from flask import Flask

from service.app import create_app
from service.config import Config
from service.redis_server import RedisServer, free_port
from tests.client import ApiClient


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(Path(tmp_path_factory.mktemp("redis")), free_port()).start()
    yield server
    server.stop()


@pytest.fixture
def redis_client(redis_server: RedisServer) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    yield client
    client.flushdb()


@pytest.fixture
def config(redis_server: RedisServer, redis_client: redis.Redis) -> Config:
    return dataclasses.replace(Config(), redis_url=redis_server.url, rate_limit="100000 per minute")


@pytest.fixture
def app(config: Config) -> Flask:
    return create_app(config, TESTING=True)


@pytest.fixture
def api(app: Flask) -> ApiClient:
    return ApiClient(app.test_client())
