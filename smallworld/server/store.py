"""The durable store: games, seats, players and every game's action log (SQLite or PostgreSQL, the
same code through SQLAlchemy 2). An action is appended in its own transaction before the server
acknowledges it; `(game_id, ply)` is the primary key, so of two writers of one move (two processes,
or a resend racing the first send) exactly one wins and the other gets `PlyTaken`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Required, TypedDict, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, delete, event, insert, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from smallworld.server import schema as t

MIGRATIONS = Path(__file__).with_name("migrations")


class PlyTaken(Exception):
    """Another action was already stored for this (game, ply)."""


@dataclass
class Append:
    """One action to store: chosen at `ply` by `seat`; `result` when it ended the game; `seat_update`:
    the seat's clock."""

    game_id: str
    ply: int
    seat: int
    action: dict[str, Any]
    by: str
    result: dict[str, Any] | None = None
    seat_update: dict[str, Any] | None = None


# The two statements of every append, in the driver's own SQL, executed for a whole batch at a time
# on the driver's cursor: SQLAlchemy's statement machinery cost three times the SQLite commit itself
# (200 against 60 microseconds an action). The placeholders are the driver's (`_driver_sql`).
_INSERT_ACTION = 'INSERT INTO actions (game_id, ply, seat, action, "by", created) VALUES (?, ?, ?, ?, ?, ?)'
# The game's ply moves on only from the ply the action was chosen at: after an undo (`truncate`) a
# process that missed it cannot store a move past the end of the log (a gap), it finds its move taken.
_GAME_PLY = "UPDATE games SET ply = ?, updated = ? WHERE id = ? AND ply = ?"


def _driver_sql(sql: str, paramstyle: str) -> str:
    """`sql` with qmark placeholders in the driver's style (sqlite3: qmark; psycopg: format)."""
    return sql if paramstyle == "qmark" else sql.replace("?", "%s")


@dataclass
class NewPlayer:
    """A player to write with the game or seat it comes with."""

    id: str
    name: str
    token_hash: str


class SeatRow(TypedDict):
    """A seat as stored (`schema.seats`), and as a live game holds it (`Live.seats`, where
    `deadline` is the service's: worked out from the clock, shown to clients, never stored)."""

    game_id: str
    seat: int
    kind: Literal["human", "bot"]
    name: str
    player_id: str | None  # the player holding it (a human seat once joined)
    token_hash: str | None  # its seat token's hash
    invite_hash: str | None  # its invitation's, until joined
    open: bool  # listed in the lobby, anyone may join
    bot: str | None  # the bot playing it now (also for a human away)
    away: bool  # a human out of time: the greedy bot plays until the player is back
    bank_ms: int | None  # live clock: the time left
    deadline: float | None
    token_used: float | None  # the seat token's last use (recorded at most once an hour)
    # Leaving (docs/players.md): clock misses in a row; when the seat was abandoned (two misses in a
    # row, or left during play); the player who left it (its results stay theirs).
    misses: int | None
    abandoned: float | None
    leaver: str | None


class NewSeat(TypedDict, total=False):
    """A seat of a new game (`create_game`): what its kind sets; the other columns default."""

    seat: Required[int]
    kind: Required[Literal["human", "bot"]]
    name: Required[str]
    player_id: Required[str | None]
    token_hash: str
    invite_hash: str
    open: bool
    bot: str
    bank_ms: int


class _Taken(Exception):
    """The seat was taken first: the join's transaction is rolled back."""


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
    # A connection attempt gives up after a few seconds: a database that does not answer (not only
    # one that refuses) is an outage the server reports (`unavailable`), not a request that hangs.
    return create_engine(
        url, pool_size=10, max_overflow=20, pool_pre_ping=True, pool_timeout=5,
        connect_args={"connect_timeout": 3},
    )


# The key of the PostgreSQL advisory lock the migrations run under (any fixed 64-bit number).
MIGRATE_LOCK = 0x736D616C6C776F72  # "smallwor"


