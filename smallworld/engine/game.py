"""A Game: the static part of a match (settings, map, content values). States point to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smallworld.boards.model import BoardSide
from smallworld.content import registry
from smallworld.engine.board_map import Map
from smallworld.engine.errors import PositionError
from smallworld.engine.hooks import Piece, Unit, overrides
from smallworld.engine.options import ROUNDS, Settings
from smallworld.engine.rng import board_draw_rng
from smallworld.engine.variants import get_variant

if TYPE_CHECKING:
    from smallworld.engine.state import State

ALLIANCE, HORDE, NEUTRAL = "Alliance", "Horde", "Neutral"
OPPOSED = {ALLIANCE: HORDE, HORDE: ALLIANCE}


def _resolve_sides(settings: Settings) -> list[BoardSide]:
    from smallworld.boards import loader
    from smallworld.boards.errors import BoardFormatError

    if settings.boards is None:
        ids = draw_sides(settings.players, board_draw_rng(settings.seed).randbelow)
        return [loader.load_side(i) for i in ids]
    sides = []
    for i, b in enumerate(settings.boards):
        try:
            sides.append(loader.load_side(b) if isinstance(b, str) else BoardSide.from_json(b))
        except KeyError as e:
            raise PositionError(f"settings.boards[{i}]", str(e).strip("'\"")) from None
        except BoardFormatError as e:
            raise PositionError(f"settings.boards[{i}]", str(e)) from None
    ids = [s.id for s in sides]
    if len(set(ids)) != len(ids):
        raise PositionError("settings.boards", "a side appears twice")
    return sides


def draw_sides(players: int, randbelow: Any) -> list[str]:
    from smallworld.boards import setup

    return setup.draw_sides(players, randbelow)


class Game:
    """Settings plus everything derived from them once: map, units, values, piece kinds."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.players = settings.players
        self.rounds = ROUNDS[settings.players]
        self.options = settings.options
        self.variant = get_variant(settings.variant)
        self.variant.validate(settings.players)
        self.map = Map(_resolve_sides(settings))
        races, powers = registry.races(), registry.powers()
        pool_r = settings.races if settings.races is not None else tuple(races)
        pool_p = settings.powers if settings.powers is not None else tuple(powers)
        for key, pool, known in (("races", pool_r, races), ("powers", pool_p, powers)):
            for x in pool:
                if x not in known:
                    raise PositionError(f"settings.{key}", f"unknown id {x!r}")
        self.race_pool = pool_r
        self.power_pool = pool_p
        self.race_value = {r: races[r].value for r in races}
        self.power_value = {p: powers[p].value for p in powers}
        self.faction: dict[str, str | None] = {r: races[r].faction for r in races}
        self.tray_size = {r: races[r].tray or 0 for r in races}
        self.tray_size[registry.MURLOCS] = registry.MURLOC_SUPPLY
        self.faction[registry.MURLOCS] = None
        self._apply_values(settings.values)
        self.units: dict[str, Unit] = {r: e.unit for r, e in races.items()}
        self.units.update({p: e.unit for p, e in powers.items()})
        self.relics = registry.relics()
        self.units.update({m: e.unit for m, e in self.relics.items()})
        self.pieces: dict[str, Piece] = registry.pieces()
        # Action kinds whose integer argument is a region (written as "SIDE:ID" in text forms).
        self.region_args = frozenset(k for u in self.units.values() for k in u.region_args)
        self._hooked: dict[str, frozenset[str]] = {}

    def _apply_values(self, values: dict[str, Any]) -> None:
        for key, table in (("races", self.race_value), ("powers", self.power_value)):
            for uid, over in (values.get(key) or {}).items():
                if uid not in table:
                    raise PositionError(f"settings.values.{key}.{uid}", "unknown id")
                if not isinstance(over, dict):
                    raise PositionError(f"settings.values.{key}.{uid}", "must be an object")
                for field, v in over.items():
                    where = f"settings.values.{key}.{uid}.{field}"
                    if field == "value" and isinstance(v, int) and 0 <= v <= 20:
                        table[uid] = v
                    elif field == "faction" and key == "races" and v in (ALLIANCE, HORDE, NEUTRAL):
                        self.faction[uid] = v
                    elif field == "tray" and key == "races" and isinstance(v, int) and v >= 1:
                        self.tray_size[uid] = v
                    else:
                        raise PositionError(where, "not an overridable field or a bad value")

    def set_unit(self, uid: str, unit: Unit) -> None:
        """Play `uid` with another unit (a variant rule, a test double); hook lookups start afresh."""
        self.units[uid] = unit
        self._hooked.clear()

    def overrides(self, unit: Unit, hook: str) -> bool:
        """Whether the unit implements `hook` (hooks nobody implements cost nothing)."""
        ids = self._hooked.get(hook)
        if ids is None:
            ids = self._hooked[hook] = frozenset(u.id for u in self.units.values() if overrides(u, hook))
        return unit.id in ids

    def new_initial_state(self) -> State:
        from smallworld.engine.setup import initial_state

        return initial_state(self)

    @classmethod
    def from_settings(cls, settings: Settings | dict[str, Any]) -> Game:
        if isinstance(settings, dict):
            settings = Settings.from_json(settings)
        return cls(settings)
