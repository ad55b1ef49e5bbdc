"""Shared checks of the server tests: what a message may show a seat, against the engine itself."""

from __future__ import annotations

import contextlib
import email
import email.message
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from needs import SERVICES, require
from starlette.testclient import TestClient

from smallworld.engine.api.game import Game
from smallworld.engine.model.settings import Settings
from smallworld.engine.model.state import State
from smallworld.server.store import Store

ROOT = Path(__file__).resolve().parents[2]

# A test whose logic reaches SQL runs on both stores: its `db_url` (and the `client`, apps and
# browsers made on it) is a fresh SQLite file, then a fresh PostgreSQL database (the session's,
# `conftest.services`). The other tests keep SQLite alone, so that PostgreSQL's share of `make test`
# stays small.
ON_BOTH_STORES = pytest.mark.parametrize(
    "db_url", ["sqlite", pytest.param("postgresql", marks=SERVICES)], indirect=True
)


def replayed(store: Store, gid: str, upto: int | None = None) -> State:
    """The game rebuilt from the store (with its secret seed), at ply `upto` (default: the end)."""
    g = store.game(gid)
    assert g is not None
    st = Game(Settings.from_json({**g["settings"], "seed": g["seed"]})).new_initial_state()
    for row in store.actions(gid):
        if upto is not None and row.ply >= upto:
            break
        st.apply(row.action, seat=row.seat)
    return st


def browser_of(main: TestClient) -> TestClient:
    """Another browser (its own cookies) on the app `main` runs: the same service, on `main`'s event
    loop; not to be entered (`with`), which would run the app's lifespan again: a second service on
    the store, whose games' asyncio locks the two clients' event loops would share (`RuntimeError:
    ... bound to a different event loop` when two requests meet at one)."""
    c = TestClient(main.app, base_url=str(main.base_url))
    c.portal = main.portal
    return c


@contextlib.contextmanager
def another_browser(main: TestClient) -> Iterator[TestClient]:
    """`browser_of(main)`, closed at the end of the `with`."""
    c = browser_of(main)
    try:
        yield c
    finally:
        c.close()


def keys(obj: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            out |= keys(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= keys(v)
    return out


def assert_hides(msg: dict[str, Any], seat: int | None, seed: int) -> None:
    """Nothing in `msg` (any answer or socket message) that `seat` may not know before the end."""
    text = json.dumps(msg)
    assert str(seed) not in text and format(seed, "x") not in text, "the seed leaked"
    assert not {"seed", "rolls"} & keys(msg), "the seed or scripted rolls leaked"
    view = msg.get("view")
    if view is None:
        return
    assert "rng" not in view, "the generator's state leaked"
    if view.get("result") is not None:
        return
    for i, s in enumerate(view["seats"]):
        if i != seat:
            assert s["coins"] is None, f"seat {i}'s coins shown to {seat}"
    for stack in ("race_stack", "power_stack", "spare_markers"):
        assert set(view[stack]) == {"count"}, f"the order of {stack} shown"
    for here in view["markers"].values():
        for m in here:
            assert m["face_up"] or m["id"] is None, "a face-down marker shown"
    for entry in view["regions"].values():
        for tag in entry.get("tags", {}).get("bomb", []):
            assert tag.get("kind") is None, "a bomb's kind shown"


def fresh_pg_database(admin_url: str) -> str:
    """A new empty database on the session's PostgreSQL; its URL."""
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return admin_url.rsplit("/", 1)[0] + "/" + name


def wait_until(what: str, done: Callable[[], bool], seconds: float = 120) -> None:
    """Wait for `done()`, polling: a test waits for what it expects to happen, never a fixed time.
    The deadline only catches what never happens (`what` says what that was)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def wait_game(
    client: Any, gid: str, done: Callable[[dict[str, Any]], bool], what: str = "the game stalled"
) -> dict[str, Any]:
    """Poll the game's summary until `done(summary)`; the deadline only catches a game that stalls."""
    deadline = time.monotonic() + 180
    while True:
        g = client.get(f"/api/games/{gid}").json()
        if done(g):
            return dict(g)
        assert time.monotonic() < deadline, f"{what} at ply {g.get('ply')}"
        time.sleep(0.02)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """`smallworld serve` in a child process, waited for until /healthz answers."""

    def __init__(
        self, db: str, redis: str | None = None, log: Path | None = None, extra: tuple[str, ...] = ()
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        args = [
            sys.executable,
            "-m",
            "smallworld.cli",
            "serve",
            "--port",
            str(self.port),
            "--db",
            db,
            "--rate",
            "0",
            "--token-rate",
            "0",
            "--sockets-per-address",
            "0",
            *extra,
        ]
        if redis:
            args += ["--redis", redis]
        self.log = open(log or os.devnull, "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(args, cwd=ROOT, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            try:
                if httpx.get(self.url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not start")
            time.sleep(0.1)

    @property
    def ws(self) -> str:
        return self.url.replace("http://", "ws://")

    def kill(self) -> None:
        self.proc.kill()  # SIGKILL: no shutdown code runs
        self.proc.wait(timeout=30)
        self.log.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)
        self.log.close()


class Services:
    """A PostgreSQL and a Redis of one test's own (tools/test-services.sh), which the test may stop
    and start again: the session's pair is shared and must stay up."""

    SCRIPT = str(ROOT / "tools" / "test-services.sh")

    def __init__(self) -> None:
        require("postgres", "redis")
        # Under /tmp itself: PostgreSQL runs as its own user, who must reach the folder (pytest's
        # tmp_path is private to root).
        self.dir = tempfile.mkdtemp(prefix="sw-services-")
        out = self._run("start")
        urls = dict(line.split("=", 1) for line in out.split() if "=" in line)
        self.pg, self.redis = urls["PG_URL"], urls["REDIS_URL"]

    def _run(self, command: str) -> str:
        out = subprocess.run([self.SCRIPT, command, self.dir], capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise RuntimeError(f"test-services.sh {command}: {out.stderr}")
        return out.stdout

    def pg_stop(self) -> None:
        self._run("pg-stop")

    def pg_start(self) -> None:
        self._run("pg-start")

    def redis_stop(self) -> None:
        self._run("redis-stop")

    def redis_start(self) -> None:
        self._run("redis-start")

    def close(self) -> None:
        self._run("stop")
        shutil.rmtree(self.dir, ignore_errors=True)


class Sink:
    """A local SMTP server's handler (aiosmtpd's `Controller`) that keeps what it is sent."""

    def __init__(self) -> None:
        self.mails: list[email.message.Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append(email.message_from_bytes(envelope.content))
        return "250 OK"


def seat_updates(store: Store, seat: int) -> list[dict[str, Any]]:
    """From now on, every change the service writes to `seat`'s row (`Store.update_seat`), in order:
    a game with a short clock changes a seat again between a request and the test's next read, and
    the writes say which change came from what."""
    updates: list[dict[str, Any]] = []
    update_seat = store.update_seat

    def recorded(game_id: str, at: int, **values: Any) -> None:
        update_seat(game_id, at, **values)
        if at == seat:
            updates.append(values)

    store.update_seat = recorded  # type: ignore[method-assign,assignment]
    return updates
