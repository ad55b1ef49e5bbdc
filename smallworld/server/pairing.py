"""Quick games (issue 29, item 4): a logged-in player asks for a game of an edition, variant, pace
and number of players; the server seats waiting players of close rating together, and fills the
table with the nearest-rated bots once the player has waited as long as they chose (or never).

Each request is a *ticket* (`schema.tickets`), stored, so every process sees the same queue. A round
of pairing (every second while tickets wait, in every process that holds one or is asked about
one) goes through the waiting tickets of each pool and size, oldest first: the oldest ticket's
player is seated with the nearest-rated others whose rating lies within a window that widens the
longer they wait (`WINDOW + WIDEN × seconds`, on the shown scale of ratings.py); when too few are
near and the player's wait for bots is over, the nearest-rated bots (rated players too, one per
level) fill the table. Tickets are claimed with conditional updates, so two processes pairing at
once can never seat one player twice: the second's claim fails and its round leaves that group.

A quick game is rated (ratings.py), its seats in random order; the players play their seats with
their session or player token (no seat token is needed: `Service.authorize` accepts the account
holding the seat)."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from smallworld.engine.api.game import Game
from smallworld.engine.model.settings import Settings
from smallworld.server import ratings
from smallworld.server import schema as t
from smallworld.server.bots import LEVELS
from smallworld.server.errors import ServerError
from smallworld.server.models import Clock
from smallworld.server.seated import create_seated
from smallworld.server.store import NewSeat, Store

log = logging.getLogger("smallworld.server")

WINDOW = 150.0  # rating points either side, at once
WIDEN = 10.0  # more points per second waited
ROUND_S = 1.0
BOT_LEVELS = tuple(b for b in LEVELS if b != "random")  # a table is filled with bots that play


@dataclass
class Ticket:
    id: str
    player_id: str
    name: str
    pool: str
    players: int
    rating: float
    since: float
    bots_after: float | None


def _waiting(store: Store) -> list[Ticket]:
    with store.engine.connect() as c:
        rows = c.execute(
            select(t.tickets, t.players.c.name)
            .join(t.players, t.players.c.id == t.tickets.c.player_id)
            .where(t.tickets.c.game_id.is_(None), t.tickets.c.cancelled.is_(None))
            .order_by(t.tickets.c.since)
        ).all()
    return [
        Ticket(
            m["id"],
            m["player_id"],
            m["name"],
            m["pool"],
            m["players"],
            m["rating"],
            m["since"],
            m["bots_after"],
        )
        for m in (r._mapping for r in rows)
    ]


def _enter(store: Store, ticket: dict[str, Any]) -> None:
    """A player's new ticket; a ticket of theirs still waiting is cancelled (one at a time)."""
    with store._begin() as c:
        c.execute(
            update(t.tickets)
            .where(t.tickets.c.player_id == ticket["player_id"], t.tickets.c.game_id.is_(None))
            .where(t.tickets.c.cancelled.is_(None))
            .values(cancelled=time.time())
        )
        c.execute(insert(t.tickets).values(**ticket))


def _ticket(store: Store, tid: str) -> dict[str, Any] | None:
    """The ticket's row, with `made`: whether the game it is claimed for is stored yet (a group's
    tickets are claimed first, then their game is made: `Pairing._seat`)."""
    made = t.games.c.id.label("made")
    joined = t.tickets.outerjoin(t.games, t.games.c.id == t.tickets.c.game_id)
    with store.engine.connect() as c:
        r = c.execute(select(t.tickets, made).select_from(joined).where(t.tickets.c.id == tid)).first()
    return dict(r._mapping) if r else None


def _claim(store: Store, game_id: str, seats: dict[str, int]) -> bool:
    """Claim every ticket of a group for `game_id`, or none (another process seated one first)."""
    with store._begin() as c:
        for tid, seat in seats.items():
            done = c.execute(
                update(t.tickets)
                .where(t.tickets.c.id == tid, t.tickets.c.game_id.is_(None), t.tickets.c.cancelled.is_(None))
                .values(game_id=game_id, seat=seat)
            )
            if done.rowcount != 1:
                raise _Lost()
    return True


