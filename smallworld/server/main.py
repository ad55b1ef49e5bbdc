"""`smallworld serve`: the server on uvicorn, with structured (JSON-lines) logs."""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from smallworld.server.app import MAX_BODY, create_app
from smallworld.server.sockets import websocket_protocol
from smallworld.server.store import default_url

if TYPE_CHECKING:
    import uvicorn


# Secrets a log line could carry: a WebSocket's `?token=` (uvicorn logs each socket's path with its
# query string, and each HTTP request's in the access log), an invitation code sent the same way,
# an `Authorization: Bearer` header quoted in an error.
# The value ends where a URL's parameter or the line's JSON string does (a quote or an escape's
# backslash is never taken, so the line stays valid JSON).
SECRET = re.compile(r"(?i)((?:[?&;]|%3F|%26)(?:token|invite)(?:=|%3D)|\bbearer\s+)[^&;\s\"'\\#,)\]}]+")


def redact(text: str) -> str:
    """`text` with every token in it replaced by `[redacted]`."""
    return SECRET.sub(r"\1[redacted]", text)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger and the message (itself JSON when it is), with
    every token redacted (`redact`): whoever reads the logs must not be able to act for a seat."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(self._format(record))

    def _format(self, record: logging.LogRecord) -> str:
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


def address(host: str, port: int) -> str:
    """The address a person opens: a wildcard host is reached on this machine's loopback."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def open_browser(url: str, say: Callable[[str], None]) -> None:
    """Open `url` in the default browser where there is one; never fails when there is none.
    On Linux without a display `webbrowser` would fall back to a console browser (lynx, w3m) that
    takes over the terminal the server logs to, so there it only says to open the address."""
    headless = sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if headless:
        say("smallworld: no browser to open here (no display); open the address above")
        return

    def go() -> None:
        try:
            ok = webbrowser.open(url)
        except Exception:  # any failure of the platform's launcher: the server goes on
            ok = False
        if not ok:
            say("smallworld: no browser could be opened; open the address above")

    # In a thread: some launchers wait for the browser, and the server must not.
    threading.Thread(target=go, name="open-browser", daemon=True).start()


def _say(line: str) -> None:
    print(line, flush=True)


def _server(config: uvicorn.Config, on_ready: Callable[[int], None]) -> uvicorn.Server:
    import uvicorn

    class Server(uvicorn.Server):
        """Calls `on_ready` with the port once the sockets listen (the real port for `--port 0`)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started and not self.should_exit:
                ports = [s.getsockname()[1] for srv in self.servers for s in (srv.sockets or ())]
                on_ready(ports[0] if ports else config.port)

    return Server(config)


def serve(
    host: str,
    port: int,
    db: str | None,
    redis: str | None,
    data_dir: str | Path,
    bot_workers: int = 1,
    rate: float = 50.0,
    log_level: str = "info",
    open_in_browser: bool = False,
    say: Callable[[str], None] = _say,
    token_rate: float | None = None,
    **app_options: Any,
) -> None:
    """Run the server until stopped. Once it listens, `say` is told its address in one line
    (`smallworld: open http://127.0.0.1:8000/`), and with `open_in_browser` the default browser
    opens the lobby there. `app_options` go to `create_app` (limits, bot delay)."""
    import uvicorn

    setup_logging(getattr(logging, log_level.upper(), logging.INFO))
    url = db or default_url(data_dir)
    app = create_app(
        url, redis, bot_workers=bot_workers, rate=rate, socket_rate=rate, token_rate=token_rate, tune=True,
        **app_options,
    )

    def ready(bound: int) -> None:
        where = address(host, bound)
        say(f"smallworld: open {where}")
        if open_in_browser:
            open_browser(where, say)

    # No per-message deflate: views are a few kilobytes, and compressing each one for every socket
    # cost the server about a tenth of its CPU per action in `bench server`.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_BODY,
        ws_per_message_deflate=False,
        ws=websocket_protocol(),  # drops a client that does not read, instead of waiting on it
        log_config=None,
        log_level=log_level,
    )
    _server(config, ready).run()
