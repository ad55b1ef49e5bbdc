"""The games: lobby, seats, actions, views, bots and clocks, over the store and the engine.

Live states are cached in memory and rebuilt by replaying the stored log when missing. An action
is checked by the engine on a copy of the state, appended to the store (committed), and only then
does the copy become the live state and the answer go out. The HTTP and WebSocket layers
(`app.py`) are thin wrappers around `Service`.
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
from dataclasses import dataclass, field
from typing import Any

from smallworld.engine.errors import SmallworldError
from smallworld.engine.game import Game
from smallworld.engine.keyed_rng import KEYED
from smallworld.engine.protocol import action_to_json, check_action, redact_event
from smallworld.engine.serialize import state_to_json
from smallworld.engine.settings import Settings
from smallworld.engine.state import State
from smallworld.engine.views import PublicView
from smallworld.server import wire
from smallworld.server.bots import LEVELS, BotPool, choose_here
from smallworld.server.broker import LocalBroker, RedisBroker
from smallworld.server.errors import ServerError
from smallworld.server.metrics import Metrics
from smallworld.server.store import Append, Appender, PlyTaken, Store
from smallworld.server.tokens import matches, new_token, token_hash
from smallworld.web import payload as web_payload

log = logging.getLogger("smallworld.server")
MAX_FINISHED = 256
# Seconds a bot's worker may take for one decision before the greedy bot stands in (MCTS thinks for
# one second; the rest is room for a busy machine).
BOT_TIMEOUT = 30.0

SEAT_KINDS = ("creator", "invite", "open", "bot")
MAX_NAME = 40


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
    seats: list[dict[str, Any]]
    status: str
    meta: dict[str, Any]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    turn_started: float = field(default_factory=time.time)  # when the current decision began
    # What was worked out for the current state, once per ply however many sockets, requests and
    # bots ask: each seat's view (None: the public one) and the legal actions.
    cache_key: tuple[int, int] = (0, -1)
    cache: dict[Any, Any] = field(default_factory=dict)


@dataclass(eq=False)
class Sub:
    """One WebSocket: a seat (or None: a spectator) and its queue of messages to send."""

    game_id: str
    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | str | None]  # a message, or its JSON text already made
    sent_ply: int = 0


def _name(value: Any, where: str) -> str:
    if value is None:
        return "Player"
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise ServerError("invalid_input", f"{where}: a name of 1 to {MAX_NAME} characters", where)
    return value.strip()


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
        self.live: dict[str, Live] = {}
        # Finished games stay cached for their replays and late viewers, up to this many; older
        # ones nobody watches are dropped and rebuilt by replay when asked for again.
        self.max_finished = MAX_FINISHED
        self.subs: dict[str, set[Sub]] = defaultdict(set)
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self._loading: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    # --- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        await self.broker.start(self._on_broker)
        # Games that were playing when the server stopped go on: their bots and clocks restart.
        for gid in await asyncio.to_thread(self.store.games_with_status, "playing", 10_000):
            try:
                live = await self.get(gid)
            except Exception:  # a game that cannot be rebuilt must not stop the server
                log.exception("cannot rebuild game %s", gid)
                continue
            self._after_change(live)

    async def close(self) -> None:
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
    async def player(self, token: str | None) -> dict[str, Any] | None:
        if not token:
            return None
        p = await asyncio.to_thread(self.store.player_by_hash, token_hash(token))
        # The lookup is by hash; the comparison repeats in constant time all the same.
        if p is None or not matches(token, p["token_hash"]):
            return None
        return p

    async def new_player(self, name: Any) -> tuple[dict[str, Any], str]:
        name = _name(name, "name")
        token = new_token()
        pid = uuid.uuid4().hex
        await asyncio.to_thread(self.store.create_player, pid, name, token_hash(token))
        return {"id": pid, "name": name}, token

    async def player_or_new(self, token: str | None, name: Any) -> tuple[dict[str, Any], str | None]:
        """The player the token names, or a new one (its token returned once) when there is none."""
        if token:
            p = await self.player(token)
            if p is None:
                raise ServerError("bad_token", "the player token is not known")
            return {"id": p["id"], "name": p["name"]}, None
        return await self.new_player(name)

    # --- creating and joining --------------------------------------------------------------------
    async def create(self, data: Any, player_token: str | None) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise ServerError("invalid_input", "the request must be a JSON object", "body")
        known = {"edition", "variant", "players", "options", "seats", "clock", "name", "title"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ServerError(
                "invalid_input", f"{unknown[0]}: unknown field; known: {sorted(known)}", unknown[0]
            )
        seats_in = data.get("seats")
        players = data.get("players", len(seats_in) if isinstance(seats_in, list) else None)
        if not isinstance(seats_in, list) or len(seats_in) != players:
            raise ServerError("invalid_input", "seats: one entry per player", "seats")
        seed = secrets.randbits(128)  # the server's draw, sent to nobody until the game ends
        settings_in = {k: data[k] for k in ("edition", "variant", "options") if k in data}
        settings = Settings.from_json({**settings_in, "players": players, "seed": seed, "rng": KEYED})
        game = Game(settings)
        clock = self._check_clock(data.get("clock"))
        creator, token = await self.player_or_new(player_token, data.get("name"))
        seats: list[dict[str, Any]] = []
        answer: list[dict[str, Any]] = []
        for i, s in enumerate(seats_in):
            where = f"seats[{i}]"
            if not isinstance(s, dict) or s.get("kind") not in SEAT_KINDS:
                raise ServerError(
                    "invalid_input", f"{where}.kind: one of {list(SEAT_KINDS)}", f"{where}.kind"
                )
            kind = s["kind"]
            row: dict[str, Any] = {"seat": i, "kind": "human", "name": "", "player_id": None}
            out: dict[str, Any] = {"seat": i, "kind": kind}
            if kind == "bot":
                level = s.get("level", "greedy")
                if level not in LEVELS:
                    raise ServerError(
                        "invalid_input", f"{where}.level: one of {list(LEVELS)}", f"{where}.level"
                    )
                row.update(kind="bot", name=_name(s.get("name", f"{level} bot"), f"{where}.name"), bot=level)
            elif kind == "creator":
                seat_token = new_token()
                row.update(
                    name=_name(s.get("name", creator["name"]), f"{where}.name"), player_id=creator["id"]
                )
                row["token_hash"] = token_hash(seat_token)
                out["token"] = seat_token
            elif kind == "invite":
                invite = new_token()
                row.update(
                    name=_name(s.get("name", "Invited"), f"{where}.name"), invite_hash=token_hash(invite)
                )
                out["invite"] = invite
            else:
                row.update(name="", open=True)
            if clock and clock["kind"] == "live" and row["kind"] == "human":
                row["bank_ms"] = clock["bank_ms"]
            seats.append(row)
            answer.append(out)
        gid = secrets.token_hex(8)
        public = self._public_settings(game)
        meta = {"clock": clock, "creator": creator["id"], "title": str(data.get("title", ""))[:80]}
        await asyncio.to_thread(self.store.create_game, gid, public, seed, meta, seats)
        live = await self.get(gid)
        self._after_change(live)
        out_all: dict[str, Any] = {"game": gid, "player": creator, "seats": answer, "settings": public}
        if token is not None:
            out_all["player_token"] = token
        log.info(json.dumps({"event": "game_created", "game": gid, "players": players}))
        return out_all

    @staticmethod
    def _check_clock(clock: Any) -> dict[str, Any] | None:
        if clock is None:
            return None
        if not isinstance(clock, dict) or clock.get("kind") not in ("live", "turn"):
            raise ServerError("invalid_input", "clock.kind: 'live' or 'turn'", "clock.kind")

        def num(key: str, default: float, lo: float, hi: float) -> float:
            v = clock.get(key, default)
            if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= v <= hi:
                raise ServerError("invalid_input", f"clock.{key}: a number from {lo} to {hi}", f"clock.{key}")
            return float(v)

        if clock["kind"] == "live":
            return {
                "kind": "live",
                "bank_ms": int(num("bank_s", 600, 0.05, 86400) * 1000),
                "increment_ms": int(num("increment_s", 15, 0, 3600) * 1000),
            }
        return {"kind": "turn", "deadline_ms": int(num("deadline_s", 86400, 0.05, 30 * 86400) * 1000)}

    @staticmethod
    def _public_settings(game: Game) -> dict[str, Any]:
        """The settings every client may see: no seed, the drawn boards pinned by id."""
        pub = game.settings.to_json()
        del pub["seed"]
        if game.settings.boards is None:
            pub["boards"] = [side.id for side in game.map.sides]
        return pub

    async def join(self, gid: str, data: Any, player_token: str | None) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise ServerError("invalid_input", "the request must be a JSON object", "body")
        live = await self.get(gid)
        invite = data.get("invite")
        wanted = data.get("seat")
        async with live.lock:
            seat: int | None = None
            for s in live.seats:
                if s["kind"] != "human" or s["player_id"] is not None:
                    continue
                if invite is not None:
                    if isinstance(invite, str) and matches(invite, s["invite_hash"]):
                        seat = s["seat"]
                elif s["open"] and (wanted is None or wanted == s["seat"]):
                    seat = s["seat"]
                    break
            if seat is None:
                raise ServerError("seat_taken", "no free seat matches (taken, or a wrong invitation)")
            player, token = await self.player_or_new(player_token, data.get("name"))
            seat_token = new_token()
            name = _name(data.get("name", player["name"]), "name")
            ok = await asyncio.to_thread(
                self.store.take_seat, gid, seat, player["id"], name, token_hash(seat_token)
            )
            if not ok:
                raise ServerError("seat_taken", f"seat {seat} was taken first")
            await self._reload_seats(live)
        await self.broker.publish({"game": gid, "seats": True})
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
        if not isinstance(gid, str) or len(gid) > 32:
            raise ServerError("not_found", "no such game")
        async with self._loading[gid]:
            live = self.live.get(gid)
            if live is None:
                live = await asyncio.to_thread(self._load, gid)
                self.live[gid] = live
                self._evict_finished(keep=gid)
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
        settings = Settings.from_json({**g["settings"], "seed": g["seed"]})
        game = Game(settings)
        st = game.new_initial_state()
        live = Live(
            gid, game, g["settings"], g["seed"], st, [], self.store.seats(gid), g["status"], g["meta"]
        )
        self._replay(live, self.store.actions(gid))
        return live

    @staticmethod
    def _replay(live: Live, rows: list[Any]) -> None:
        for row in rows:
            if row.ply != live.state.ply:
                continue  # already applied
            live.state.apply(row.action, seat=row.seat)
            live.moves.append(Move(row.ply, row.seat, row.by, row.action, list(live.state.events)))
            live.turn_started = time.time()

    async def _catch_up(self, live: Live) -> None:
        """Apply the actions other processes stored since this one last looked."""
        rows = await asyncio.to_thread(self.store.actions, live.id, live.state.ply)
        if rows:
            self._replay(live, rows)
            if live.state.result is not None:
                live.status = "over"

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
            raise ServerError("wrong_seat", f"seat {seat} is not a seat of this game")
        row = live.seats[seat]
        if matches(token, row["token_hash"]):
            return seat
        if row["player_id"] is not None:
            p = await self.player(token)
            if p is not None and p["id"] == row["player_id"]:
                return seat
        if any(matches(token, s["token_hash"]) for s in live.seats):
            raise ServerError("wrong_seat", f"this token is not seat {seat}'s")
        raise ServerError("bad_token", "the token is not known in this game")

    async def seat_of(self, live: Live, token: str | None) -> int | None:
        """The seat a seat token belongs to (None: none; a spectator)."""
        if not token:
            return None
        for s in live.seats:
            if matches(token, s["token_hash"]):
                return int(s["seat"])
        raise ServerError("bad_token", "the token is not a seat token of this game")

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
            elif live.seats[seat]["bot"] is None:
                # A bot's or the clock's move that was under way when its player took the seat
                # back: the player decides now, so the late answer is dropped.
                raise ServerError("seat_taken_back", f"seat {seat} was taken back by its player", "seat")
            st = live.state
            if live.status == "open":
                raise ServerError("not_started", "the game starts when every seat is taken")
            if 0 <= ply < st.ply:
                done = live.moves[ply]
                try:
                    same = done.seat == seat and done.action == action_to_json(
                        live.game, check_action(live.game, action)
                    )
                except SmallworldError:
                    same = False
                if same:  # a resend of an action already taken: the same answer again
                    return self._ack(live, done, seat)
                raise ServerError("stale_ply", f"ply {ply} is past: the game is at ply {st.ply}", "ply")
            if ply != st.ply:
                raise ServerError("stale_ply", f"ply {ply} is not the game's ply {st.ply}", "ply")
            a = check_action(live.game, action)
            trial = st.clone()
            trial.apply(a, seat=seat)  # the engine's errors leave `st` as it was
            canon = action_to_json(live.game, a)
            row = live.seats[seat]
            seat_update = self._clock_after(live, seat, by) if row["kind"] == "human" else {}
            if by == "human" and row["away"]:
                seat_update["away"] = False  # the player is back
                seat_update["bot"] = None
            try:
                await self.appender.append(
                    Append(gid, ply, seat, canon, by, trial.result, seat_update or None)
                )
            except PlyTaken:
                await self._catch_up(live)  # another process took this move
                raise ServerError("stale_ply", f"ply {ply} was taken by another action", "ply") from None
            live.state = trial
            move = Move(ply, seat, by, canon, list(trial.events))
            live.moves.append(move)
            live.turn_started = time.time()
            row.update(seat_update)
            if trial.result is not None:
                live.status = "over"
                self._evict_finished(keep=gid)
        self.metrics.actions.labels(by).inc()
        await self.broker.publish({"game": gid, "ply": trial.ply})
        self._after_change(live)  # first: the update carries the new decision's deadline
        self._fan_out(live)
        return self._ack(live, move, seat)

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
            "acting_seat": st.acting_seat,
            "result": st.result,
        }

    @staticmethod
    def _cache(live: Live) -> dict[Any, Any]:
        """This ply's cache of the game (emptied when the state changes)."""
        key = (id(live.state), live.state.ply)
        if live.cache_key != key:
            live.cache_key = key
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
            legal = cache["legal"] = [action_to_json(live.game, a) for a in live.state.legal_actions()]
        return legal

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
        if web:  # the web client's words, explain and plan (docs/web.md)
            out.update(web_payload.extras(st, seat))
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
        st = live.game.new_initial_state()
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
        }

    async def my_games(self, token: str | None) -> dict[str, Any]:
        p = await self.player(token)
        if p is None:
            raise ServerError("bad_token", "a player token is required")
        ids = await asyncio.to_thread(self.store.games_of_player, p["id"])
        games = []
        for gid in ids:
            live = await self.get(gid)
            mine = [s["seat"] for s in live.seats if s["player_id"] == p["id"]]
            games.append({**self.summary(live), "my_seats": mine})
        return {"player": {"id": p["id"], "name": p["name"]}, "games": games}

    async def open_games(self) -> list[dict[str, Any]]:
        ids = await asyncio.to_thread(self.store.games_with_status, "open", 100)
        out = []
        for gid in ids:
            live = await self.get(gid)
            if any(s["open"] and s["player_id"] is None for s in live.seats):
                out.append(self.summary(live))
        return out

    # --- handing a seat to a bot and back --------------------------------------------------------
    async def hand_to_bot(self, gid: str, seat: Any, token: str | None, level: Any) -> dict[str, Any]:
        live = await self.get(gid)
        if level not in LEVELS:
            raise ServerError("invalid_input", f"level: one of {list(LEVELS)}", "level")
        async with live.lock:
            seat = await self.authorize(live, seat, token)
            await asyncio.to_thread(self.store.update_seat, gid, seat, bot=level)
            live.seats[seat]["bot"] = level
        await self.broker.publish({"game": gid, "seats": True})
        self._after_change(live)  # first: the update carries the new decision's deadline
        self._fan_out(live, force=True)
        return {"game": gid, "seat": seat, "bot": level}

    async def take_back(self, gid: str, seat: Any, token: str | None) -> dict[str, Any]:
        live = await self.get(gid)
        async with live.lock:
            seat = await self.authorize(live, seat, token)
            await asyncio.to_thread(self.store.update_seat, gid, seat, bot=None, away=False)
            live.seats[seat].update(bot=None, away=False)
            live.turn_started = time.time()
        await self.broker.publish({"game": gid, "seats": True})
        self._after_change(live)  # first: the update carries the new decision's deadline
        self._fan_out(live, force=True)
        return {"game": gid, "seat": seat, "bot": None}

    # --- bots and clocks -------------------------------------------------------------------------
    def _after_change(self, live: Live) -> None:
        """Start whatever must happen next: a bot's move, or the clock of a human decision."""
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
            # An away seat's moves are the clock's (the greedy bot standing in), not a chosen bot's.
            by = "clock" if row["away"] else "bot"
            self._spawn(self._bot_move(live, seat, st.ply, row["bot"], by))
            return
        clock = live.meta.get("clock")
        if not clock:
            return
        if clock["kind"] == "live":
            left = (row["bank_ms"] or 0) / 1000 - (time.time() - live.turn_started)
        else:
            left = clock["deadline_ms"] / 1000 - (time.time() - live.turn_started)
        row["deadline"] = time.time() + max(0.0, left)  # shown to clients; derived, not stored
        loop = asyncio.get_running_loop()
        self.timers[live.id] = loop.call_later(max(0.0, left), self._expired, live, seat, st.ply)

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
        if live.state.ply != ply or live.status != "playing":
            return
        log.info(json.dumps({"event": "clock_expired", "game": live.id, "seat": seat, "ply": ply}))
        self._spawn(self._away(live, seat, ply))

    async def _away(self, live: Live, seat: int, ply: int) -> None:
        """Out of time: the seat is marked away and the greedy bot plays for it until its player is back."""
        async with live.lock:
            if live.state.ply != ply:
                return
            await asyncio.to_thread(self.store.update_seat, live.id, seat, away=True, bot="greedy")
            live.seats[seat].update(away=True, bot="greedy")
        await self.broker.publish({"game": live.id, "seats": True})
        self._fan_out(live, force=True)
        await self._bot_move(live, seat, ply, "greedy", "clock")

    async def _bot_move(self, live: Live, seat: int, ply: int, level: str, by: str) -> None:
        """The bot's decision for `seat` at `ply`, from a worker. A worker that crashes, raises, takes
        longer than `bot_timeout` or answers an action the engine refuses must not stall the game:
        the greedy bot stands in for that decision, in this process, and a broken or stuck pool is
        restarted for the next ones."""
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        st = live.state
        if st.ply != ply or st.acting_seat != seat:
            return
        legal = self.legal(live)
        view = self.seat_view(live, seat)
        try:
            action, think = await asyncio.wait_for(
                self.bots.choose(live.id, live.settings, seat, level, view, legal, secrets.randbits(64)),
                self.bot_timeout,
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
        should even that fail, the first legal action."""
        try:
            action, _ = await asyncio.to_thread(
                choose_here, live.id, live.settings, seat, "greedy", view, legal, secrets.randbits(64)
            )
            return action
        except Exception:
            log.exception("the stand-in bot failed in game %s", live.id)
            return legal[0]

    async def _bot_act(
        self, live: Live, seat: int, ply: int, action: Any, by: str
    ) -> ServerError | SmallworldError | None:
        """Play a bot's action; None when it was taken or the move was already made (a human or
        another process moved first), else why the action was refused."""
        try:
            await self.act(live.id, seat, None, ply, action, by=by)
        except ServerError as e:
            if e.code not in ("stale_ply", "seat_taken_back"):
                return e
        except SmallworldError as e:
            return e
        return None

    # --- live updates ----------------------------------------------------------------------------
    def subscribe(self, live: Live, seat: int | None) -> Sub:
        sub = Sub(live.id, seat, asyncio.Queue(), live.state.ply)
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
        The message is made and written as JSON once per (seat, moves since) and shared by every
        socket it fits (a seat's several tabs; all spectators)."""
        subs = self.subs.get(live.id)
        if not subs:
            return
        ply = live.state.ply
        texts: dict[tuple[int | None, int], str] = {}
        summary: dict[str, Any] | None = None
        for sub in list(subs):
            if sub.sent_ply >= ply and not force:
                continue
            key = (sub.seat, sub.sent_ply)
            text = texts.get(key)
            if text is None:
                summary = summary or self.summary(live)
                msg = {"type": "update", "moves": self.moves(live, sub.seat, sub.sent_ply)}
                text = texts[key] = wire.dumps({**msg, **self.view(live, sub.seat, summary=summary)})
            sub.sent_ply = ply
            sub.queue.put_nowait(text)

    async def _on_broker(self, msg: dict[str, Any]) -> None:
        """Another process changed a game: catch up from the store, then tell this process's sockets."""
        gid = msg.get("game")
        if not isinstance(gid, str) or (gid not in self.live and gid not in self.subs):
            return
        live = await self.get(gid)
        async with live.lock:
            if msg.get("seats"):
                await self._reload_seats(live)
            await self._catch_up(live)
        self._fan_out(live, force=bool(msg.get("seats")))
