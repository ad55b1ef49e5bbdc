"""Ratings (issue 29, item 2): OpenSkill's Plackett-Luce model, made for free-for-all games of 2 to 5
players and for teams, per *pool* — edition, variant and pace (`warcraft/standard/turn`).

A game is *rated* when its creator asks for it (`"rated": true`) and every seat is an account's or a
bot's: no hot-seat, no invitation or open seat taken by an anonymous player. Ratings change only when
a rated game ends, once (`rated_games` holds the games already rated, so two processes, or a restart
that rates what a crash left unrated, never rate one twice). Bots are rated players too, one per level
(`bot:greedy`), so that a new player's first games against bots mean something.

The places: the winners first (the tie-break of the rules decides, §7; a shared victory is a tie),
then the others by coins, equal coins tied. In the team variant each faction is one team of the
model (§11.4), ranked the same way by faction score.

Shown as one conservative number, `1000 + 40 × (μ − 3σ)` (a new player shows 1000 and rises as
the model grows sure), with its uncertainty `± 80σ` (two standard deviations on that scale), and
never below `FLOOR`: a player (or the random bot) who loses every game has an estimate with no
lower bound, and a number near or below zero reads as a fault, not as a rating."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import insert, select, text, update
from sqlalchemy.exc import IntegrityError

from smallworld.server import schema as t
from smallworld.server.store import Store

log = logging.getLogger("smallworld.server")

_model = PlackettLuce()
MU, SIGMA = _model.mu, _model.sigma
SCALE, BASE, FLOOR = 40.0, 1000.0, 100


def shown(mu: float, sigma: float) -> dict[str, Any]:
    """The number a person reads, and its uncertainty."""
    rating = max(FLOOR, round(BASE + SCALE * (mu - 3 * sigma)))
    return {"rating": rating, "uncertainty": round(2 * SCALE * sigma)}


def shown_rating(store: Store, who: str, pool: str) -> float:
    """`who`'s shown rating in `pool` (a newcomer's: 1000)."""
    with store.engine.connect() as c:
        r = c.execute(select(t.ratings).where(t.ratings.c.who == who, t.ratings.c.pool == pool)).first()
    if r is None:
        return float(shown(MU, SIGMA)["rating"])
    return float(shown(r._mapping["mu"], r._mapping["sigma"])["rating"])


def pool_of(settings: dict[str, Any], meta: dict[str, Any]) -> str:
    clock = meta.get("clock") or {}
    pace = "live" if clock.get("kind") == "live" else "turn"
    return f"{settings.get('edition', 'warcraft')}/{settings.get('variant', 'standard')}/{pace}"


def who_of(seat: dict[str, Any]) -> str | None:
    """The rated player of a seat: its account's player, or the bot of a bot seat (a human seat a
    bot plays after its player left is still its player's)."""
    if seat.get("leaver"):
        return str(seat["leaver"])  # left during play: the bot's results are the leaver's
    if seat.get("player_id"):
        return str(seat["player_id"])
    if seat.get("kind") == "bot" and seat.get("bot"):
        return f"bot:{seat['bot']}"
    return None


def places(result: dict[str, Any], teams: list[Any]) -> tuple[list[list[int]], list[int]]:
    """The model's teams (seats by side, in order of first seat) and each team's place (0 best;
    equal places are ties)."""
    scores: list[int] = list(result["scores"])
    winners = set(result["winners"])
    sides: dict[Any, list[int]] = {}
    for seat, side in enumerate(teams):
        sides.setdefault(side, []).append(seat)
    groups = list(sides.values())
    keys = [(any(s in winners for s in g), sum(scores[s] for s in g)) for g in groups]
    order = sorted(set(keys), reverse=True)
    return groups, [order.index(k) for k in keys]


# --- the store -------------------------------------------------------------------------------------
def _current(c: Any, who: str, pool: str) -> dict[str, Any] | None:
    r = c.execute(select(t.ratings).where(t.ratings.c.who == who, t.ratings.c.pool == pool)).first()
    return dict(r._mapping) if r else None