class _Lost(Exception):
    """A ticket of the group was taken or cancelled meanwhile: the claim is rolled back."""


def _pool(edition: Any, variant: Any, pace: Any) -> str:
    if pace not in ("live", "turn"):
        raise ServerError("invalid_input", "pace: 'live' or 'turn'", "pace")
    for field, value in (("edition", edition), ("variant", variant)):
        if not isinstance(value, str) or not value.isalpha() or not value.islower():
            raise ServerError("invalid_input", f"{field}: a name such as warcraft or standard", field)
    return f"{edition}/{variant}/{pace}"


class Pairing:
    def __init__(self, service: Any) -> None:
        self.service = service
        self.store: Store = service.store
        self._task: asyncio.Task[None] | None = None

    async def _account(self, token: str | None) -> dict[str, Any]:
        p = await self.service.player(token) if token else None
        if p is None or p.get("name_key") is None:
            raise ServerError("account_required", "quick games are rated: log in first", "token")
        return dict(p)

    async def enter(self, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        p = await self._account(token)
        edition, variant = body.get("edition") or "warcraft", body.get("variant") or "standard"
        pace = body.get("pace") or "turn"
        players = body.get("players", 2)
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
            raise ServerError("invalid_input", "players: 2 to 5", "players")
        wait = body.get("bots_after_s")
        if wait is not None and (
            isinstance(wait, bool) or not isinstance(wait, int | float) or not 0 <= wait <= 86400
        ):
            raise ServerError(
                "invalid_input", "bots_after_s: seconds (0 to 86400), or null: never", "bots_after_s"
            )
        pool = _pool(edition, variant, pace)
        # The engine checks the settings now, so a table is never made of settings it refuses.
        try:
            Game(Settings.from_json({"players": players, "edition": edition, "variant": variant, "seed": 0}))
        except Exception as e:
            raise ServerError("invalid_input", f"settings: {e}", "settings") from None
        tid = uuid.uuid4().hex
        rating = await asyncio.to_thread(ratings.shown_rating, self.store, p["id"], pool)
        ticket = {
            "id": tid,
            "player_id": p["id"],
            "pool": pool,
            "players": players,
            "rating": rating,
            "since": time.time(),
            "bots_after": None if wait is None else float(wait),
        }
        await asyncio.to_thread(_enter, self.store, ticket)
        log.info(json.dumps({"event": "quick_entered", "ticket": tid, "pool": pool, "players": players}))
        self.wake()
        return await self.status(token, tid)

    async def status(self, token: str | None, tid: str) -> dict[str, Any]:
        p = await self._account(token)
        row = await asyncio.to_thread(_ticket, self.store, tid)
        if row is None or row["player_id"] != p["id"]:
            raise ServerError("not_found", "no such ticket of yours", "ticket")
        # Seated once the game exists: a ticket claimed for a game still being made waits a moment
        # more (its player would open a game the server does not know yet).
        seated = row["game_id"] is not None and row["made"] is not None
        state = "cancelled" if row["cancelled"] else "seated" if seated else "waiting"
        if state == "waiting":
            self.wake()
        out: dict[str, Any] = {
            "ticket": tid,
            "status": state,
            "pool": row["pool"],
            "players": row["players"],
            "rating": round(row["rating"]),
            "waited_s": round(time.time() - row["since"], 1),
            "bots_after_s": row["bots_after"],
        }
        if seated:
            out.update({"game": row["game_id"], "seat": row["seat"]})
        return out

    async def cancel(self, token: str | None, tid: str) -> dict[str, Any]:
        p = await self._account(token)

        def write() -> None:
            with self.store._begin() as c:
                c.execute(
                    update(t.tickets)
                    .where(
                        t.tickets.c.id == tid, t.tickets.c.player_id == p["id"], t.tickets.c.game_id.is_(None)
                    )
                    .where(t.tickets.c.cancelled.is_(None))
                    .values(cancelled=time.time())
                )

        await asyncio.to_thread(write)
        return await self.status(token, tid)

    # --- the rounds -----------------------------------------------------------------------------
    def wake(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._loop())

    async def _loop(self) -> None:
        while not self.service.closing:
            try:
                waiting = await self.pair_round()
            except Exception as e:  # an outage: the next round tries again
                log.warning(json.dumps({"event": "pairing_failed", "error": repr(e)}))
                waiting = 1
            if not waiting:
                return
            await asyncio.sleep(ROUND_S)

    async def pair_round(self, now: float | None = None) -> int:
        """One round (module docstring); answers how many tickets still wait."""
        now = time.time() if now is None else now
        tickets = await asyncio.to_thread(_waiting, self.store)
        by_table: dict[tuple[str, int], list[Ticket]] = {}
        for tk in tickets:
            by_table.setdefault((tk.pool, tk.players), []).append(tk)
        left = 0
        for (pool, n), queue in by_table.items():
            while queue:
                first = queue[0]
                window = WINDOW + WIDEN * (now - first.since)
                near = sorted(
                    (tk for tk in queue[1:] if abs(tk.rating - first.rating) <= window),
                    key=lambda tk: abs(tk.rating - first.rating),
                )
                if len(near) >= n - 1:
                    group, bots = [first, *near[: n - 1]], []
                elif first.bots_after is not None and now - first.since >= first.bots_after:
                    group = [first, *near]
                    bots = await asyncio.to_thread(self._nearest_bots, pool, first.rating, n - len(group))
                else:
                    left += 1
                    queue.pop(0)  # not yet: the others may still make a table without it
                    continue
                for tk in group:
                    queue.remove(tk)
                await self._seat(pool, n, group, bots)
        return left

    def _nearest_bots(self, pool: str, rating: float, count: int) -> list[str]:
        ranked = sorted(
            BOT_LEVELS, key=lambda b: abs(ratings.shown_rating(self.store, f"bot:{b}", pool) - rating)
        )
        return [ranked[0]] * count

    async def _seat(self, pool: str, n: int, group: list[Ticket], bots: list[str]) -> None:
        edition, variant, pace = pool.split("/")
        people: list[Ticket | str] = [*group, *bots]
        order = list(range(n))
        secrets.SystemRandom().shuffle(order)  # who plays first is drawn
        gid = secrets.token_hex(8)
        claims = {tk.id: order[i] for i, tk in enumerate(group)}
        try:
            await asyncio.to_thread(_claim, self.store, gid, claims)
        except _Lost:
            return
        seats: list[NewSeat] = []
        for i, who in enumerate(people):
            if isinstance(who, Ticket):
                seats.append(
                    {"seat": order[i], "kind": "human", "name": who.name, "player_id": who.player_id}
                )
            else:
                seats.append(
                    {"seat": order[i], "kind": "bot", "name": f"{who} bot", "player_id": None, "bot": who}
                )
        seats.sort(key=lambda s: s["seat"])
        clock = Clock.model_validate({"kind": pace}).meta()
        if pace == "live":
            for s in seats:
                if s["kind"] == "human":
                    s["bank_ms"] = clock["bank_ms"]
        try:
            settings_in = {"players": n, "edition": edition, "variant": variant}
            await create_seated(self.service, gid, settings_in, clock, seats, {"quick": True})
        except Exception:
            await asyncio.to_thread(_release, self.store, gid)  # the players wait on
            raise
        log.info(json.dumps({"event": "quick_seated", "game": gid, "pool": pool, "bots": len(bots)}))


def _release(store: Store, game_id: str) -> None:
    with store._begin() as c:
        c.execute(update(t.tickets).where(t.tickets.c.game_id == game_id).values(game_id=None, seat=None))
