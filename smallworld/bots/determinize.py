"""Determinisation: a full `State` consistent with what one seat sees (docs/bots.md).

A view (`engine.view_for`) leaves out what its seat may not know. Search needs a State, so the
hidden parts are filled with plausible values:

- other players' coins: an estimate from public facts (see `estimate_coins`);
- the order of the banner and badge stacks (and the hidden part of the team columns): a shuffle of
  the banners and badges not visible anywhere (row, seats, discards);
- face-down markers and the unused markers: a random draw among the relics not seen face up;
- the secrets of units (a Goblin's bombs): each unit that keeps some fills them in itself
  (`Unit.resample`), from what the public facts still allow;
- the generator: a fresh state drawn from the bot's own `random.Random`; no scripted rolls.

Nothing here reads the true State: only the view and the public `Game` (which `public_game`
strips of its seed, so even `game.new_initial_state()` reveals nothing).
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

from smallworld.engine.api.game import Game
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.model.errors import PositionError
from smallworld.engine.model.rng import Rng
from smallworld.engine.model.state import State

# Keys a view adds to the state's JSON (the viewer; the seating factions of the team variant).
_VIEW_ONLY = ("viewer", "factions")


def public_game(game: Game) -> Game:
    """The same game without its seed: the boards are pinned and the seed is zero, so a bot holding
    it cannot rebuild the real shuffles from `Settings.seed`."""
    s = game.settings
    ids = tuple(side.id for side in game.map.sides)
    boards = s.boards if s.boards is not None and not all(isinstance(b, str) for b in s.boards) else ids
    return Game(dataclasses.replace(s, seed=0, boards=boards))


def estimate_coins(view: dict[str, Any], seat: int, game: Game) -> int:
    """A hidden coin total: the mean of the viewer's own total (same game, same scoring pace) and
    5 + (turns played) x (regions the seat holds now); 5 + 3 x turns when the viewer is a spectator."""
    seats = view["seats"]
    n = len(seats)
    rnd = int(view.get("round", 1))
    order = [(int(view.get("first_seat", 0)) + k) % n for k in range(n)]
    played_this_round = order.index(seat) < order.index(int(view.get("turn_seat", 0)))
    turns = rnd - 1 + (1 if played_this_round else 0)
    s = seats[seat]
    held = 0
    for entry in view.get("regions", {}).values():
        if entry.get("race") is not None and entry["race"] in (s.get("active"), s.get("declined")):
            held += 1
    by_regions = 5 + turns * max(1, held)
    viewer = view.get("viewer")
    own = seats[viewer].get("coins") if isinstance(viewer, int) else None
    return max(0, round((by_regions + own) / 2) if own is not None else 5 + 3 * turns)


class Determinizer:
    """Samples states consistent with one view. The view is analysed and turned into a template
    State once; each sample is a clone of it with the hidden parts drawn afresh (tens of µs)."""

    def __init__(self, view: dict[str, Any], game: Game, coins: dict[int, int] | None = None) -> None:
        """`coins`: hidden totals known otherwise (a `CoinLedger`'s), used in place of the estimate."""
        self.game = game
        self.view = view
        data = copy.deepcopy(view)
        for key in _VIEW_ONLY:
            data.pop(key, None)
        seen_races: set[str] = set()
        seen_powers: set[str] = set(data.get("power_discard", []))
        for i, s in enumerate(data["seats"]):
            if s.get("coins") is None:
                s["coins"] = coins[i] if coins and i in coins else estimate_coins(view, i, game)
            seen_races.update(x for x in (s.get("active"), s.get("declined")) if x)
            seen_powers.update(x for x in (s.get("power"), s.get("declined_power")) if x)
        for c in data.get("row", []):
            seen_races.add(c["race"])
            seen_powers.add(c["power"])
        self._offer: dict[str, tuple[list[str], int]] | None = None
        if isinstance(data.get("offer"), dict):
            self._offer = {}
            for key, col in data["offer"].items():
                rows = list(col["rows"]) if isinstance(col, dict) else list(col)
                hidden = int(col.get("hidden", 0)) if isinstance(col, dict) else 0
                self._offer[key] = (rows, hidden)
                (seen_powers if key == "powers" else seen_races).update(rows)
        self._race_count = _count(data.get("race_stack"))
        self._power_count = _count(data.get("power_stack"))
        self._unseen_races = [r for r in game.race_pool if r not in seen_races]
        self._unseen_powers = [p for p in game.power_pool if p not in seen_powers]
        face_up = {m["id"] for here in data.get("markers", {}).values() for m in here if m.get("id")}
        self._unseen_relics = [x for x in sorted(game.relics) if x not in face_up]
        # Each region's markers as [id or None (face down), face_up], in the view's order.
        self._markers = [
            (game.map.index(ref), [(m.get("id"), bool(m.get("face_up"))) for m in here])
            for ref, here in data.get("markers", {}).items()
        ]
        self._spare_count = _count(data.get("spare_markers"))
        for key in ("race_stack", "power_stack", "spare_markers", "offer", "markers", "rng", "rolls"):
            data.pop(key, None)
        data.pop("events", None)  # what the last action set off: no part of the position
        _placeholders(game, data)
        try:
            self._template = state_from_json(game, data, base=game.new_initial_state(), fragment=True)
        except PositionError as e:  # a unit's `hide` this module does not undo yet
            raise PositionError(e.field, f"determinisation failed: {e}") from None
        self._template.markers = {}
        self._resamplers = [u for u in game.units.values() if game.overrides(u, "resample")]

    def sample(self, rng: random.Random) -> State:
        st = self._template.clone()
        for unit in self._resamplers:
            unit.resample(st, rng)
        races = self._unseen_races[:]
        rng.shuffle(races)
        powers = self._unseen_powers[:]
        rng.shuffle(powers)
        if self._offer is not None:
            offer: dict[str, list[str]] = {}
            for key, (rows, hidden) in self._offer.items():
                if key == "powers":
                    extra, powers = powers[:hidden], powers[hidden:]
                else:
                    pool = [r for r in races if self.game.faction.get(r) == key]
                    extra = pool[:hidden]
                    races = [r for r in races if r not in extra]
                offer[key] = rows + extra
            st.offer = offer
        else:
            st.race_stack = races[: self._race_count]
            st.power_stack = powers[: self._power_count]
        relics = self._unseen_relics[:]
        rng.shuffle(relics)
        markers: dict[int, list[list[Any]]] = {}
        for region, here in self._markers:
            drawn = [[rid if rid is not None else (relics.pop() if relics else None), up] for rid, up in here]
            kept = [m for m in drawn if m[0]]
            if kept:
                markers[region] = kept
        st.markers = markers
        st.spare_markers = relics[: self._spare_count]
        st.rng = Rng(rng.getrandbits(64))
        st.rolls = []
        return st


def _placeholders(game: Game, data: dict[str, Any]) -> None:
    """Put a legal value where a view has a unit's secret (null): the template must load; each sample
    then draws the real guess (`Unit.resample`)."""

    def fill(fields: Any, d: dict[str, Any]) -> None:
        for f in fields:
            if f.secret is None or f.name not in d or not f.choices:
                continue
            v = d[f.name]
            if isinstance(v, list):
                d[f.name] = [f.choices[0] if x is None else x for x in v]
            elif v is None:
                d[f.name] = f.choices[0]

    for s in data.get("seats", []):
        for uid, d in (s.get("ext") or {}).items():
            fill(game.units[uid].seat_fields, d)
    for uid, d in ((data.get("turn") or {}).get("data") or {}).items():
        fill(game.units[uid].turn_fields, d)
    for entry in data.get("regions", {}).values():
        for kind, tags in (entry.get("tags") or {}).items():
            for t in tags:
                fill(game.pieces[kind].tag_fields, t)


def _count(v: Any) -> int:
    if isinstance(v, dict):
        return int(v.get("count", 0))
    return len(v) if isinstance(v, list) else 0


def determinize(view: dict[str, Any], game: Game, rng: random.Random) -> State:
    """One state consistent with `view`, its hidden parts drawn from `rng` (docs/bots.md)."""
    return Determinizer(view, game).sample(rng)