def migrate(engine: Engine, revision: str = "head") -> None:
    """Apply every Alembic migration the database lacks (run at server start), in one transaction
    under a lock: of several processes started at once on an empty database, one creates the
    schema and the others wait, then find nothing to do (without the lock they raced to create the
    same tables and all but one exited). PostgreSQL: a transaction-scoped advisory lock; SQLite:
    the database's own write lock, taken at once (`BEGIN EXCLUSIVE`) rather than at the first
    write, and waited for up to the connection's 30-second busy timeout."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if engine.dialect.name != "sqlite":
        with engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATE_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
        return
    with engine.connect() as conn:
        # Python's sqlite3 opens transactions itself, and only before a write: off for this
        # connection, so that BEGIN EXCLUSIVE is the transaction the DDL runs in (SQLite's DDL is
        # transactional: a failed migration leaves nothing behind).
        raw = conn.connection.driver_connection
        assert raw is not None
        raw.isolation_level = None
        try:
            conn.exec_driver_sql("BEGIN EXCLUSIVE")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
            conn.commit()
        finally:
            if conn.in_transaction():
                conn.rollback()
            raw.isolation_level = ""


def _lock_game(c: Connection, game_id: str) -> str:
    """The game's status, its row locked to the end of the transaction: a write comes first, which
    takes the row's lock on PostgreSQL and the database's write lock on SQLite (whose transaction
    begins at its first write)."""
    c.execute(update(t.games).where(t.games.c.id == game_id).values(updated=time.time()))
    return str(c.execute(select(t.games.c.status).where(t.games.c.id == game_id)).scalar_one())


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
        style = self.engine.dialect.paramstyle
        self._sql_action = _driver_sql(_INSERT_ACTION, style)
        self._sql_ply = _driver_sql(_GAME_PLY, style)
        # The driver's own base error: `_insert` uses its cursor directly and wraps what it raises.
        self._dbapi_error: type[Exception] = self.engine.dialect.loaded_dbapi.Error

    @contextlib.contextmanager
    def _begin(self) -> Iterator[Connection]:
        with self._write, self.engine.begin() as c:
            yield c

    def close(self) -> None:
        self.engine.dispose()

    # --- players ---------------------------------------------------------------------------------
    def create_player(self, player_id: str, name: str, token_hash: str) -> None:
        with self._begin() as c:
            self._insert_player(c, NewPlayer(player_id, name, token_hash))

    def update_player(self, player_id: str, **values: Any) -> None:
        """Set a player's `used` (its token's last use) or `revoked` (logged out)."""
        with self._begin() as c:
            c.execute(update(t.players).where(t.players.c.id == player_id).values(**values))

    @staticmethod
    def _insert_player(c: Connection, p: NewPlayer) -> None:
        now = time.time()
        row = {"id": p.id, "name": p.name, "token_hash": p.token_hash, "created": now, "used": now}
        c.execute(insert(t.players).values(**row))

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
        seats: list[NewSeat],
        player: NewPlayer | None = None,
    ) -> tuple[str, float, list[SeatRow]]:
        """The game and its seats, with the `player` who creates it when that player is new: one
        transaction, so a game that cannot be stored leaves no player behind. Returns the game's
        status, its time of creation and its seat rows as `seats()` would read them back (so the
        creator need not read them)."""
        now = time.time()
        status = (
            "open" if any(s["kind"] == "human" and s.get("player_id") is None for s in seats) else "playing"
        )
        with self._begin() as c:
            if player is not None:
                self._insert_player(c, player)
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
            rows: list[SeatRow] = []
            for s in seats:
                row = {"away": False, "open": False, "bot": None, "bank_ms": None, "deadline": None, **s}
                row["token_used"] = now if row.get("token_hash") else None
                c.execute(insert(t.seats).values(game_id=game_id, **row))
                stored = {col.name: None for col in t.seats.columns} | row | {"game_id": game_id}
                rows.append(cast(SeatRow, stored))
        return status, now, rows

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

    def games_with_status(self, status: str, limit: int = 100, quiet_since: float | None = None) -> list[str]:
        """The newest games with `status`; with `quiet_since`, only those unchanged since then."""
        with self.engine.connect() as c:
            q = select(t.games.c.id).where(t.games.c.status == status)
            if quiet_since is not None:
                q = q.where(t.games.c.updated < quiet_since)
            return [r[0] for r in c.execute(q.order_by(t.games.c.created.desc()).limit(limit))]

    def plies(self, game_ids: list[str]) -> dict[str, tuple[int, str]]:
        """Each game's stored ply and status, in one query per thousand games."""
        out: dict[str, tuple[int, str]] = {}
        with self.engine.connect() as c:
            for i in range(0, len(game_ids), 1000):
                q = select(t.games.c.id, t.games.c.ply, t.games.c.status).where(
                    t.games.c.id.in_(game_ids[i : i + 1000])
                )
                out.update((r[0], (r[1], r[2])) for r in c.execute(q))
        return out

    def ping(self) -> None:
        """One round trip to the database (raises when it cannot be reached)."""
        with self.engine.connect() as c:
            c.execute(select(1))

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
    def seats(self, game_id: str) -> list[SeatRow]:
        with self.engine.connect() as c:
            q = select(t.seats).where(t.seats.c.game_id == game_id).order_by(t.seats.c.seat)
            return [cast(SeatRow, _row(r)) for r in c.execute(q)]

    def update_seat(self, game_id: str, seat: int, **values: Any) -> None:
        with self._begin() as c:
            c.execute(
                update(t.seats).where(t.seats.c.game_id == game_id, t.seats.c.seat == seat).values(**values)
            )

    def take_seat(
        self,
        game_id: str,
        seat: int,
        player_id: str,
        name: str,
        token_hash: str,
        player: NewPlayer | None = None,
    ) -> bool:
        """Give a free human seat to a player; False when someone took it first (one UPDATE with the
        seat's freedom in its WHERE, so two joins cannot both win). A new `player` is written in the
        same transaction, and not at all when the seat was taken first."""
        try:
            with self._begin() as c:
                _lock_game(c, game_id)  # a seat left meanwhile is seen free: the game does not start
                if player is not None:
                    self._insert_player(c, player)
                if not self._take(c, game_id, seat, player_id, name, token_hash):
                    raise _Taken  # rolls the new player back
        except _Taken:
            return False
        return True

    @staticmethod
    def _take(c: Connection, game_id: str, seat: int, player_id: str, name: str, token_hash: str) -> bool:
        res = c.execute(
            update(t.seats)
            .where(t.seats.c.game_id == game_id, t.seats.c.seat == seat, t.seats.c.player_id.is_(None))
            .values(
                player_id=player_id,
                name=name,
                token_hash=token_hash,
                token_used=time.time(),
                invite_hash=None,
                open=False,
            )
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

    def leave_seat(self, game_id: str, seat: int, bot: str) -> str:
        """Free the seat its player leaves, and answer the game's status. Before the start (`open`)
        the seat is open again for anyone; during play (`playing`) it becomes `bot`'s; a game that
        is over is left as it was. The game's row is locked first, as `take_seat` does, so a join in
        another process cannot start the game on the strength of a seat that is being left."""
        gone = {"player_id": None, "token_hash": None, "token_used": None, "away": False}
        with self._begin() as c:
            status = _lock_game(c, game_id)
            if status == "open":
                values = {**gone, "name": "", "open": True, "bot": None}
            elif status == "playing":
                # The player who leaves a game under way has abandoned it; its results stay theirs.
                left: dict[str, Any] = {"leaver": t.seats.c.player_id, "abandoned": time.time()}
                values = {**gone, "kind": "bot", "bot": bot, **left}
            else:
                return status
            c.execute(
                update(t.seats).where(t.seats.c.game_id == game_id, t.seats.c.seat == seat).values(**values)
            )
        return status

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
        err = self.append_many([Append(game_id, ply, seat, action, by, result, seat_update)])[0]
        if err is not None:
            raise err

    def append_many(self, items: list[Append], conn: Connection | None = None) -> list[Exception | None]:
        """Store several games' actions in one transaction (one commit, one log flush for all: group
        commit); for each, None once committed, or why not (`PlyTaken`). When one of them finds its
        move taken the transaction is rolled back whole and each is tried again on its own, so the
        others still go in. `conn`: a connection kept for writing (the `Appender`'s), which saves
        taking one from the pool and checking it (a round trip to PostgreSQL) at every commit; a
        connection that broke is opened again by SQLAlchemy at its next use."""
        try:
            if conn is None:
                with self._begin() as c:
                    self._insert(c, items)
            else:
                with self._write, conn.begin():
                    self._insert(conn, items)
            return [None] * len(items)
        except IntegrityError:
            if len(items) == 1:
                it = items[0]
                return [PlyTaken(f"game {it.game_id}: ply {it.ply} already has an action")]
        except Exception as e:  # e.g. the database is gone: each writer gets the error
            if len(items) == 1:
                return [e]
        out: list[Exception | None] = []
        for it in items:
            out += self.append_many([it])
        return out

    def _insert(self, c: Connection, items: list[Append]) -> None:
        now = time.time()
        rows = [(i.game_id, i.ply, i.seat, json.dumps(i.action), i.by, now) for i in items]
        going = [(i.ply + 1, now, i.game_id, i.ply) for i in items if i.result is None]
        moved = len(going)
        try:
            cur = c.connection.driver_connection.cursor()  # type: ignore[union-attr]
            try:
                if len(items) == 1:  # psycopg's executemany would open a pipeline for a single row
                    cur.execute(self._sql_action, rows[0])
                    if going:
                        cur.execute(self._sql_ply, going[0])
                        moved = cur.rowcount
                else:
                    cur.executemany(self._sql_action, rows)
                    if going:
                        cur.executemany(self._sql_ply, going)  # rowcount: the sum (sqlite3, psycopg 3)
                        moved = cur.rowcount
            finally:
                cur.close()
        except self._dbapi_error as e:
            # As SQLAlchemy would raise it (an OperationalError when the database went away), so
            # that callers tell an outage (`resilience.is_outage`) or a move taken from the rest.
            raise DBAPIError.instance(self._sql_action, None, e, self._dbapi_error) from e
        if moved != len(going):
            raise IntegrityError(self._sql_ply, None, Exception("a game is not at the ply of its action"))
        for i in items:
            if i.result is not None:
                over = c.execute(
                    update(t.games)
                    .where(t.games.c.id == i.game_id, t.games.c.ply == i.ply)
                    .values(ply=i.ply + 1, updated=now, status="over", result=json.dumps(i.result))
                )
                if over.rowcount != 1:
                    raise IntegrityError("games.ply", None, Exception("the game is not at the action's ply"))
            if i.seat_update:
                c.execute(
                    update(t.seats)
                    .where(t.seats.c.game_id == i.game_id, t.seats.c.seat == i.seat)
                    .values(**i.seat_update)
                )

    def truncate(self, game_id: str, to_ply: int, seat: int, at_ply: int) -> bool:
        """Undo (server/undo.py): delete the actions from ply `to_ply` on, all of them `seat`'s, of
        a game that is playing at ply `at_ply`; the game's ply becomes `to_ply`. One transaction
        with the game's row locked first, as every writer of the game takes it: False, and nothing
        changed, when the game is no longer as the caller saw it (a move or another undo came
        first, through another process). An append that missed the undo then finds its ply gone
        from the game (`_GAME_PLY`) and gets `PlyTaken`."""
        with self._begin() as c:
            status = _lock_game(c, game_id)
            ply: int = c.execute(select(t.games.c.ply).where(t.games.c.id == game_id)).scalar_one()
            if status != "playing" or ply != at_ply or not 0 <= to_ply < at_ply:
                return False
            q = select(t.actions.c.ply, t.actions.c.seat).where(
                t.actions.c.game_id == game_id, t.actions.c.ply >= to_ply
            )
            tail = sorted((r[0], r[1]) for r in c.execute(q))
            if [p for p, _ in tail] != list(range(to_ply, at_ply)) or any(s != seat for _, s in tail):
                return False
            c.execute(delete(t.actions).where(t.actions.c.game_id == game_id, t.actions.c.ply >= to_ply))
            c.execute(update(t.games).where(t.games.c.id == game_id).values(ply=to_ply, updated=time.time()))
        return True

    def actions(self, game_id: str, since: int = 0) -> list[StoredAction]:
        with self.engine.connect() as c:
            q = (
                select(t.actions.c.ply, t.actions.c.seat, t.actions.c.action, t.actions.c.by)
                .where(t.actions.c.game_id == game_id, t.actions.c.ply >= since)
                .order_by(t.actions.c.ply)
            )
            return [StoredAction(r[0], r[1], json.loads(r[2]), r[3]) for r in c.execute(q)]


class Appender:
    """The one writer of the action log in a process. The event loop hands it each action and waits
    for the commit; whatever queued up meanwhile (other games' actions) goes into the same
    transaction, so under load one commit serves many actions (group commit). Every action is still
    acknowledged only after its commit.

    PostgreSQL: a thread writes (a commit waits on the network and the server's log flush).
    SQLite with one process (`inline`): the event loop itself writes, once per turn of the loop,
    what that turn queued. A commit in WAL mode is a write to a local file, well under a
    millisecond, and handing each one to a thread and back cost more than that when the loop was
    busy (waiting for the interpreter lock). Several processes on one SQLite file wait for each
    other's writes, which must not happen on the loop: they use the thread."""

    MAX_BATCH = 128

    def __init__(self, store: Store, inline: bool = False) -> None:
        self.store = store
        self.inline = inline
        self._pending: list[tuple[Append, asyncio.Future[None]]] = []
        self._queue: queue.SimpleQueue[tuple[Append, asyncio.AbstractEventLoop, asyncio.Future[None]] | None]
        self._queue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._conn: Connection | None = None  # opened by the writer at its first write
        if not inline:
            self._thread = threading.Thread(target=self._run, name="store-appender", daemon=True)
            self._thread.start()

    async def append(self, item: Append) -> None:
        """Store `item`; returns once it is committed (raises `PlyTaken` or the store's error)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        if self.inline:
            self._pending.append((item, fut))
            if len(self._pending) == 1:  # the first of this turn: write them all once it is over
                loop.call_soon(self._flush)
        else:
            self._queue.put((item, loop, fut))
        await fut

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        for i in range(0, len(batch), self.MAX_BATCH):
            part = batch[i : i + self.MAX_BATCH]
            for (_, fut), err in zip(part, self._write([item for item, _ in part]), strict=True):
                _settle(fut, err)

    def _write(self, items: list[Append]) -> list[Exception | None]:
        try:
            if self._conn is None:
                self._conn = self.store.engine.connect()
            out = self.store.append_many(items, self._conn)
        except Exception as e:  # never leave a writer waiting
            out = [e] * len(items)
        if any(e is not None and not isinstance(e, PlyTaken) for e in out):
            # The kept connection may be the broken part (the database restarted): the next
            # write takes a fresh one from the pool.
            self._drop_connection()
        return out

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.invalidate()
            with contextlib.suppress(Exception):
                conn.close()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self.MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            errors = self._write([item for item, _, _ in batch])
            for (_, loop, fut), err in zip(batch, errors, strict=True):
                with contextlib.suppress(RuntimeError):  # a loop that is closed: nobody waits
                    loop.call_soon_threadsafe(_settle, fut, err)
            if stop:
                return


def _settle(fut: asyncio.Future[None], err: Exception | None) -> None:
    if fut.done():  # the waiter was cancelled
        return
    if err is None:
        fut.set_result(None)
    else:
        fut.set_exception(err)
