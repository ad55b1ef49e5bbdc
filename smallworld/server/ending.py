"""What the end screen shows of a finished game (docs/server.md, "Lists" and "The end"): each
seat's coins at the end of every round and where its coins came from. Worked out by replaying the
log once the game is over (every coin is public then), and kept with the game.

The breakdown of a seat is a list of items `{"item", "unit"?, "coins"}` that adds up to its final
coins: `start` (the coins every seat starts with), the end-of-turn scoring by item (`active_regions`,
`declined_regions`, `faction_bonus`, `unit`: a race, power or place's bonus, `unit_declined`: an
In-Decline race's), `gain` (coins a unit's rule paid out during a turn: Enraged, Battle Master,
Orcs, ...), `combos` (coins taken with a combo less the coins paid for its place), `payments`
(received less paid: dues, ransoms, purchases of units, the engine's `payment` events) and `other`
(whatever is left, when something is: a coin no event tells)."""

from __future__ import annotations

from typing import Any

from smallworld.engine.model.protocol import check_action
from smallworld.server.errors import ServerError
from smallworld.server.positions import first_state
from smallworld.server.service import Live, Service
from smallworld.web.payload import web_voice
from smallworld.words import LANGS
from smallworld.words.describe import describe

_ITEMS = ("active_regions", "declined_regions", "faction_bonus")


def _score_item(key: str, units: Any) -> tuple[str, str | None]:
    """A score event's item key as (item, unit)."""
    if key in _ITEMS:
        return key, None
    if key.endswith("_declined") and key.removesuffix("_declined") in units:
        return "unit_declined", key.removesuffix("_declined")
    return "unit", key


def _add(book: dict[tuple[str, str | None], int], item: str, unit: str | None, coins: int) -> None:
    book[item, unit] = book.get((item, unit), 0) + coins


def scores(live: Live) -> dict[str, Any]:
    """`{"game", "scores", "rounds", "breakdown"}`: `rounds[r][seat]` the coins at the end of round
    r (r = 0: at the start), `breakdown[seat]` its items (module docstring). `not_over` before the
    end: coins are secret during play (§1.3)."""
    if live.status != "over" or live.state.result is None:
        raise ServerError("not_over", "the scores by round are public once the game is over")
    cache = Service._cache(live)  # the game's state no longer changes: made once
    cached: dict[str, Any] | None = cache.get("ending")
    if cached is not None:
        return cached
    game = live.game
    units = game.units
    st = first_state(game, live.meta)  # a game from a position starts there (positions.py)
    n = len(st.seats)
    books: list[dict[tuple[str, str | None], int]] = [{} for _ in range(n)]
    start = [s.coins for s in st.seats]
    for seat in range(n):
        _add(books[seat], "start", None, start[seat])
    rounds = [start]
    rnd = st.round
    for m in live.moves:
        st.apply(m.action, seat=m.seat)
        for e in m.events:
            kind = e.get("type")
            if kind == "score":
                for key, v in (e.get("items") or {}).items():
                    item, unit = _score_item(key, units)
                    _add(books[e["seat"]], item, unit, v)
            elif kind == "gain":
                _add(books[e["seat"]], "gain", e["why"], e["coins"])
            elif kind == "pick":
                _add(books[e["seat"]], "combos", None, e["coins"] - e["cost"])
            elif kind == "payment":
                _add(books[e["seat"]], "payments", None, -e["coins"])
                if e.get("payee") is not None:
                    _add(books[e["payee"]], "payments", None, e["coins"])
        if st.round != rnd and st.result is None:
            rounds.append([s.coins for s in st.seats])  # the coins as the next round begins
            rnd = st.round
    final = list(live.state.result["scores"])
    rounds.append(final)
    breakdown = []
    for seat in range(n):
        other = final[seat] - sum(books[seat].values())
        if other:
            _add(books[seat], "other", None, other)
        items = []
        for (item, unit), coins in books[seat].items():
            if coins or item == "start":
                items.append({"item": item, "coins": coins, **({"unit": unit} if unit else {})})
        breakdown.append(items)
    out = {"game": live.id, "scores": final, "rounds": rounds, "breakdown": breakdown}
    cache["ending"] = out
    return out


def decisions(live: Live) -> list[dict[str, str]]:
    """Each move's decision in words, in every language (the replay's `decisions`: move i is the
    one that led to state i + 1), as the decisions were offered (`describe`, the seats marked as in
    every text the page is sent). Only once the game is over, as the replay itself."""
    if live.status != "over":
        raise ServerError("not_over", "the replay is public once the game is over")
    cache = Service._cache(live)
    cached: list[dict[str, str]] | None = cache.get("decisions")
    if cached is not None:
        return cached
    game = live.game
    voices = {lang: web_voice(game, lang, None) for lang in LANGS}
    st = first_state(game, live.meta)  # a game from a position starts there (positions.py)
    out = []
    for m in live.moves:
        action = check_action(game, m.action)
        out.append({lang: describe(st, action, v) for lang, v in voices.items()})
        st.apply(m.action, seat=m.seat)
    cache["decisions"] = out
    return out
