"""The games: lobby, seats, actions, views, bots and clocks, over the store and the engine.

Live states are cached in memory and rebuilt by replaying the stored log when missing. An action
is checked by the engine on a copy of the state, appended to the store (committed), and only then
does the copy become the live state and the answer go out. The HTTP and WebSocket routes
(`routes/`) are thin wrappers around `Service`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from smallworld.engine.api.game import Game
from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.api.views import PublicView
from smallworld.engine.flow.turn import apply_unchecked
from smallworld.engine.model.actions import PLAN, Action
from smallworld.engine.model.errors import SmallworldError
from smallworld.engine.model.keyed_rng import KEYED
from smallworld.engine.model.protocol import action_to_json, check_action, redact_event
from smallworld.engine.model.settings import Settings
from smallworld.engine.model.state import State
from smallworld.server import accounts, ratings, undo, wire
from smallworld.server.bots import BotPool, choose_here
from smallworld.server.broker import LocalBroker, RedisBroker
from smallworld.server.chat import Chat
from smallworld.server.errors import ServerError
from smallworld.server.inputs import game_id, name_of
from smallworld.server.metrics import Metrics
from smallworld.server.models import CreateGame, JoinGame
from smallworld.server.positions import first_state
from smallworld.server.positions import settings_of as position_settings
from smallworld.server.positions import start as position_start
from smallworld.server.positions import stored as position_stored
from smallworld.server.resilience import is_outage, retrying
from smallworld.server.session_cache import SessionCache
from smallworld.server.sockets import Message
from smallworld.server.store import Append, Appender, NewPlayer, NewSeat, PlyTaken, SeatRow, Store
from smallworld.server.tokens import (
    IDLE_DAYS,
    USE_EVERY,
    expired,
    expired_message,
    matches,
    new_token,
    token_hash,
)
from smallworld.web import payload as web_payload

log = logging.getLogger("smallworld.server")
MAX_FINISHED = 256
# Seconds a bot's worker may take for one decision before the greedy bot stands in (MCTS thinks for
# one second; the rest is room for a busy machine).
BOT_TIMEOUT = 30.0

# Seconds between the watchdog's rounds (`Service._watchdog`), and how many rounds between its
# comparisons of every served game with the store while Redis is up (while it is down: each round).
WATCHDOG_S = 1.0
SYNC_EVERY = 10
# Seconds a game run by another process may go without a move (beyond the bots' delay) before this
# process takes over its bots and clocks: its process may be gone. Longer than a bot decision takes.
REMOTE_QUIET_S = 15.0
# Bot games (open or playing, with a bot seat) one player, or one client address, may have at once in
# a process (0: no cap). Bots are the server's costliest work; the fair queue keeps one player's
# games from slowing everyone's, and the cap keeps one script from filling the queue.
BOT_GAMES_PER_PLAYER = 10
BOT_GAMES_PER_ADDRESS = 30


@dataclass
class Move:
    """One applied action and what it set off (events unredacted: redacted per reader)."""

    ply: int
    seat: int
    by: str
    action: dict[str, Any]
    events: list[dict[str, Any]]


@dataclass
class Live:
    id: str
    game: Game
    settings: dict[str, Any]  # public: no seed, boards pinned
    seed: int
    state: State
    moves: list[Move]
    seats: list[SeatRow]
    status: str
    meta: dict[str, Any]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    turn_started: float = field(default_factory=time.time)  # when the current decision began
    # What was worked out for the current state, once per ply however many sockets, requests and
    # bots ask: each seat's view (None: the public one) and the legal actions.
    # Keyed by the state object itself and its ply: an id() could be reused by the next state.
    cache_state: State | None = None
    cache_ply: int = -1
    cache: dict[Any, Any] = field(default_factory=dict)
    # Several processes: the game's last change came from another process, whose bots and clocks
    # run it; this one only follows (until the game is quiet for too long: `Service._unstick`).
    remote: bool = False
    updated: float = 0.0  # when the store last changed the game, as read at load


@dataclass(eq=False)
class Sub:
    """One WebSocket: a seat (or None: a spectator) and its queue of messages to send."""

    game_id: str
    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | Message | None]  # a message, or its JSON already made
    sent_ply: int = 0
    close_code: int | None = None  # set when the server ends the socket (its seat was left)
    web: bool = False  # the web client's socket: its updates carry the words, explain and plan too


@dataclass
class _Loading:
    """The lock that makes one request rebuild a game while the others wait, held only while some
    request uses it (so ids that are asked for and never found leave nothing behind)."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class Service:
    def __init__(
        self,
        store: Store,
        bots: BotPool | None = None,
        redis_url: str | None = None,
        metrics: Metrics | None = None,
        bot_delay: float = 0.0,
    ) -> None:
        self.store = store
        # The action log's one writer (group commit); on the event loop for SQLite in one process.
        self.appender = Appender(store, inline=store.url.startswith("sqlite") and redis_url is None)
        self.bots = bots or BotPool(1)
        self.node = uuid.uuid4().hex[:12]
        self.multi = redis_url is not None
        self.broker: LocalBroker | RedisBroker = (
            RedisBroker(redis_url, self.node) if redis_url else LocalBroker()
        )
        self.metrics = metrics or Metrics()
        self.bot_delay = bot_delay  # seconds a bot waits before acting (0: at once)
        self.bot_timeout = BOT_TIMEOUT
        self.tournaments: Any = None  # tournaments.Tournaments, told when a tournament's game ends
        self.token_idle = IDLE_DAYS * 86400  # seconds a token may go unused (`serve --token-idle`)
        self.sessions = SessionCache()  # sessions' rows, kept a moment (session_cache.py)
        self.live: dict[str, Live] = {}
        # Finished games stay cached for their replays and late viewers, up to this many; older
        # ones nobody watches are dropped and rebuilt by replay when asked for again.
        self.max_finished = MAX_FINISHED
        self.subs: dict[str, set[Sub]] = defaultdict(set)
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self._loading: dict[str, _Loading] = {}
        self.closing = False
        # The ply of each game whose bot (or clock) decision has a task at work, so the watchdog
        # can tell a decision under way from one whose task died.
        self.deciding: dict[str, int] = {}
        self.watchdog_s = WATCHDOG_S
        self.remote_quiet_s = REMOTE_QUIET_S
        self.bot_games_per_player = BOT_GAMES_PER_PLAYER
        self.bot_games_per_address = BOT_GAMES_PER_ADDRESS
        self.bot_games_of_address: dict[str, set[str]] = {}
        self._watchdog_task: asyncio.Task[None] | None = None
        self.chat = Chat(self)  # the games' chat (chat.py)

    # --- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.broker.start(self._on_broker, self.resync)
        # Games that were playing when the server stopped go on: their bots and clocks restart.
        for gid in await asyncio.to_thread(self.store.games_with_status, "playing", 10_000):
            try:
                live = await self.get(gid)
            except Exception:  # a game that cannot be rebuilt must not stop the server
                log.exception("cannot rebuild game %s", gid)
                continue
            # With several processes, a game that moved a moment ago is in another process's
            # hands (its last mover's): this one follows it, and takes over if it goes quiet.
            live.remote = self.multi and time.time() - live.updated < self.remote_quiet_s
            self._after_change(live, start=not live.remote)
        self._watchdog_task = asyncio.create_task(self._watchdog(), name="watchdog")
        # Rated games that ended while their rating could not be written (a crash, an outage).
        for gid in await asyncio.to_thread(ratings.unrated, self.store):
            with contextlib.suppress(Exception):
                self._spawn(self._rate(await self.get(gid)))

    async def close(self) -> None:
        self.closing = True
        if self._watchdog_task is not None:
            self._watchdog_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._watchdog_task
        for h in self.timers.values():
            h.cancel()
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.broker.close()
        self.bots.close()
        await asyncio.to_thread(self.appender.close)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- players ---------------------------------------------------------------------------------
    async def player(self, token: str | None, kept: bool = False) -> dict[str, Any] | None:
        """The player of a player token; None when the token is not one. A revoked or expired one is
        refused (`bad_token`, saying which); a use is recorded at most once an hour. `kept`: a
        session's row read a moment ago will do (who may act for a seat: session_cache.py)."""
        p = await self._player_row(token, kept)
        if p is None:
            return None
        session = bool(p.get("session"))  # a logged-in browser's session (accounts.py)
        if p["revoked"] is not None:
            said = "this session ended" if session else "this player token was revoked"
            raise ServerError("bad_token", said + ": its player logged out", "token")
        now = time.time()
        if expired(p["used"], now, self.token_idle):
            kind = "session" if session else "player"
            raise ServerError("bad_token", expired_message(kind, self.token_idle), "token")
        if now - p["used"] > USE_EVERY:
            if session:
                await asyncio.to_thread(accounts.touch_session, self.store, p["token_hash"], used=now)
                self.sessions.used(p["token_hash"], now)
            else:
                await asyncio.to_thread(self.store.update_player, p["id"], used=now)
        return p

    async def _player_row(self, token: str | None, kept: bool = False) -> dict[str, Any] | None:
        if not token:
            return None
        h = token_hash(token)
        # A session's row is kept a moment for acting (session_cache.py): a rated seat acts with it.
        p = self.sessions.get(h) if kept else None
        if p is None:
            epoch = self.sessions.epoch
            p = await asyncio.to_thread(self._read_player, h)
            if p is not None:
                self.sessions.keep(h, p, epoch)
        # The lookup is by hash; the comparison repeats in constant time all the same.
        if p is None or not matches(token, p["token_hash"]):
            return None
        return p

    def _read_player(self, h: str) -> dict[str, Any] | None:
        """A player token's player, else a session's (one trip to a thread for both)."""
        return self.store.player_by_hash(h) or accounts.player_by_session(self.store, h)

    async def logout(self, token: str | None) -> dict[str, Any]:
        """Revoke a player token: it opens nothing any more (its player's seat tokens still work)."""
        p = await self._player_row(token)
        if p is None:
            raise ServerError("bad_token", "a known player token is required", "token")
        if p["revoked"] is None and p.get("session"):
            await asyncio.to_thread(accounts.touch_session, self.store, p["token_hash"], revoked=time.time())
            self.sessions.forget(p["id"])
        elif p["revoked"] is None:
            await asyncio.to_thread(self.store.update_player, p["id"], revoked=time.time())
        log.info(json.dumps({"event": "logged_out", "player": p["id"]}))
        return {"player": {"id": p["id"], "name": p["name"]}, "logged_out": True}

    async def new_player(self, name: Any) -> tuple[dict[str, Any], str]:
        player, new, token = await self.player_or_new(None, name)
        assert new is not None and token is not None
        await asyncio.to_thread(self.store.create_player, new.id, new.name, new.token_hash)
        return player, token

    async def player_or_new(
        self, token: str | None, name: Any
    ) -> tuple[dict[str, Any], NewPlayer | None, str | None]:
        """The player the token names, or a new one when there is none: its row, for the caller to
        write with what it comes with, and its token (returned once)."""
        if token:
            p = await self.player(token)
            if p is None:
                raise ServerError("bad_token", "the player token is not known")
            return {"id": p["id"], "name": p["name"]}, None, None
        name = name_of(name, "name")
        token = new_token()
        pid = uuid.uuid4().hex
        return {"id": pid, "name": name}, NewPlayer(pid, name, token_hash(token)), token

    # --- creating and joining --------------------------------------------------------------------
    async def create(
        self, body: CreateGame, player_token: str | None, address: str | None = None
    ) -> dict[str, Any]:
        """A new game from a checked body (`models.CreateGame`); the settings are the engine's to check."""
        seed = secrets.randbits(128)  # the server's draw, sent to nobody until the game ends
        settings_in = body.settings()
        if body.position is not None:  # a casual game from a position (server/positions.py)
            settings_in = position_settings(body.position, settings_in)
        players = settings_in["players"]
        settings = Settings.from_json({**settings_in, "seed": seed, "rng": KEYED})
        game = Game(settings)
        position = None
        if body.position is not None:
            position = position_stored(body.position)
            position_start(game, position)  # the loader's checks, before anything is written
        clock = body.clock.meta() if body.clock else None
        bots = any(s.kind == "bot" for s in body.seats)
        if bots:
            self._check_bot_games(None, address)
        # Everything is checked before anything is written; the new player, the game and its seats
        # are then one transaction.
        creator, new, token = await self.player_or_new(player_token, body.name)
        if body.rated:
            await self._check_rated(body, player_token)
        if bots and new is None:  # a player already known: their own cap too
            self._check_bot_games(creator["id"], None)
        seats: list[NewSeat] = []
        answer: list[dict[str, Any]] = []
        for i, s in enumerate(body.seats):
            kind = s.kind
            row: NewSeat = {"seat": i, "kind": "human", "name": "", "player_id": None}
            out: dict[str, Any] = {"seat": i, "kind": kind}
            if kind == "bot":
                row.update({"kind": "bot", "name": s.name or f"{s.level} bot", "bot": s.level})
            elif kind == "creator":
                seat_token = new_token()
                row.update({"name": s.name or creator["name"], "player_id": creator["id"]})
                row["token_hash"] = token_hash(seat_token)
                out["token"] = seat_token
            elif kind == "invite":
                invite = new_token()
                row.update({"name": s.name or "Invited", "invite_hash": token_hash(invite)})
                out["invite"] = invite
            else:
                row.update({"name": "", "open": True})
            if clock and clock["kind"] == "live" and row["kind"] == "human":
                row["bank_ms"] = clock["bank_ms"]
            seats.append(row)
            answer.append(out)
        gid = secrets.token_hex(8)
        public = self._public_settings(game)
        meta = {"clock": clock, "creator": creator["id"], "title": body.title}
        if position is not None:
            meta["position"] = position
        if body.rated:
            meta["rated"] = True
        elif not body.undo:
            meta["undo"] = False  # a casual game with no take-backs (a rated one never has them)
        status, created, rows = await asyncio.to_thread(
            self.store.create_game, gid, public, seed, meta, seats, new
        )
        if bots and address is not None:
            self.bot_games_of_address.setdefault(address, set()).add(gid)
        # What was just stored, without reading it back: the game as `_load` would rebuild it (no
        # one else can have asked for it: its id is first told in this answer).
        live = self._hold(self._live(gid, public, seed, status, meta, rows, created))
        self._after_change(live)
        out_all: dict[str, Any] = {"game": gid, "player": creator, "seats": answer, "settings": public}
        if token is not None:
            out_all["player_token"] = token
        log.info(json.dumps({"event": "game_created", "game": gid, "players": players}))
        return out_all

    async def _check_rated(self, body: CreateGame, player_token: str | None) -> None:
        """A rated game (ratings.py): made by an account, one seat per person (no hot-seat)."""
        p = await self.player(player_token) if player_token else None
        if p is None or p.get("name_key") is None:
            raise ServerError("account_required", "a rated game is made by a logged-in account", "rated")
        if body.position is not None:
            raise ServerError("invalid_input", "rated: a game from a position is casual", "rated")
        if sum(1 for s in body.seats if s.kind == "creator") > 1:
            said = "rated: no hot-seat in a rated game (one seat per person)"
            raise ServerError("invalid_input", said, "rated")

    async def _check_rated_join(self, live: Live, player_token: str | None) -> None:
        p = await self.player(player_token) if player_token else None
        if p is None or p.get("name_key") is None:
            said = "a rated game's seats are taken by logged-in accounts"
            raise ServerError("account_required", said, "token")
        if any(s["player_id"] == p["id"] for s in live.seats):
            raise ServerError("seat_taken", "one seat per person in a rated game: you hold one already")

    def _check_bot_games(self, creator: str | None, address: str | None) -> None:
        """Refuse a new bot game to a player, or a client address, already at its cap of bot games
        under way (`limit_reached`, 429)."""
        if creator is not None:
            self._check_player_bot_games(creator)
        if address is None:
            return
        self._prune_addresses()
        here = self.bot_games_of_address.get(address, set())
        cap = self.bot_games_per_address
        if cap and len(here) >= cap:
            raise ServerError(
                "limit_reached", f"{len(here)} games with bots under way from your address; at most {cap}",
                "seats",
            )

    def _check_player_bot_games(self, creator: str) -> None:
        mine = [
            gid
            for gid, live in self.live.items()
            if live.meta.get("creator") == creator
            and live.status != "over"
            and any(s["kind"] == "bot" for s in live.seats)
        ]
        cap = self.bot_games_per_player
        if cap and len(mine) >= cap:
            raise ServerError(
                "limit_reached", f"you have {len(mine)} games with bots under way; at most {cap}", "seats"
            )

    def _prune_addresses(self) -> None:
        """Forget the finished (or no longer held) games in the per-address count."""
        for address, gids in list(self.bot_games_of_address.items()):
            going = {g for g in gids if g in self.live and self.live[g].status != "over"}
            if going:
                self.bot_games_of_address[address] = going
            else:
                del self.bot_games_of_address[address]

    @staticmethod
    def _public_settings(game: Game) -> dict[str, Any]:
        """The settings every client may see: no seed, the drawn boards pinned by id."""
        pub = game.settings.to_json()
        del pub["seed"]
        if game.settings.boards is None:
            pub["boards"] = [side.id for side in game.map.sides]
        return pub

    async def join(self, gid: str, body: JoinGame, player_token: str | None) -> dict[str, Any]:
        """Take a seat by an invitation's code, or an open seat (`models.JoinGame`)."""
        invite, wanted = body.invite, body.seat
        live = await self.get(gid)
        async with live.lock:
            seat: int | None = None
            for s in live.seats:
                if s["kind"] != "human" or s["player_id"] is not None:
                    continue
                if invite is not None:
                    if matches(invite, s["invite_hash"]):
                        seat = s["seat"]
                elif s["open"] and (wanted is None or wanted == s["seat"]):
                    seat = s["seat"]
                    break
            if seat is None:
                raise ServerError("seat_taken", "no free seat matches (taken, or a wrong invitation)")
            if live.meta.get("rated"):
                await self._check_rated_join(live, player_token)
            player, new, token = await self.player_or_new(player_token, body.name)
            seat_token = new_token()
            # A rated game's seats bear their accounts' names.
            name = player["name"] if live.meta.get("rated") else body.name or player["name"]
            # A new player is written with the seat, and not at all when the seat was taken first.
            ok = await asyncio.to_thread(
                self.store.take_seat, gid, seat, player["id"], name, token_hash(seat_token), new
            )
            if not ok:
                raise ServerError("seat_taken", f"seat {seat} was taken first")
            await self._reload_seats(live)
        self.broker.publish({"game": gid, "seats": True})
        self._after_change(live)
        self._fan_out(live)
        out: dict[str, Any] = {"game": gid, "seat": seat, "token": seat_token, "player": player}
        if token is not None:
            out["player_token"] = token
        return out

    async def _reload_seats(self, live: Live) -> None:
        live.seats = await asyncio.to_thread(self.store.seats, live.id)
        g = await asyncio.to_thread(self.store.game, live.id)
        if g is not None:
            live.status = g["status"]

    # --- loading ---------------------------------------------------------------------------------
    async def get(self, gid: str) -> Live:
        live = self.live.get(gid)
        if live is not None:
            return live
        if not isinstance(gid, str):
            raise ServerError("not_found", "no such game", "game")
        game_id(gid)  # an id that cannot be a game is not looked up
        loading = self._loading.get(gid)
        if loading is None:
            loading = self._loading[gid] = _Loading()
        loading.users += 1
        try:
            async with loading.lock:
                live = self.live.get(gid)
                if live is None:
                    live = self._hold(await asyncio.to_thread(self._load, gid))
        finally:
            loading.users -= 1
            if not loading.users:
                del self._loading[gid]
        return live

    def _hold(self, live: Live) -> Live:
        """Keep `live` among the games this process holds (dropping the oldest finished ones)."""
        self.live[live.id] = live
        self._evict_finished(keep=live.id)
        self.metrics.games_live.set(len(self.live))
        return live

    def _evict_finished(self, keep: str | None = None) -> None:
        """Drop the oldest finished games beyond `max_finished` that no socket watches, never `keep`
        (the cache is in insertion order; the store keeps every game, so a dropped one is rebuilt on
        demand)."""
        done = [
            gid
            for gid, lv in self.live.items()
            if lv.status == "over" and not self.subs.get(gid) and gid != keep
        ]
        for gid in done[: max(0, len(done) - self.max_finished)]:
            del self.live[gid]

    def _load(self, gid: str) -> Live:
        """Rebuild a game by replaying its stored log (a thread: it can take a while)."""
        g = self.store.game(gid)
        if g is None:
            raise ServerError("not_found", f"no game {gid!r}")
        seats = self.store.seats(gid)
        live = self._live(gid, g["settings"], g["seed"], g["status"], g["meta"], seats, g["updated"])
        self._replay(live, self.store.actions(gid))
        return live

    @staticmethod
    def _live(
        gid: str,
        settings: dict[str, Any],
        seed: int,
        status: str,
        meta: dict[str, Any],
        seats: list[SeatRow],
        updated: float,
    ) -> Live:
        """A game at its start (its initial state, or its position: `meta["position"]`), from its
        stored rows (`settings`: the public ones, without the seed)."""
        game = Game(Settings.from_json({**settings, "seed": seed}))
        live = Live(gid, game, settings, seed, first_state(game, meta), [], seats, status, meta)
        live.updated = updated
        return live

    @staticmethod
    def _replay(live: Live, rows: list[Any]) -> None:
        for row in rows:
            if row.ply != live.state.ply:
                continue  # already applied
            live.state.apply(row.action, seat=row.seat)
            live.moves.append(Move(row.ply, row.seat, row.by, row.action, list(live.state.events)))
            live.turn_started = time.time()

    async def _catch_up(self, live: Live) -> bool:
        """Apply the actions stored since this process last looked (by other processes, or by this
        one when the store committed but the answer was lost); True when there were any."""
        ply = live.state.ply
        rows = await asyncio.to_thread(self.store.actions, live.id, ply)
        if rows:
            self._replay(live, rows)
            if live.state.result is not None:
                live.status = "over"
        return live.state.ply != ply

    # --- auth ------------------------------------------------------------------------------------
    async def authorize(self, live: Live, seat: Any, token: str | None) -> int:
        """The seat a token may act for: its own seat token, or the token of the player holding it."""
        try:
            return await self._authorize(live, seat, token)
        except ServerError:
            if not self.multi:
                raise
            await self._reload_seats(live)  # the seat may have been joined through another process
            return await self._authorize(live, seat, token)

    async def _authorize(self, live: Live, seat: Any, token: str | None) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ServerError("invalid_input", "seat: the seat number you act for", "seat")
        if not token:
            raise ServerError("bad_token", "a seat or player token is required")
        if not 0 <= seat < len(live.seats):
            raise ServerError("wrong_seat", f"seat {seat} is not a seat of this game", "seat")
        row = live.seats[seat]
        if matches(token, row["token_hash"]):
            await self._seat_token_used(live, seat)
            return seat
        wrong = ServerError("wrong_seat", f"this token is not seat {seat}'s", "seat")
        if any(matches(token, s["token_hash"]) for s in live.seats):
            raise wrong
        p = await self.player(token, kept=True)
        if p is not None:
            if p["id"] == row["player_id"]:
                return seat
            if any(s["player_id"] == p["id"] for s in live.seats):
                raise wrong  # the token of the player holding another seat of this game
        raise ServerError("bad_token", "the token is not known in this game")

    async def seat_of(self, live: Live, token: str | None) -> int | None:
        """The seat a seat token belongs to (None: none; a spectator)."""
        if not token:
            return None
        for s in live.seats:
            if matches(token, s["token_hash"]):
                await self._seat_token_used(live, s["seat"])
                return int(s["seat"])
        if isinstance(token, accounts.SessionToken):
            # A logged-in browser's cookie goes with every request: it reads as the account's one
            # seat here, else (none, several, or a session that has ended) as a spectator.
            try:
                p = await self.player(token, kept=True)
            except ServerError:
                return None
            mine = [int(s["seat"]) for s in live.seats if p is not None and s["player_id"] == p["id"]]
            return mine[0] if len(mine) == 1 else None
        raise ServerError("bad_token", "the token is not a seat token of this game")

    async def _seat_token_used(self, live: Live, seat: int) -> None:
        """Refuse the seat's token once it has gone unused for too long; else record this use, at
        most once an hour (in memory first, so that the requests of that hour write nothing)."""
        row = live.seats[seat]
        now = time.time()
        used = row["token_used"]
        if used is None or expired(used, now, self.token_idle):
            # Another process may have recorded a later use: the store has the last word.
            stored = await asyncio.to_thread(self.store.seats, live.id)
            used = row["token_used"] = stored[seat]["token_used"]
            if used is None or expired(used, now, self.token_idle):
                raise ServerError("bad_token", expired_message("seat", self.token_idle), "token")
        if now - used > USE_EVERY:
            row["token_used"] = now
            await asyncio.to_thread(self.store.update_seat, live.id, seat, token_used=now)

    # --- acting ----------------------------------------------------------------------------------
    async def act(
        self, gid: str, seat: Any, token: str | None, ply: Any, action: Any, by: str = "human"
    ) -> dict[str, Any]:
        t0 = time.perf_counter()
        try:
            out = await self._act(gid, seat, token, ply, action, by)
        except (ServerError, SmallworldError) as e:
            self.metrics.refused.labels(e.code).inc()
            raise
        self.metrics.latency.observe(time.perf_counter() - t0)
        return out

    async def _act(
        self, gid: str, seat: Any, token: str | None, ply: Any, action: Any, by: str
    ) -> dict[str, Any]:
        live = await self.get(gid)
        if isinstance(ply, bool) or not isinstance(ply, int):
            raise ServerError("invalid_input", "ply: the ply of the view the action was chosen from", "ply")
        async with live.lock:
            if self.multi:
                await self._catch_up(live)
                if live.status == "open":  # a seat may have been taken through another process
                    await self._reload_seats(live)
            if by == "human":
                seat = await self.authorize(live, seat, token)
            elif live.seats[seat]["bot"] is None and not (by == "clock" and live.seats[seat].get("misses")):
                # A bot's or the clock's move that was under way when its player took the seat
                # back: the player decides now, so the late answer is dropped. (The clock's move
                # for a first miss, forgiven, has no bot: the seat's misses say it is the clock's.)
                raise ServerError("seat_taken_back", f"seat {seat} was taken back by its player", "seat")
            st = live.state
            if live.status == "open":
                raise ServerError("not_started", "the game starts when every seat is taken")
            if 0 <= ply < st.ply:
                done = self._same_move(live, ply, seat, action)
                if done is not None:  # a resend of an action already taken: the same answer again
                    return self._ack(live, done, seat)
                raise ServerError("stale_ply", f"ply {ply} is past: the game is at ply {st.ply}", "ply")
            if ply != st.ply:
                raise ServerError("stale_ply", f"ply {ply} is not the game's ply {st.ply}", "ply")
            a = check_action(live.game, action)
            trial = st.clone()
            if self._listed(live, seat, a):
                apply_unchecked(trial, a)  # legal: the ply's list, made once for every reader, has it
            else:
                trial.apply(a, seat=seat)  # the engine's errors (why not) leave `st` as it was
            canon = action_to_json(live.game, a)
            row = live.seats[seat]
            seat_update = self._clock_after(live, seat, by) if row["kind"] == "human" else {}
            if by == "human" and row["away"]:
                seat_update["away"] = False  # the player is back
                seat_update["bot"] = None
            if by == "human" and (row.get("misses") or row.get("abandoned")):
                seat_update.update({"misses": 0, "abandoned": None})  # back in time: not a leaver
            try:
                await self.appender.append(
                    Append(gid, ply, seat, canon, by, trial.result, seat_update or None)
                )
            except PlyTaken:
                # Another process took this move (or this one did, and the answer of the commit
                # was lost to an outage). The same action sent through both gets the repeat
                # acknowledgement; either way this process's sockets get the move.
                await self._catch_up(live)
                live.remote = self.multi  # another process moved it: it runs the game now
                self._after_change(live, start=not self.multi)
                self._fan_out(live)
                done = self._same_move(live, ply, seat, action)
                if done is not None:
                    return self._ack(live, done, seat)
                raise ServerError("stale_ply", f"ply {ply} was taken by another action", "ply") from None
            live.state = trial
            move = Move(ply, seat, by, canon, list(trial.events))
            live.moves.append(move)
            live.turn_started = time.time()
            row.update(seat_update)
            if trial.result is not None:
                live.status = "over"
                self._evict_finished(keep=gid)
                if live.meta.get("rated"):
                    self._spawn(self._rate(live))
        self.metrics.actions.labels(by).inc()
        self.broker.publish({"game": gid, "ply": trial.ply})
        self._after_change(live)  # first: the update carries the new decision's deadline
        self._fan_out(live)
        return self._ack(live, move, seat)

    async def _rate(self, live: Live) -> None:
        """A rated game's end changes its players' ratings, once (ratings.py); a store out now
        leaves it to the next start's sweep."""
        result = live.state.result
        assert result is not None
        teams = live.game.variant.teams(len(live.seats))
        pool = ratings.pool_of(live.settings, live.meta)
        try:
            seats = [dict(s) for s in live.seats]
            await asyncio.to_thread(ratings.rate_game, self.store, live.id, pool, seats, result, teams)
        except Exception:
            log.exception("rating game %s failed; the next start rates it", live.id)
        if live.meta.get("tournament") and self.tournaments is not None:
            await self.tournaments.game_over(live)  # the tournament's next round, once all are over

    @staticmethod
    def _same_move(live: Live, ply: int, seat: int, action: Any) -> Move | None:
        """The move stored at `ply` when it is `seat`'s `action` (a resend), else None."""
        if not 0 <= ply < len(live.moves):
            return None
        done = live.moves[ply]
        try:
            canon = action_to_json(live.game, check_action(live.game, action))
        except SmallworldError:
            return None
        return done if done.seat == seat and done.action == canon else None

    def _ack(self, live: Live, move: Move, seat: int) -> dict[str, Any]:
        return {"game": live.id, "ply": move.ply + 1, "move": self._move_for(live, move, seat)}

    def _move_for(self, live: Live, move: Move, seat: int | None) -> dict[str, Any]:
        st = live.state
        over = st.result is not None
        seen = live.game.variant.coins_seen_by(st, seat)
        events = [redact_event(live.game, e, seat, seen, over) for e in move.events]
        return {"ply": move.ply, "seat": move.seat, "by": move.by, "action": move.action, "events": events}

    # --- reading ---------------------------------------------------------------------------------
    def seats_json(self, live: Live) -> list[dict[str, Any]]:
        out = []
        for s in live.seats:
            out.append(
                {
                    "seat": s["seat"],
                    "kind": s["kind"],
                    "name": s["name"],
                    "joined": s["kind"] == "bot" or s["player_id"] is not None,
                    "open": bool(s["open"]),
                    "bot": s["bot"],
                    "away": bool(s["away"]),
                    "abandoned": s.get("abandoned") is not None,
                    "bank_ms": s["bank_ms"],
                    "deadline": s["deadline"],
                }
            )
        return out

    def summary(self, live: Live) -> dict[str, Any]:
        st = live.state
        return {
            "game": live.id,
            "status": live.status,
            "ply": st.ply,
            "settings": live.settings,
            "seats": self.seats_json(live),
            "clock": live.meta.get("clock"),
            "title": live.meta.get("title", ""),
            "rated": bool(live.meta.get("rated")),
            "undo": not live.meta.get("rated") and live.meta.get("undo") is not False,
            "acting_seat": st.acting_seat,
            "result": st.result,
            "from_position": "position" in live.meta,
        }

    @staticmethod
    def _cache(live: Live) -> dict[Any, Any]:
        """This ply's cache of the game (emptied when the state changes)."""
        st = live.state
        if live.cache_state is not st or live.cache_ply != st.ply:
            live.cache_state, live.cache_ply = st, st.ply
            live.cache = {}
        return live.cache

    def seat_view(self, live: Live, seat: int | None) -> dict[str, Any]:
        """`view_for(state, seat)`, made once per ply and shared (callers must not change it): every
        seat's view is made from the ply's one public part (`PublicView`), and shares its values."""
        cache = self._cache(live)
        v = cache.get(("view", seat))
        if v is None:
            public = cache.get("public")
            if public is None:
                public = cache["public"] = PublicView(live.state)
            v = cache["view", seat] = public.view(seat)
        return v

    def legal(self, live: Live) -> list[dict[str, Any]]:
        """The acting seat's legal actions in protocol JSON, listed once per ply (shared)."""
        cache = self._cache(live)
        legal = cache.get("legal")
        if legal is None:
            legal = cache["legal"] = [action_to_json(live.game, a) for a in self._actions(live)]
        return legal

    def _actions(self, live: Live) -> list[Action]:
        cache = self._cache(live)
        actions = cache.get("actions")
        if actions is None:
            actions = cache["actions"] = live.state.legal_actions()
        return actions

    def _listed(self, live: Live, seat: int, a: Action) -> bool:
        """Whether `a` is among the ply's legal actions for `seat`, as listed once for every reader
        (a plan is checked step by step by the engine instead)."""
        st = live.state
        if seat != st.acting_seat or st.result is not None or a.kind == PLAN:
            return False
        cache = self._cache(live)
        listed = cache.get("listed")
        if listed is None:
            listed = cache["listed"] = frozenset(self._actions(live))
        try:
            return a in listed
        except TypeError:  # an argument that is no key (a list): the engine decides
            return False

    def view(
        self, live: Live, seat: int | None, web: bool = False, summary: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """`summary`: the game's summary when the caller made it already (one for every seat)."""
        st = live.state
        legal: list[dict[str, Any]] = []
        if seat is not None and st.acting_seat == seat and live.status == "playing":
            legal = self.legal(live)
        summary = summary or self.summary(live)
        out = {**summary, "seat": seat, "view": self.seat_view(live, seat), "legal": legal}
        out.update(undo.view_part(self, live, seat, web))  # the seat's undo points (server/undo.py)
        if web:  # the web client's words, explain and plan (docs/web.md), made once per seat and ply
            cache = self._cache(live)
            extras = cache.get(("extras", seat))
            if extras is None:
                extras = cache["extras", seat] = web_payload.extras(st, seat)
            out.update(extras)
        return out

    def moves(self, live: Live, seat: int | None, since: int, web: bool = False) -> list[dict[str, Any]]:
        out = [self._move_for(live, m, seat) for m in live.moves[max(0, since) :]]
        if web:
            for m in out:
                m["texts"] = web_payload.event_texts(live.game, m["events"], seat)
        return out

    def replay(self, live: Live) -> dict[str, Any]:
        """A finished game in full: settings with the seed, every action, the state at every ply."""
        if live.status != "over":
            raise ServerError("not_over", "the replay is public once the game is over")
        st = first_state(live.game, live.meta)
        states = [state_to_json(st)]
        for m in live.moves:
            st.apply(m.action, seat=m.seat)
            states.append(state_to_json(st))
        return {
            "game": live.id,
            "settings": live.game.settings.to_json(),
            "seats": self.seats_json(live),
            "actions": [{"ply": m.ply, "seat": m.seat, "by": m.by, "action": m.action} for m in live.moves],
            "states": states,
            "texts": [web_payload.event_texts(live.game, s["events"], None) for s in states],
            "result": live.state.result,
            **({"position": live.meta["position"]} if "position" in live.meta else {}),
        }

    # --- handing a seat to a bot and back --------------------------------------------------------
    async def hand_to_bot(self, gid: str, seat: int, token: str | None, level: str) -> dict[str, Any]:
        """`level`: one of `bots.LEVELS` (`models.HandToBot`)."""
        live = await self.get(gid)
        async with live.lock:
            seat = await self.authorize(live, seat, token)
            await asyncio.to_thread(self.store.update_seat, gid, seat, bot=level)
            live.seats[seat]["bot"] = level
        self.broker.publish({"game": gid, "seats": True})
        self._after_change(live)  # first: the update carries the new decision's deadline
        self._fan_out(live, force=True)
        return {"game": gid, "seat": seat, "bot": level}

    async def take_back(self, gid: str, seat: Any, token: str | None) -> dict[str, Any]:
        live = await self.get(gid)
        async with live.lock:
            seat = await self.authorize(live, seat, token)
            back = {"bot": None, "away": False, "misses": 0, "abandoned": None}
            await asyncio.to_thread(self.store.update_seat, gid, seat, **back)
            live.seats[seat].update(back)
            live.turn_started = time.time()
        self.broker.publish({"game": gid, "seats": True})
        self._after_change(live)  # first: the update carries the new decision's deadline
        self._fan_out(live, force=True)
        return {"game": gid, "seat": seat, "bot": None}

    async def leave(self, gid: str, seat: Any, token: str | None) -> dict[str, Any]:
        """Leave a seat: its token (and its player's token, for it) opens it no more, and its
        sockets are closed. Before the game starts the seat is free again, an open seat listed in the
        lobby; during play it becomes a bot's (the one already playing it, else greedy) to the end."""
        live = await self.get(gid)
        async with live.lock:
            seat = await self.authorize(live, seat, token)
            status = live.status
            if status != "over":  # the store's status decides (a join or the end may be another process's)
                status = await asyncio.to_thread(
                    self.store.leave_seat, gid, seat, live.seats[seat]["bot"] or "greedy"
                )
            if status == "over":
                raise ServerError("game_over", "the game is over: its seats stay as they were")
            await self._reload_seats(live)
            row = live.seats[seat]
        log.info(json.dumps({"event": "seat_left", "game": gid, "seat": seat}))
        self._close_left_seats(live)
        self.broker.publish({"game": gid, "seats": True})
        self._after_change(live)  # first: the update carries the new decision's deadline
        self._fan_out(live, force=True)
        return {"game": gid, "seat": seat, "bot": row["bot"], "open": bool(row["open"])}

    def _close_left_seats(self, live: Live) -> None:
        """End the sockets of seats nobody holds any more (left, here or in another process): the
        seat's view is not theirs now. Each gets an `error` message, then is closed (4401)."""
        for sub in list(self.subs.get(live.id, ())):
            if sub.seat is None or live.seats[sub.seat]["token_hash"] or live.seats[sub.seat]["player_id"]:
                continue
            self.unsubscribe(sub)
            err = ServerError("bad_token", f"seat {sub.seat} was left: its token opens it no more", "token")
            sub.close_code = 4401
            sub.queue.put_nowait({"type": "error", "ref": None, "error": err.to_json()})
            sub.queue.put_nowait(None)

    # --- bots and clocks -------------------------------------------------------------------------
    # Every bot and clock decision runs in a supervised task: an outage of the store or of Redis is
    # retried with backoff for as long as the game waits on that decision, and the watchdog
    # (`_watchdog`) starts again any decision whose task is gone. No game waits on a dead task.
    def _after_change(self, live: Live, start: bool = True) -> None:
        """Start whatever must happen next: a bot's move, or the clock of a human decision (with
        `start` false, for a game another process runs: only the deadline clients are shown)."""
        if start:
            live.remote = False
        old = self.timers.pop(live.id, None)
        if old is not None:
            old.cancel()
        for s in live.seats:  # only the decision now running has a deadline
            s["deadline"] = None
        st = live.state
        if live.status != "playing" or st.result is not None:
            return
        seat = st.acting_seat
        row = live.seats[seat]
        if row["bot"] is not None:
            if start:
                self._start_bot(live, seat, st.ply)
            return
        clock = live.meta.get("clock")
        if not clock:
            return
        if clock["kind"] == "live":
            left = (row["bank_ms"] or 0) / 1000 - (time.time() - live.turn_started)
        else:
            left = clock["deadline_ms"] / 1000 - (time.time() - live.turn_started)
        row["deadline"] = time.time() + max(0.0, left)  # shown to clients; derived, not stored
        if not start:
            return
        loop = asyncio.get_running_loop()
        self.timers[live.id] = loop.call_later(max(0.0, left), self._expired, live, seat, st.ply)

    def _start_bot(self, live: Live, seat: int, ply: int) -> None:
        """The bot's decision for the seat to act, in its own task, unless one is at work already."""
        if self.deciding.get(live.id) == ply:
            return
        row = live.seats[seat]
        # An away seat's moves are the clock's (the greedy bot standing in), not a chosen bot's.
        by = "clock" if row["away"] else "bot"
        self._decide(live, ply, self._bot_move(live, seat, ply, row["bot"] or "greedy", by))

    def _decide(self, live: Live, ply: int, coro: Any) -> None:
        self.deciding[live.id] = ply

        async def run() -> None:
            try:
                await coro
            except Exception:  # a bug, not an outage (those are retried): the watchdog tries again
                log.exception("the decision at ply %s of game %s failed", ply, live.id)
            finally:
                if self.deciding.get(live.id) == ply:
                    del self.deciding[live.id]

        self._spawn(run())

    def _wanted(self, live: Live, ply: int) -> Callable[[], bool]:
        """While the game still waits on the decision at `ply` (for `retrying`)."""
        return lambda: not self.closing and live.state.ply == ply and live.status == "playing"

    def _clock_after(self, live: Live, seat: int, by: str) -> dict[str, Any]:
        """The seat's clock once it has decided: the live bank loses the time taken, gains the increment."""
        clock = live.meta.get("clock")
        if not clock or clock["kind"] != "live":
            return {}
        row = live.seats[seat]
        spent = int((time.time() - live.turn_started) * 1000)
        bank = max(0, (row["bank_ms"] or 0) - spent) + clock["increment_ms"]
        return {"bank_ms": bank}

    def _expired(self, live: Live, seat: int, ply: int) -> None:
        self.timers.pop(live.id, None)
        if live.state.ply != ply or live.status != "playing" or self.deciding.get(live.id) == ply:
            return
        log.info(json.dumps({"event": "clock_expired", "game": live.id, "seat": seat, "ply": ply}))
        self._decide(live, ply, self._away(live, seat, ply))

    async def _away(self, live: Live, seat: int, ply: int) -> None:
        """Out of time: the greedy bot makes the decision. The first miss is forgiven (the player's
        next decision has its clock again); a second in a row marks the seat away — the greedy bot
        plays for it until its player is back — and abandoned (docs/players.md, Leaving)."""

        async def mark() -> bool:
            async with live.lock:
                if live.state.ply != ply:
                    return False
                row = live.seats[seat]
                misses = (row.get("misses") or 0) + 1
                values: dict[str, Any] = {"misses": misses}
                if misses >= 2:
                    gone = row.get("abandoned") or time.time()
                    values.update({"away": True, "bot": "greedy", "abandoned": gone})
                await asyncio.to_thread(self.store.update_seat, live.id, seat, **values)
                row.update(values)  # type: ignore[typeddict-item]
                return True

        if not await retrying("mark away", mark, self._wanted(live, ply)):
            return
        self.broker.publish({"game": live.id, "seats": True})
        self._fan_out(live, force=True)
        await self._bot_move(live, seat, ply, "greedy", "clock")

    async def _bot_move(self, live: Live, seat: int, ply: int, level: str, by: str) -> None:
        """The bot's decision for `seat` at `ply`, from a worker. A worker that crashes, raises, takes
        longer than `bot_timeout` or answers an action the engine refuses must not stall the game:
        the greedy bot stands in for that decision, in this process, and a broken or stuck pool is
        restarted for the next ones. Storing the move is retried through outages."""
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        st = live.state
        if st.ply != ply or st.acting_seat != seat:
            return
        legal = self.legal(live)
        view = self.seat_view(live, seat)
        owner = str(live.meta.get("creator") or "")
        try:
            action, think = await self.bots.choose(
                live.id, live.settings, seat, level, view, legal, secrets.randbits(64),
                owner=owner, timeout=self.bot_timeout,
            )
        except Exception as e:  # the worker died, raised or hung
            self._bot_failed(live, seat, level, e)
            self.bots.recover(e)
        else:
            self.metrics.bot_think.observe(think)
            refused = await self._bot_act(live, seat, ply, action, by)
            if refused is None:
                return
            self._bot_failed(live, seat, level, refused)
        action = await self._stand_in(live, seat, legal, view)
        refused = await self._bot_act(live, seat, ply, action, by)
        if refused is not None:  # not even the stand-in's move: the log says why
            log.error(json.dumps({"event": "stand_in_refused", "game": live.id, "error": str(refused)}))

    def _bot_failed(self, live: Live, seat: int, level: str, e: BaseException) -> None:
        self.metrics.bot_failures.inc()
        log.warning(
            json.dumps(
                {"event": "bot_failed", "game": live.id, "seat": seat, "level": level, "error": repr(e)}
            )
        )

    async def _stand_in(
        self, live: Live, seat: int, legal: list[dict[str, Any]], view: dict[str, Any]
    ) -> dict[str, Any]:
        """The greedy bot's choice, made in this process (a thread), from what the seat may know;
        should even that fail or answer an action that is not listed, the first legal action (a
        listed action is always taken: the game never waits on a bot's bug)."""
        try:
            action, _ = await asyncio.to_thread(
                choose_here, live.id, live.settings, seat, "greedy", view, legal, secrets.randbits(64)
            )
        except Exception:
            log.exception("the stand-in bot failed in game %s", live.id)
            return legal[0]
        if action not in legal:
            log.error(json.dumps({"event": "stand_in_unlisted", "game": live.id, "action": action}))
            return legal[0]
        return action

    async def _bot_act(
        self, live: Live, seat: int, ply: int, action: Any, by: str
    ) -> ServerError | SmallworldError | None:
        """Play a bot's action, retrying while the store is out; None when it was taken or the move
        was already made (a human or another process moved first), else why it was refused."""

        async def attempt() -> ServerError | SmallworldError | None:
            try:
                await self.act(live.id, seat, None, ply, action, by=by)
            except ServerError as e:
                if e.code not in ("stale_ply", "seat_taken_back"):
                    return e
            except SmallworldError as e:
                return e
            return None

        return await retrying("bot move", attempt, self._wanted(live, ply))

    # --- the watchdog ----------------------------------------------------------------------------
    async def _watchdog(self) -> None:
        """Every `watchdog_s` seconds: start any bot or expired clock decision that has no task at
        work, and (each round while Redis is down, else every `SYNC_EVERY` rounds) compare every
        game this process serves with the store and catch up the ones behind it; with several
        processes, also take up the games that are playing and that no process here holds (their
        process may be gone). Never stops on an error: the next round tries again."""
        rounds = 0
        while not self.closing:
            await asyncio.sleep(self.watchdog_s)
            rounds += 1
            try:
                if rounds % SYNC_EVERY == 0 or self.broker.health().get("redis") == "down":
                    await self.sync_from_store()
                if rounds % SYNC_EVERY == 0:
                    self._prune_addresses()
                if self.multi and rounds % SYNC_EVERY == 0:
                    await self._adopt_orphans()
                self._unstick()
            except Exception as e:
                if not is_outage(e):
                    log.exception("watchdog round failed")

    def _unstick(self) -> None:
        now = time.time()
        for live in list(self.live.values()):
            st = live.state
            if live.status != "playing" or st.result is not None or self.deciding.get(live.id) == st.ply:
                continue
            if live.remote:
                if now - live.turn_started < self.remote_quiet_s + self.bot_delay:
                    continue  # another process runs it
                log.warning(json.dumps({"event": "watchdog_takeover", "game": live.id, "ply": st.ply}))
                self.metrics.watchdog.inc()
                live.remote = False
                self._after_change(live)
                continue
            row = live.seats[st.acting_seat]
            if now - live.turn_started < self.watchdog_s:
                continue  # just changed: its own task is starting
            if row["bot"] is not None:
                log.warning(json.dumps({"event": "watchdog_bot", "game": live.id, "ply": st.ply}))
                self.metrics.watchdog.inc()
                self._start_bot(live, st.acting_seat, st.ply)
            elif row["deadline"] is not None and now > row["deadline"] and live.id not in self.timers:
                log.warning(json.dumps({"event": "watchdog_clock", "game": live.id, "ply": st.ply}))
                self.metrics.watchdog.inc()
                self._expired(live, st.acting_seat, st.ply)

    async def sync_from_store(self) -> None:
        """Catch up every unfinished game this process holds whose stored ply is ahead of its own
        (one query for all of them)."""
        held = {g: (live, live.state, live.status) for g, live in self.live.items() if live.status != "over"}
        if not held:
            return
        stored = await asyncio.to_thread(self.store.plies, list(held))
        for gid, (ply, status) in stored.items():
            live, state, was = held[gid]
            if live.state is not state or live.status != was or self.live.get(gid) is not live:
                # Moved here while the store was read (a move is made once it is committed): the
                # answer may predate it, which is no difference. The next round compares it again.
                continue
            if ply != state.ply or status != was:
                await self._refresh(live, rewound=ply < state.ply)  # behind: an undo elsewhere

    async def resync(self) -> None:
        """After a Redis outage: every game this process serves is read again from the store (moves
        and seats), and its sockets are told."""
        log.info(json.dumps({"event": "resync", "games": len(self.live)}))
        for gid in list(self.live):
            live = self.live.get(gid)
            if live is not None and (live.status != "over" or self.subs.get(gid)):
                await self._refresh(live)

    async def _refresh(self, live: Live, rewound: bool = False) -> None:
        async with live.lock:
            await self._reload_seats(live)
            self._close_left_seats(live)
            if rewound:
                await undo.follow(self, live)
            moved = await self._catch_up(live)
        if moved and self.multi:  # moves made through another process: it runs the game now
            live.remote = True
        self._after_change(live, start=not live.remote)
        self._fan_out(live, force=True)

    async def _adopt_orphans(self) -> None:
        """Playing games that this process does not hold and nobody has moved for `remote_quiet_s`:
        their process may have died. Loading one starts its bots and clocks here (should another process
        move it too, the store takes one move per ply)."""
        quiet = time.time() - self.remote_quiet_s - self.bot_delay
        for gid in await asyncio.to_thread(self.store.games_with_status, "playing", 10_000, quiet):
            if gid not in self.live:
                self._after_change(await self.get(gid))

    # --- live updates ----------------------------------------------------------------------------
    def subscribe(
        self,
        live: Live,
        seat: int | None,
        queue: asyncio.Queue[dict[str, Any] | Message | None] | None = None,
        web: bool = False,
    ) -> Sub:
        """A socket's subscription; `queue` (default: an unbounded one) is where its messages go;
        `web`: the web client's, whose updates carry its words too (`view(web=True)`)."""
        sub = Sub(live.id, seat, queue if queue is not None else asyncio.Queue(), live.state.ply, web=web)
        self.subs[live.id].add(sub)
        self.metrics.sockets.inc()
        return sub

    def unsubscribe(self, sub: Sub) -> None:
        subs = self.subs.get(sub.game_id)
        if subs is not None and sub in subs:
            subs.discard(sub)
            self.metrics.sockets.dec()
            if not subs:
                del self.subs[sub.game_id]

    def _fan_out(self, live: Live, force: bool = False) -> None:
        """Queue each socket of this process the moves it has not had, each as its seat may see them.
        The message is made and written as JSON once per (seat, moves since, web client or not) and
        shared by every socket it fits (a seat's several tabs; all spectators)."""
        subs = self.subs.get(live.id)
        if not subs:
            return
        ply = live.state.ply
        texts: dict[tuple[int | None, int, bool], Message] = {}
        summary: dict[str, Any] | None = None
        for sub in list(subs):
            if sub.sent_ply >= ply and not force:
                continue
            key = (sub.seat, sub.sent_ply, sub.web)
            text = texts.get(key)
            if text is None:
                summary = summary or self.summary(live)
                msg = {"type": "update", "moves": self.moves(live, sub.seat, sub.sent_ply, sub.web)}
                view = self.view(live, sub.seat, sub.web, summary=summary)
                text = texts[key] = Message(wire.dumpb({**msg, **view}))
            sub.sent_ply = ply
            sub.queue.put_nowait(text)

    async def _on_broker(self, msg: dict[str, Any]) -> None:
        """Another process changed a game: catch up from the store, then tell this process's sockets."""
        gid = msg.get("game")
        if not isinstance(gid, str) or (gid not in self.live and gid not in self.subs):
            return
        if "chat" in msg:  # a chat message stored by another process
            await self.chat.on_broker(gid, msg["chat"])
            return
        live = await self.get(gid)
        async with live.lock:
            if msg.get("seats"):
                await self._reload_seats(live)
                self._close_left_seats(live)
            if msg.get("undo") is not None:  # moves taken back through another process
                await undo.follow(self, live)
            await self._catch_up(live)
        # The process that made the change runs the game's bots and clocks; this one follows.
        live.remote = True
        self._after_change(live, start=False)
        self._fan_out(live, force=bool(msg.get("seats")) or msg.get("undo") is not None)
