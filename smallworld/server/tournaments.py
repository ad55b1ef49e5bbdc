"""Tournaments (issue 29, item 7): N rounds for 4 to 64 logged-in players, Swiss-like.

- **Tables.** Each round seats the players at tables of the tournament's size (3 to 5 players, or
  2), by standings: the leaders together, and so on down. When the players do not divide into full
  tables, the last tables have one seat fewer (never fewer than 2, or 3 for tables of 3 and more);
  if the organiser allowed bots, bots of the nearest rating fill the short tables instead.
- **No repeated tables where avoidable.** After seating by standings, two players of neighbouring
  tables are swapped whenever that lowers the number of pairs that already met, standings order
  kept as far as it can be.
- **Points by place at the table**: a table of n gives n − 1 points to the first, down to 0 for the
  last; places tied share their points (the average). Bots score nothing in the standings.
- **Standings** by points, then by coins over all games, then by the opponents' points
  (Buchholz), then by name.
- A round starts when the organiser starts the tournament, and each next round as soon as every
  game of the round is over; the games are rated (ratings.py) and each is linked from the
  tournament.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
import time
import uuid
from typing import Any

from sqlalchemy import insert, select, update

from smallworld.engine.api.game import Game
from smallworld.engine.model.settings import Settings
from smallworld.server import ratings
from smallworld.server import schema as t
from smallworld.server.errors import ServerError
from smallworld.server.models import Clock
from smallworld.server.pairing import BOT_LEVELS
from smallworld.server.seated import create_seated
from smallworld.server.store import NewSeat, Store

log = logging.getLogger("smallworld.server")

MIN_PLAYERS, MAX_PLAYERS = 4, 64


def table_sizes(n: int, size: int, bots: bool) -> list[tuple[int, int]]:
    """(players, bots) of each table for `n` players at tables of `size`."""
    if bots:
        full, rest = divmod(n, size)
        return [(size, 0)] * full + ([(rest, size - rest)] if rest else [])
    least = 2 if size == 2 else 3
    tables = -(-n // size)  # as few tables as full ones allow
    while tables * least > n:
        tables -= 1
    base, extra = divmod(n, tables)
    if base > size or base < least:
        raise ServerError("invalid_input", f"{n} players cannot sit at tables of {size}", "players")
    return [(base + 1, 0)] * extra + [(base, 0)] * (tables - extra)


def seat_round(order: list[str], sizes: list[tuple[int, int]], met: set[frozenset[str]]) -> list[list[str]]:
    """Tables of players (ids) from the standings `order`, swapped between neighbouring tables while
    that lowers the pairs that met before (module docstring)."""
    tables, i = [], 0
    for people, _ in sizes:
        tables.append(order[i : i + people])
        i += people

    def repeats(table: list[str]) -> int:
        return sum(frozenset(p) in met for p in itertools.combinations(table, 2))

    improved = True
    while improved:
        improved = False
        for a, b in itertools.pairwise(range(len(tables))):
            base = repeats(tables[a]) + repeats(tables[b])
            if base == 0:
                continue
            best: tuple[int, int, int] | None = None
            for x in range(len(tables[a])):
                for y in range(len(tables[b])):
                    ta, tb = list(tables[a]), list(tables[b])
                    ta[x], tb[y] = tb[y], ta[x]
                    gain = base - repeats(ta) - repeats(tb)
                    if gain > 0 and (best is None or gain > best[0]):
                        best = (gain, x, y)
            if best is not None:
                _, x, y = best
                tables[a][x], tables[b][y] = tables[b][y], tables[a][x]
                improved = True
    return tables


def points(result: dict[str, Any], n: int) -> list[float]:
    """Points by place (module docstring): the places of ratings.places, ties sharing."""
    groups, ranks = ratings.places(result, list(range(n)))
    out = [0.0] * n
    for place in set(ranks):
        tied = [g[0] for g, r in zip(groups, ranks, strict=True) if r == place]
        better = sum(1 for r in ranks if r < place)
        share = sum(n - 1 - (better + k) for k in range(len(tied))) / len(tied)
        for s in tied:
            out[s] = share
    return out


class Tournaments:
    def __init__(self, service: Any) -> None:
        self.service = service
        self.store: Store = service.store
        self._locks: dict[str, asyncio.Lock] = {}

    async def _account(self, token: str | None) -> dict[str, Any]:
        p = await self.service.player(token) if token else None
        if p is None or p.get("name_key") is None:
            raise ServerError("account_required", "tournaments are for logged-in accounts", "token")
        return dict(p)

    async def create(self, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        p = await self._account(token)
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 60:
            raise ServerError("invalid_input", "name: 1 to 60 characters", "name")
        edition, variant = body.get("edition") or "warcraft", body.get("variant") or "standard"
        pace = body.get("pace") or "turn"
        if pace not in ("turn", "live"):
            raise ServerError("invalid_input", "pace: 'live' or 'turn'", "pace")
        rounds, size, bots = body.get("rounds", 3), body.get("table", 4), body.get("bots", True)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= 10:
            raise ServerError("invalid_input", "rounds: 1 to 10", "rounds")
        if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 5:
            raise ServerError("invalid_input", "table: 2 to 5 players a table", "table")
        if not isinstance(bots, bool):
            raise ServerError("invalid_input", "bots: true or false", "bots")
        try:
            Game(Settings.from_json({"players": size, "edition": edition, "variant": variant, "seed": 0}))
        except Exception as e:
            raise ServerError("invalid_input", f"settings: {e}", "settings") from None
        tid = uuid.uuid4().hex[:16]
        row = {
            "id": tid,
            "name": name.strip(),
            "edition": edition,
            "variant": variant,
            "pace": pace,
            "rounds": rounds,
            "table_size": size,
            "bots": bots,
            "status": "open",
            "round": 0,
            "creator": p["id"],
            "created": time.time(),
        }

        def write() -> None:
            with self.store._begin() as c:
                c.execute(insert(t.tournaments).values(**row))

        await asyncio.to_thread(write)
        return await self.get(tid)

    async def join(self, token: str | None, tid: str) -> dict[str, Any]:
        p = await self._account(token)

        def write() -> None:
            with self.store._begin() as c:
                # The row locked (PostgreSQL): a start closes the entries either before this join
                # reads them (refused) or after it is written (seated), never in between.
                tr = c.execute(
                    select(t.tournaments).where(t.tournaments.c.id == tid).with_for_update()
                ).first()
                if tr is None:
                    raise ServerError("not_found", "no such tournament", "tournament")
                if tr.status != "open":
                    raise ServerError("game_over", "the tournament has started: no more players")
                n = len(
                    c.execute(select(t.entrants.c.player_id).where(t.entrants.c.tournament_id == tid)).all()
                )
                if n >= MAX_PLAYERS:
                    raise ServerError("seat_taken", f"the tournament is full ({MAX_PLAYERS} players)")
                known = c.execute(
                    select(t.entrants).where(
                        t.entrants.c.tournament_id == tid, t.entrants.c.player_id == p["id"]
                    )
                ).first()
                if known is None:
                    c.execute(
                        insert(t.entrants).values(tournament_id=tid, player_id=p["id"], joined=time.time())
                    )

        await asyncio.to_thread(write)
        return await self.get(tid)

    async def start(self, token: str | None, tid: str) -> dict[str, Any]:
        p = await self._account(token)
        await asyncio.to_thread(self._close_entries, tid, p["id"])
        await self._next_round(tid)
        return await self.get(tid)

    def _close_entries(self, tid: str, organiser: str) -> None:
        """Check and close the entries in one transaction on the locked row: a join either lands
        before (and is counted and seated) or is refused, and two starts at once start it once."""
        with self.store._begin() as c:
            tr = c.execute(select(t.tournaments).where(t.tournaments.c.id == tid).with_for_update()).first()
            if tr is None:
                raise ServerError("not_found", "no such tournament", "tournament")
            if tr.creator != organiser:
                raise ServerError("wrong_seat", "only the organiser starts the tournament", "tournament")
            if tr.status != "open":
                raise ServerError("game_over", "the tournament has started already")
            n = len(c.execute(select(t.entrants.c.player_id).where(t.entrants.c.tournament_id == tid)).all())
            if n < MIN_PLAYERS:
                raise ServerError("not_started", f"a tournament needs {MIN_PLAYERS} players ({n} joined)")
            table_sizes(n, tr.table_size, tr.bots)  # refuses what cannot be seated
            # Playing from now on, at round 0 until `_next_round` claims round 1 (a start cut short
            # here is finished by the next read: `get`).
            c.execute(update(t.tournaments).where(t.tournaments.c.id == tid).values(status="playing"))

    # --- rounds ----------------------------------------------------------------------------------
    def _row(self, tid: str) -> dict[str, Any]:
        with self.store.engine.connect() as c:
            r = c.execute(select(t.tournaments).where(t.tournaments.c.id == tid)).first()
        if r is None:
            raise ServerError("not_found", "no such tournament", "tournament")
        return dict(r._mapping)

    def _entrants(self, tid: str) -> list[dict[str, Any]]:
        with self.store.engine.connect() as c:
            rows = c.execute(
                select(t.entrants.c.player_id, t.players.c.name)
                .join(t.players, t.players.c.id == t.entrants.c.player_id)
                .where(t.entrants.c.tournament_id == tid)
                .order_by(t.entrants.c.joined)
            ).all()
        return [{"id": r.player_id, "name": r.name} for r in rows]

    def _games(self, tid: str) -> list[dict[str, Any]]:
        with self.store.engine.connect() as c:
            rows = c.execute(
                select(t.tournament_games, t.games.c.status, t.games.c.result)
                .join(t.games, t.games.c.id == t.tournament_games.c.game_id)
                .where(t.tournament_games.c.tournament_id == tid)
                .order_by(t.tournament_games.c.round, t.tournament_games.c.table)
            ).all()
            seats = {}
            for r in rows:
                seats[r.game_id] = [
                    dict(s._mapping)
                    for s in c.execute(
                        select(t.seats).where(t.seats.c.game_id == r.game_id).order_by(t.seats.c.seat)
                    ).all()
                ]
        return [
            {
                "round": r.round,
                "table": r.table,
                "game": r.game_id,
                "status": r.status,
                "result": json.loads(r.result) if r.result else None,
                "seats": seats[r.game_id],
            }
            for r in rows
        ]

    def standings(self, tid: str) -> list[dict[str, Any]]:
        entrants = self._entrants(tid)
        score: dict[str, dict[str, Any]] = {
            e["id"]: {"player": e, "points": 0.0, "coins": 0, "games": 0, "opponents": []} for e in entrants
        }
        for g in self._games(tid):
            if g["status"] != "over" or g["result"] is None:
                continue
            pts = points(g["result"], len(g["seats"]))
            ids = [s["player_id"] or s["leaver"] for s in g["seats"]]
            for i, who in enumerate(ids):
                if who in score:
                    row = score[who]
                    row["points"] += pts[i]
                    row["coins"] += g["result"]["scores"][i]
                    row["games"] += 1
                    row["opponents"] += [o for o in ids if o and o != who and o in score]
        for row in score.values():
            row["buchholz"] = sum(score[o]["points"] for o in row.pop("opponents"))
        table = sorted(
            score.values(), key=lambda r: (-r["points"], -r["coins"], -r["buchholz"], r["player"]["name"])
        )
        for i, r in enumerate(table):
            r["place"] = i + 1
        return table

    async def _next_round(self, tid: str) -> None:
        lock = self._locks.setdefault(tid, asyncio.Lock())
        async with lock:
            tr = await asyncio.to_thread(self._row, tid)
            games = await asyncio.to_thread(self._games, tid)
            if any(g["round"] == tr["round"] and g["status"] != "over" for g in games):
                return  # the round is still being played
            if tr["round"] >= tr["rounds"]:
                if tr["status"] != "over":
                    await asyncio.to_thread(self._set, tid, status="over")
                    log.info(json.dumps({"event": "tournament_over", "tournament": tid}))
                return
            nxt = tr["round"] + 1
            # Claim the round first: another process ending the last game at the same moment seats nothing.
            if not await asyncio.to_thread(self._claim_round, tid, tr["round"], nxt):
                return
            standings = await asyncio.to_thread(self.standings, tid)
            order = [r["player"]["id"] for r in standings]
            if nxt == 1:
                secrets.SystemRandom().shuffle(order)  # the first round's tables are drawn
            met = {
                frozenset(p)
                for g in games
                for p in itertools.combinations(
                    [
                        s["player_id"] or s["leaver"]
                        for s in g["seats"]
                        if s["kind"] == "human" or s["leaver"]
                    ],
                    2,
                )
            }
            sizes = table_sizes(len(order), tr["table_size"], tr["bots"])
            names = {r["player"]["id"]: r["player"]["name"] for r in standings}
            pool = f"{tr['edition']}/{tr['variant']}/{tr['pace']}"
            for k, (table, (_, bots)) in enumerate(zip(seat_round(order, sizes, met), sizes, strict=True)):
                await self._table(tid, tr, nxt, k, [(p, names[p]) for p in table], bots, pool)
            log.info(json.dumps({"event": "tournament_round", "tournament": tid, "round": nxt}))

    def _claim_round(self, tid: str, was: int, nxt: int) -> bool:
        with self.store._begin() as c:
            done = c.execute(
                update(t.tournaments)
                .where(t.tournaments.c.id == tid, t.tournaments.c.round == was)
                .values(round=nxt, status="playing")
            )
            return bool(done.rowcount == 1)

    def _set(self, tid: str, **values: Any) -> None:
        with self.store._begin() as c:
            c.execute(update(t.tournaments).where(t.tournaments.c.id == tid).values(**values))

    async def _table(
        self,
        tid: str,
        tr: dict[str, Any],
        rnd: int,
        k: int,
        people: list[tuple[str, str]],
        bots: int,
        pool: str,
    ) -> None:
        n = len(people) + bots
        order = list(range(n))
        secrets.SystemRandom().shuffle(order)  # who plays first is drawn
        level = None
        if bots:
            mean = sum(
                await asyncio.gather(
                    *(asyncio.to_thread(ratings.shown_rating, self.store, p, pool) for p, _ in people)
                )
            ) / len(people)
            level = min(
                BOT_LEVELS, key=lambda b: abs(ratings.shown_rating(self.store, f"bot:{b}", pool) - mean)
            )
        seats: list[NewSeat] = []
        for i in range(n):
            if i < len(people):
                pid, name = people[i]
                seats.append({"seat": order[i], "kind": "human", "name": name, "player_id": pid})
            else:
                seats.append(
                    {
                        "seat": order[i],
                        "kind": "bot",
                        "name": f"{level} bot",
                        "player_id": None,
                        "bot": level or "greedy",
                    }
                )
        seats.sort(key=lambda s: s["seat"])
        clock = Clock.model_validate({"kind": tr["pace"]}).meta()
        if tr["pace"] == "live":
            for s in seats:
                if s["kind"] == "human":
                    s["bank_ms"] = clock["bank_ms"]
        gid = secrets.token_hex(8)
        meta = {"title": f"{tr['name']} · {rnd}.{k + 1}", "tournament": tid, "round": rnd}
        settings_in = {"players": n, "edition": tr["edition"], "variant": tr["variant"]}
        await create_seated(self.service, gid, settings_in, clock, seats, meta)

        def link() -> None:
            with self.store._begin() as c:
                c.execute(
                    insert(t.tournament_games).values(tournament_id=tid, round=rnd, table=k, game_id=gid)
                )

        await asyncio.to_thread(link)

    async def game_over(self, live: Any) -> None:
        """A tournament game ended: the next round starts once all of this one's are over."""
        tid = live.meta.get("tournament")
        if tid:
            await self._next_round(str(tid))

    async def get(self, tid: str) -> dict[str, Any]:
        tr = await asyncio.to_thread(self._row, tid)
        if tr["status"] == "playing":
            # A round whose last game ended while the store was out (its `game_over` lost) starts
            # the next time anyone looks: `_next_round` does nothing while a game is under way.
            await self._next_round(tid)
            tr = await asyncio.to_thread(self._row, tid)
        games = await asyncio.to_thread(self._games, tid)
        standings = await asyncio.to_thread(self.standings, tid)
        return {
            "tournament": tid,
            "name": tr["name"],
            "edition": tr["edition"],
            "variant": tr["variant"],
            "pace": tr["pace"],
            "rounds": tr["rounds"],
            "table": tr["table_size"],
            "bots": tr["bots"],
            "status": tr["status"],
            "round": tr["round"],
            "organiser": tr["creator"],
            "standings": standings,
            "games": [
                {
                    "round": g["round"],
                    "table": g["table"],
                    "game": g["game"],
                    "status": g["status"],
                    "players": [s["name"] for s in g["seats"]],
                }
                for g in games
            ],
        }

    async def list(self) -> dict[str, Any]:
        def read() -> list[dict[str, Any]]:
            with self.store.engine.connect() as c:
                rows = c.execute(
                    select(t.tournaments).order_by(t.tournaments.c.created.desc()).limit(100)
                ).all()
            return [
                {
                    "tournament": r.id,
                    "name": r.name,
                    "status": r.status,
                    "round": r.round,
                    "rounds": r.rounds,
                    "edition": r.edition,
                    "pace": r.pace,
                }
                for r in rows
            ]

        return {"tournaments": await asyncio.to_thread(read)}