def _lock_pool(c: Any, pool: str) -> None:
    """The pool's ratings are read and written by one transaction at a time: games ending at once
    (a tournament's tables, several processes) each start from the ratings the one before left. On
    SQLite the transaction's first write takes the database's lock; on PostgreSQL, a transaction-scoped
    advisory lock of the pool (without it two games could both read a bot's rating, one update
    lost, or both add its first row, one game left unrated)."""
    if c.dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(b"ratings:" + pool.encode()).digest()[:8], "big", signed=True)
        c.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def rate_game(
    store: Store,
    game_id: str,
    pool: str,
    seats: list[dict[str, Any]],
    result: dict[str, Any],
    teams: list[Any],
) -> bool:
    """Rate a finished game, once (False: it was rated already, or has a seat no one rated plays)."""
    found = [who_of(s) for s in seats]
    if any(w is None for w in found):
        return False
    whos = [w for w in found if w is not None]
    groups, ranks = places(result, teams)
    now = time.time()
    try:
        with store._begin() as c:
            _lock_pool(c, pool)
            c.execute(insert(t.rated_games).values(game_id=game_id, pool=pool, rated=now))
            before = {w: _current(c, w, pool) for w in set(whos)}
            model_teams = [
                [
                    _model.rating(
                        mu=(before[whos[s]] or {}).get("mu", MU),
                        sigma=(before[whos[s]] or {}).get("sigma", SIGMA),
                    )
                    for s in g
                ]
                for g in groups
            ]
            after = _model.rate(model_teams, ranks=[float(r) for r in ranks])
            for g, rank, new_team in zip(groups, ranks, after, strict=True):
                for s, new in zip(g, new_team, strict=True):
                    w = whos[s]
                    row = {"mu": new.mu, "sigma": new.sigma, "updated": now}
                    won = 1 if rank == 0 else 0
                    if before[w] is None:
                        c.execute(insert(t.ratings).values(who=w, pool=pool, games=1, wins=won, **row))
                        before[w] = {"mu": new.mu, "sigma": new.sigma, "games": 1, "wins": won}
                    else:
                        games, wins = before[w]["games"] + 1, before[w]["wins"] + won  # type: ignore[index]
                        c.execute(
                            update(t.ratings)
                            .where(t.ratings.c.who == w, t.ratings.c.pool == pool)
                            .values(games=games, wins=wins, **row)
                        )
                    c.execute(
                        insert(t.rating_history).values(
                            who=w, pool=pool, game_id=game_id, mu=new.mu, sigma=new.sigma, at=now, place=rank
                        )
                    )
    except IntegrityError:
        return False  # rated already (another process, or before a restart)
    log.info(json.dumps({"event": "game_rated", "game": game_id, "pool": pool}))
    return True


def leaderboard(store: Store, pool: str, limit: int, offset: int) -> dict[str, Any]:
    """The pool's players by their shown rating, best first, a page of them."""
    order = (t.ratings.c.mu - 3 * t.ratings.c.sigma).desc()
    with store.engine.connect() as c:
        total = len(c.execute(select(t.ratings.c.who).where(t.ratings.c.pool == pool)).all())
        rows = c.execute(
            select(t.ratings, t.players.c.name)
            .outerjoin(t.players, t.players.c.id == t.ratings.c.who)
            .where(t.ratings.c.pool == pool)
            .order_by(order, t.ratings.c.who)
            .limit(limit)
            .offset(offset)
        ).all()
    out = []
    for i, r in enumerate(rows):
        m = r._mapping
        entry: dict[str, Any] = {"place": offset + i + 1, **_entry(m)}
        if str(m["who"]).startswith("bot:"):
            entry["bot"] = str(m["who"])[4:]
        else:
            entry["player"] = {"id": m["who"], "name": m["name"]}
        out.append(entry)
    return {"pool": pool, "total": total, "offset": offset, "players": out}


def _entry(m: Any) -> dict[str, Any]:
    return {
        **shown(m["mu"], m["sigma"]),
        "mu": round(m["mu"], 3),
        "sigma": round(m["sigma"], 3),
        "games": m["games"],
        "wins": m["wins"],
    }


def ratings_of(store: Store, who: str) -> list[dict[str, Any]]:
    """Each pool's rating of a player, with its history (one point per rated game, oldest first)."""
    with store.engine.connect() as c:
        rows = c.execute(select(t.ratings).where(t.ratings.c.who == who).order_by(t.ratings.c.pool)).all()
        hist = c.execute(
            select(t.rating_history).where(t.rating_history.c.who == who).order_by(t.rating_history.c.at)
        ).all()
    points: dict[str, list[dict[str, Any]]] = {}
    for h in hist:
        m = h._mapping
        points.setdefault(m["pool"], []).append(
            {"game": m["game_id"], "at": m["at"], "place": m["place"], **shown(m["mu"], m["sigma"])}
        )
    return [
        {"pool": r._mapping["pool"], **_entry(r._mapping), "history": points.get(r._mapping["pool"], [])}
        for r in rows
    ]


def name_of(store: Store, who: str) -> str | None:
    """A player's name (None: a bot, or no such player)."""
    with store.engine.connect() as c:
        r = c.execute(select(t.players.c.name).where(t.players.c.id == who)).first()
    return None if r is None else str(r[0])


def record(store: Store, who: str) -> dict[str, int]:
    """A player's finished games and the ones among them they abandoned (two clock misses in a row
    and never back, or left while it was under way)."""
    mine = (t.seats.c.player_id == who) | (t.seats.c.leaver == who)
    over = t.games.c.status == "over"
    with store.engine.connect() as c:
        q = select(t.seats.c.abandoned).join(t.games, t.games.c.id == t.seats.c.game_id).where(mine, over)
        rows = c.execute(q).all()
    return {"played": len(rows), "abandoned": sum(1 for r in rows if r[0] is not None)}


def unrated(store: Store, limit: int = 1000) -> list[str]:
    """Finished rated games not rated yet (a crash between the end and the rating)."""
    with store.engine.connect() as c:
        done = select(t.rated_games.c.game_id)
        rows = c.execute(
            select(t.games.c.id, t.games.c.meta)
            .where(t.games.c.status == "over", t.games.c.id.not_in(done))
            .limit(limit)
        ).all()
    return [r[0] for r in rows if json.loads(r[1]).get("rated")]
