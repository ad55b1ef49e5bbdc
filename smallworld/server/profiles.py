"""A player's profile beyond the ratings (issue 29, item 6; docs/players.md): the races and powers
they played, with how often they won with each, and their games, a page at a time.

**Races and powers.** Per edition, each race and each special power a seat of the player held in a
finished game — picked, or held from the start of a game begun from a position, in decline too (a
race sent into decline still counts, and so does one picked a second time only once) — with the
games played with it and the games won with it (the seat among the game's winners: the rules'
tie-break decides, §7; a shared victory is a win for each). The units a seat held are read by
replaying the game's stored log (the log is the game: no state is stored), once per finished game
and process (`_held`; a finished game never changes). The latest `MAX_GAMES` finished games count.

**Whose seats.** A player's seats are those they hold (`player_id`) and those they left during
play (`leaver`: the bot's results are theirs, as for the ratings); a bot's (`bot:LEVEL`) are the
seats that level played from the start (not a human seat it stood in for).

**Games.** The lobby's list of a player's games (`listing.py`: the same page, cursor and entry),
with the games the player left as well, each with the seats that were theirs (`my_seats`)."""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import Any

from sqlalchemy import ColumnElement, and_, select

from smallworld.engine.api.game import Game
from smallworld.engine.model.settings import Settings
from smallworld.engine.model.state import State
from smallworld.server import listing
from smallworld.server import schema as t
from smallworld.server.positions import first_state
from smallworld.server.service import Service

MAX_GAMES = 500  # the latest finished games a profile's races and powers are counted over
_CACHE_GAMES = 20_000  # finished games whose units this process keeps
_held: OrderedDict[str, dict[str, Any]] = OrderedDict()
_held_lock = threading.Lock()  # several requests' threads read and fill it


def seats_of(who: str) -> ColumnElement[bool]:
    """The seats (rows of `schema.seats`) that are `who`'s: a player's id, or `bot:LEVEL`."""
    s = t.seats.c
    if who.startswith("bot:"):
        return and_(s.kind == "bot", s.bot == who[4:], s.player_id.is_(None), s.leaver.is_(None))
    return (s.player_id == who) | (s.leaver == who)


def _note(st: State, races: list[set[str]], powers: list[set[str]]) -> None:
    for i, s in enumerate(st.seats):
        races[i].update(r for r in (s.active, s.declined) if r)
        powers[i].update(p for p in (s.power, s.declined_power) if p)
        for r, p in s.more_declined:
            if r:
                races[i].add(str(r))
            if p:
                powers[i].add(str(p))


def units_held(store: Any, game_id: str) -> dict[str, Any] | None:
    """What every seat of a finished game held over the game, and who won: `{"edition", "races":
    [[race, ...] per seat], "powers": [...], "winners"}` (None: no such finished game). Replayed
    from the log once, then kept (a finished game never changes)."""
    with _held_lock:
        kept = _held.get(game_id)
        if kept is not None:
            _held.move_to_end(game_id)
            return kept
    g = store.game(game_id)
    if g is None or g["status"] != "over" or not g["result"]:
        return None
    game = Game(Settings.from_json({**g["settings"], "seed": g["seed"]}))
    st = first_state(game, g["meta"])
    n = len(st.seats)
    races: list[set[str]] = [set() for _ in range(n)]
    powers: list[set[str]] = [set() for _ in range(n)]
    _note(st, races, powers)
    for row in store.actions(game_id):
        st.apply(row.action, seat=row.seat)
        _note(st, races, powers)
    out = {
        "edition": str(g["settings"].get("edition", "warcraft")),
        "races": [sorted(r) for r in races],
        "powers": [sorted(p) for p in powers],
        "winners": list(g["result"].get("winners", [])),
    }
    with _held_lock:
        _held[game_id] = out
        while len(_held) > _CACHE_GAMES:
            _held.popitem(last=False)
    return out


def _finished_seats(store: Any, who: str, limit: int) -> list[tuple[str, int]]:
    """(game, seat) of `who`'s seats in their latest `limit` finished games, newest first."""
    g = t.games
    with store.engine.connect() as c:
        ids = [
            r[0]
            for r in c.execute(
                select(g.c.id)
                .where(g.c.status == "over", g.c.id.in_(select(t.seats.c.game_id).where(seats_of(who))))
                .order_by(g.c.updated.desc(), g.c.id.desc())
                .limit(limit)
            )
        ]
        if not ids:
            return []
        rows = c.execute(
            select(t.seats.c.game_id, t.seats.c.seat).where(t.seats.c.game_id.in_(ids), seats_of(who))
        ).all()
    order = {gid: i for i, gid in enumerate(ids)}
    return sorted(((r[0], r[1]) for r in rows), key=lambda x: (order[x[0]], x[1]))


def _table(counts: dict[str, list[int]]) -> list[dict[str, Any]]:
    """Units by games played with them (most first), then by id."""
    rows = [{"unit": u, "games": n, "wins": w, "win_rate": round(w / n, 3)} for u, (n, w) in counts.items()]
    return sorted(rows, key=lambda r: (-r["games"], r["unit"]))


def stats(store: Any, who: str, limit: int = MAX_GAMES) -> dict[str, Any]:
    """`who`'s races and powers per edition over their latest finished games (module docstring):
    `{"who", "games", "editions": [{"edition", "games", "wins", "races", "powers"}]}`, each unit
    `{"unit", "games", "wins", "win_rate"}`."""
    per: dict[str, dict[str, Any]] = {}
    seated = _finished_seats(store, who, limit)
    for gid, seat in seated:
        held = units_held(store, gid)
        if held is None or seat >= len(held["races"]):
            continue
        ed = per.setdefault(held["edition"], {"games": 0, "wins": 0, "races": {}, "powers": {}})
        won = 1 if seat in held["winners"] else 0
        ed["games"] += 1
        ed["wins"] += won
        for kind in ("races", "powers"):
            for u in held[kind][seat]:
                c = ed[kind].setdefault(u, [0, 0])
                c[0] += 1
                c[1] += won
    editions = [
        {
            "edition": e,
            "games": d["games"],
            "wins": d["wins"],
            "races": _table(d["races"]),
            "powers": _table(d["powers"]),
        }
        for e, d in sorted(per.items())
    ]
    return {"who": who, "games": len(seated), "editions": editions}


async def games(svc: Service, who: str, limit: int | None, before: str | None) -> dict[str, Any]:
    """A page of `who`'s games, newest first, with the games they left (`listing.py`'s page and
    entry; `my_seats`: the seats that are theirs)."""
    ids, nxt = await asyncio.to_thread(
        listing.page, svc, None, seats_of(who), listing.limit_of(limit), listing.cursor(before)
    )
    bot = who[4:] if who.startswith("bot:") else None
    out = []
    for gid, created, updated in ids:
        live = await svc.get(gid)
        if bot is None:
            mine = [s["seat"] for s in live.seats if who in (s["player_id"], s["leaver"])]
        else:
            mine = [
                s["seat"]
                for s in live.seats
                if s["kind"] == "bot" and s["bot"] == bot and not s["player_id"] and not s["leaver"]
            ]
        out.append({**svc.summary(live), "my_seats": mine, **listing.when(live, created, updated)})
    return {"who": who, "games": out, "next": nxt}
