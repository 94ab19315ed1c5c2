"""The floor of an event-sourced move over HTTP: what any move path pays, and nothing more.

One route, `POST /v1/games/<id>/moves`: parse the JSON body, run ONE Lua script that checks the expected
version (the `If-Match` header, when sent) against the game's stream and `XADD`s the move as the next entry,
answer a small JSON document. No rules, no snapshot, no tokens, no projections, no rate limit.

`benchmarks.http_load` serves it with the service's own gunicorn arguments (`gunicorn_args(Config)`: the same
worker class, number of workers and keep-alive), only the app swapped: `benchmarks.baseline:create_app()`.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import redis
from flask import Flask, request

# KEYS[1] the game's stream. ARGV[1] the expected version ('' for none), ARGV[2] the event.
APPEND = """
local length = redis.call('XLEN', KEYS[1])
if ARGV[1] ~= '' and tonumber(ARGV[1]) ~= length then return {'stale', length} end
redis.call('XADD', KEYS[1], (length + 1) .. '-0', 'e', ARGV[2])
return {'ok', length + 1}
"""


def stream_key(game_id: str) -> str:
    return f"bench:baseline:{{{game_id}}}:events"


def create_app(redis_url: str | None = None) -> Flask:
    client = redis.Redis.from_url(redis_url or os.environ["REDIS_URL"], socket_timeout=30, max_connections=1000)
    append = client.register_script(APPEND)
    app = Flask("baseline")

    @app.get("/livez")
    def live() -> Any:
        return {"status": "ok"}

    @app.post("/v1/games/<game_id>/moves")
    def move(game_id: str) -> Any:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return {"code": "malformed_json"}, 400
        expected = request.headers.get("If-Match", "").removeprefix("W/").strip('"')
        if expected and not expected.isdigit():
            return {"code": "invalid_header"}, 412
        event = json.dumps({"type": "move", "move": body, "at": time.time()}, separators=(",", ":"))
        outcome, version = append(keys=[stream_key(game_id)], args=[expected, event])
        if outcome == b"stale":
            return {"code": "version_mismatch", "version": int(version)}, 412
        return {"version": int(version)}, 200, {"ETag": f'"{int(version)}"'}

    return app
