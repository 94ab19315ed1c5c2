"""Logs as JSON, one object a line on stderr, so a log collector reads fields instead of parsing prose.

A line has `time` (UTC, ISO 8601), `level`, `logger`, `pid` and `message`, and whatever fields its call passed as
`extra={"fields": {...}}`: a request's id, route, status and duration (service/http/telemetry.py), a job's id,
game, outcome and the id of the request it came from (service/worker/jobs.py).
"""

from __future__ import annotations

import logging
import time
from contextvars import ContextVar
from typing import Any

import msgspec

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
"""The request this code works for, or the request whose job it runs: a job queued meanwhile keeps it
(service/worker/scheduler.py), so a bot's turn logs the id of the move or the creation that called for it."""


class JsonFormatter(logging.Formatter):
    """One JSON object a record (every request writes one: msgspec encodes it, anything it cannot as a string)."""

    encode = msgspec.json.Encoder(enc_hook=str).encode

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": utc_ms(record.created),
            "level": record.levelname,
            "logger": record.name,
            "pid": record.process,
            "message": record.getMessage(),
            **getattr(record, "fields", {}),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return self.encode(entry).decode()


def utc_ms(seconds: float) -> str:
    """A time as ISO 8601 in UTC to the millisecond, cut down (not rounded) from one count of them."""
    ms = int(seconds * 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + f".{ms % 1000:03d}+00:00"


def configure(level: int = logging.INFO) -> None:
    """Every logger of this process writes JSON lines to stderr at `level` and above."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


GUNICORN = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": JsonFormatter}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
    "root": {"level": "INFO", "handlers": ["stderr"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["stderr"], "propagate": False},
        # The app logs each request itself, with its id and game; gunicorn's access line would repeat it.
        "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
    },
}
"""gunicorn's `logconfig_dict`: its own lines and the app's, all as JSON (service/ops/gunicorn_conf.py)."""
