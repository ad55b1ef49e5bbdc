"""The durable store: games, seats, players and every game's action log (SQLite or PostgreSQL, the
same code through SQLAlchemy 2). An action is appended in its own transaction before the server
acknowledges it; `(game_id, ply)` is the primary key, so of two writers of one move (two processes,
or a resend racing the first send) exactly one wins and the other gets `PlyTaken`."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, insert, select, update
from sqlalchemy.exc import IntegrityError

from smallworld.server import schema as t

MIGRATIONS = Path(__file__).with_name("migrations")


class PlyTaken(Exception):
    """Another action was already stored for this (game, ply)."""


@dataclass
class StoredAction:
    ply: int
    seat: int
    action: dict[str, Any]
    by: str


def normalize_url(url: str) -> str:
    """`postgresql://` means psycopg 3 (the driver the server depends on)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def default_url(data_dir: str | Path) -> str:
    path = Path(data_dir)
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(path / 'smallworld.db').resolve()}"


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            # WAL: readers never wait for the writer. synchronous=NORMAL keeps every committed
            # transaction through a process crash (SIGKILL); FULL would also survive a power cut.
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Apply every Alembic migration the database lacks (run at server start)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def _row(r: Any) -> dict[str, Any]:
    return dict(r._mapping)


class Store:
    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(url)
        migrate(self.engine)
        # SQLite has one writer at a time, and a writer that finds the database locked sleeps in
        # SQLite's busy handler (up to 100 ms a try). One lock per process hands the turn over at
        # once instead. (Several processes on one SQLite file still work, through that handler.)
        self._write = threading.Lock() if self.url.startswith("sqlite") else contextlib.nullcontext()

    @contextlib.contextmanager
    def _begin(self) -> Iterator[Connection]:
        with self._write, self.engine.begin() as c:
            yield c

    def close(self) -> None:
        self.engine.dispose()

    # --- players ---------------------------------------------------------------------------------
    def create_player(self, player_id: str, name: str, token_hash: str) -> None:
        with self._begin() as c:
            c.execute(
                insert(t.players).values(id=player_id, name=name, token_hash=token_hash, created=time.time())
            )

    def player_by_hash(self, token_hash: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            r = c.execute(select(t.players).where(t.players.c.token_hash == token_hash)).first()
        return _row(r) if r else None

    # --- games -----------------------------------------------------------------------------------
    def create_game(
        self,
        game_id: str,
        settings: dict[str, Any],
        seed: int,
        meta: dict[str, Any],
        seats: list[dict[str, Any]],
    ) -> None:
        now = time.time()
        status = (
            "open" if any(s["kind"] == "human" and s.get("player_id") is None for s in seats) else "playing"
        )
        with self._begin() as c:
            c.execute(
                insert(t.games).values(
                    id=game_id,
                    settings=json.dumps(settings),
                    seed=format(seed, "x"),
                    status=status,
                    ply=0,
                    meta=json.dumps(meta),
                    result=None,
                    created=now,
                    updated=now,
                )
            )
            for s in seats:
                row = {"away": False, "open": False, "bot": None, "bank_ms": None, "deadline": None, **s}
                c.execute(insert(t.seats).values(game_id=game_id, **row))

    def game(self, game_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as c:
            r = c.execute(select(t.games).where(t.games.c.id == game_id)).first()
        if r is None:
            return None
        g = _row(r)
        g["settings"] = json.loads(g["settings"])
        g["meta"] = json.loads(g["meta"])
        g["result"] = json.loads(g["result"]) if g["result"] else None
        g["seed"] = int(g["seed"], 16)
        return g

    def games_with_status(self, status: str, limit: int = 100) -> list[str]:
        with self.engine.connect() as c:
            q = select(t.games.c.id).where(t.games.c.status == status).order_by(t.games.c.created.desc())
            return [r[0] for r in c.execute(q.limit(limit))]

    def games_of_player(self, player_id: str) -> list[str]:
        with self.engine.connect() as c:
            q = select(t.seats.c.game_id).where(t.seats.c.player_id == player_id).distinct()
            return [r[0] for r in c.execute(q)]

    def set_status(self, game_id: str, status: str) -> None:
        with self._begin() as c:
            c.execute(
                update(t.games).where(t.games.c.id == game_id).values(status=status, updated=time.time())
            )

    # --- seats -----------------------------------------------------------------------------------
    def seats(self, game_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            q = select(t.seats).where(t.seats.c.game_id == game_id).order_by(t.seats.c.seat)
            return [_row(r) for r in c.execute(q)]

    def update_seat(self, game_id: str, seat: int, **values: Any) -> None:
        with self._begin() as c:
            c.execute(
                update(t.seats).where(t.seats.c.game_id == game_id, t.seats.c.seat == seat).values(**values)
            )

    def take_seat(self, game_id: str, seat: int, player_id: str, name: str, token_hash: str) -> bool:
        """Give a free human seat to a player; False when someone took it first (one UPDATE with the
        seat's freedom in its WHERE, so two joins cannot both win)."""
        with self._begin() as c:
            res = c.execute(
                update(t.seats)
                .where(t.seats.c.game_id == game_id, t.seats.c.seat == seat, t.seats.c.player_id.is_(None))
                .values(player_id=player_id, name=name, token_hash=token_hash, invite_hash=None, open=False)
            )
            if res.rowcount != 1:
                return False
            free = c.execute(
                select(t.seats.c.seat).where(
                    t.seats.c.game_id == game_id, t.seats.c.kind == "human", t.seats.c.player_id.is_(None)
                )
            ).first()
            if free is None:
                c.execute(
                    update(t.games)
                    .where(t.games.c.id == game_id, t.games.c.status == "open")
                    .values(status="playing", updated=time.time())
                )
        return True

    # --- the action log --------------------------------------------------------------------------
    def append(
        self,
        game_id: str,
        ply: int,
        seat: int,
        action: dict[str, Any],
        by: str,
        result: dict[str, Any] | None = None,
        seat_update: dict[str, Any] | None = None,
    ) -> None:
        """Store the action chosen at `ply` (the game's new ply is ply + 1); `PlyTaken` when that move
        already has one. Committed before it returns, with the seat's clock (`seat_update`)."""
        now = time.time()
        values: dict[str, Any] = {"ply": ply + 1, "updated": now}
        if result is not None:
            values["status"] = "over"
            values["result"] = json.dumps(result)
        try:
            with self._begin() as c:
                c.execute(
                    insert(t.actions).values(
                        game_id=game_id, ply=ply, seat=seat, action=json.dumps(action), by=by, created=now
                    )
                )
                c.execute(update(t.games).where(t.games.c.id == game_id).values(**values))
                if seat_update:
                    c.execute(
                        update(t.seats)
                        .where(t.seats.c.game_id == game_id, t.seats.c.seat == seat)
                        .values(**seat_update)
                    )
        except IntegrityError:
            raise PlyTaken(f"game {game_id}: ply {ply} already has an action") from None

    def actions(self, game_id: str, since: int = 0) -> list[StoredAction]:
        with self.engine.connect() as c:
            q = (
                select(t.actions.c.ply, t.actions.c.seat, t.actions.c.action, t.actions.c.by)
                .where(t.actions.c.game_id == game_id, t.actions.c.ply >= since)
                .order_by(t.actions.c.ply)
            )
            return [StoredAction(r[0], r[1], json.loads(r[2]), r[3]) for r in c.execute(q)]

    def action_count(self, game_id: str) -> int:
        return len(self.actions(game_id))
