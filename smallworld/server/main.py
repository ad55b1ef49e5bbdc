"""`smallworld serve`: the server on uvicorn, with structured (JSON-lines) logs."""

from __future__ import annotations

import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from smallworld.server.app import MAX_BODY, create_app
from smallworld.server.store import default_url


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger and the message (itself JSON when it is)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        msg = record.getMessage()
        try:
            data = json.loads(msg)
        except ValueError:
            data = None
        if isinstance(data, dict):
            out.update(data)
        else:
            out["message"] = msg
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out)


def setup_logging(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.Formatter.converter = time.gmtime


def serve(
    host: str,
    port: int,
    db: str | None,
    redis: str | None,
    data_dir: str | Path,
    bot_workers: int = 1,
    rate: float = 50.0,
    log_level: str = "info",
) -> None:
    import uvicorn

    setup_logging(getattr(logging, log_level.upper(), logging.INFO))
    url = db or default_url(data_dir)
    app = create_app(url, redis, bot_workers=bot_workers, rate=rate, socket_rate=rate)
    # No per-message deflate: views are a few kilobytes, and compressing each one for every socket
    # cost the server about a tenth of its CPU per action in `bench server`.
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_BODY,
        ws_per_message_deflate=False,
        log_config=None,
        log_level=log_level,
    )
