"""A Game: the static part of a match (edition, settings, map, content values). States point to it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from smallworld.boards.model import BoardSide
from smallworld.engine.api import serialize
from smallworld.engine.api.explain import explain_region
from smallworld.engine.flow import turn as flow
from smallworld.engine.flow.setup import initial_state
from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import Map
from smallworld.engine.model.derived import Tables, UnitsHooked
from smallworld.engine.model.edition import Edition, Entry, get_edition
from smallworld.engine.model.errors import MalformedActionError, PositionError
from smallworld.engine.model.hooks import Piece, Unit
from smallworld.engine.model.keyed_rng import board_rng
from smallworld.engine.model.options import RuleOptions, option_specs
from smallworld.engine.model.protocol import check_action
from smallworld.engine.model.settings import Settings
from smallworld.engine.rules import conquest

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


def _resolve_sides(edition: Edition, settings: Settings) -> list[BoardSide]:
    from smallworld.boards.errors import BoardFormatError

    assert settings.boards is not None  # drawn sides: `_game_map`
    sides = []
    for i, b in enumerate(settings.boards):
        try:
            side = edition.boards.side(b) if isinstance(b, str) else BoardSide.from_json(b)
        except KeyError as e:
            raise PositionError(f"settings.boards[{i}]", str(e).strip("'\"")) from None
        except BoardFormatError as e:
            raise PositionError(f"settings.boards[{i}]", str(e)) from None
        region_ids = [r.id for r in side.regions]
        if len(set(region_ids)) != len(region_ids):
            raise PositionError(f"settings.boards[{i}]", "two regions have the same id")
        for r in side.regions:
            missing = sorted(set(r.adjacent) - set(region_ids))
            if missing:
                raise PositionError(
                    f"settings.boards[{i}]", f"region {r.id} names neighbours {missing} not on the side"
                )
            if edition.terrains and r.terrain not in edition.terrains:
                raise PositionError(
                    f"settings.boards[{i}]",
                    f"region {r.id}: terrain {r.terrain!r} is not one of {list(edition.terrains)}",
                )
            unknown = sorted(r.features - set(edition.features)) if edition.features else []
            if unknown:
                raise PositionError(
                    f"settings.boards[{i}]",
                    f"region {r.id}: features {unknown} are not {edition.name}'s {list(edition.features)}",
                )
        sides.append(side)
    ids = [s.id for s in sides]
    if len(set(ids)) != len(ids):
        raise PositionError("settings.boards", "a side appears twice")
    return sides


def _game_map(edition: Edition, settings: Settings) -> Map:
    """The game's map: drawn sides share the edition's map of that draw (a Map never changes once
    built, and building one cost more than the rest of a new game); sides given in the settings
    are checked and built afresh."""
    if settings.boards is not None:
        return Map(_resolve_sides(edition, settings), edition.water, edition.terrain_defence)
    ids = tuple(edition.boards.draw(settings.players, board_rng(settings.rng, settings.seed).randbelow))
    got = edition.maps.get(ids)
    if got is None:
        sides = [edition.boards.side(i) for i in ids]
        got = edition.maps.put(ids, Map(sides, edition.water, edition.terrain_defence))
    return got


class Game:
    """Settings plus everything derived from them once: map, units, values, piece kinds."""

    def __init__(self, settings: Settings, edition: Edition | None = None) -> None:
        self.settings = settings
        self.edition = edition if edition is not None else get_edition(settings.edition)
        ed = self.edition
        if settings.players not in ed.rounds:
            raise PositionError("settings.players", f"must be one of {sorted(ed.rounds)}")
        self.players = settings.players
        self.rounds = ed.rounds[settings.players]
        self.options = RuleOptions(option_specs(ed), settings.options)
        self.variant = ed.variant(settings.variant)
        self.variant.validate(settings.players)
        try:
            self.map = _game_map(ed, settings)
        except KeyError as e:
            raise PositionError("settings.boards", str(e).strip("'\"")) from None
        rule = ed.entry_rule
        m = self.map
        # How races reach the map and regions they are not next to (the edition's entry rule).
        self.first_mask = m.feature(rule.first)
        self.reach_mask = m.feature(rule.reach) if rule.reach else 0
        self.travel_mask = m.feature(rule.travel) if rule.travel else 0
        self.travel_cost = rule.travel_cost
        self.natives: str | None = ed.natives.id if ed.natives is not None else None
        races, powers = ed.races, ed.powers
        pool_r = settings.races if settings.races is not None else tuple(races)
        pool_p = settings.powers if settings.powers is not None else tuple(powers)
        for key, pool, known in (("races", pool_r, races), ("powers", pool_p, powers)):
            for x in pool:
                if x not in known:
                    raise PositionError(f"settings.{key}", f"unknown id {x!r}")
            if len(set(pool)) != len(pool):
                raise PositionError(f"settings.{key}", "an id is listed twice")
        # Every seat needs a banner and a badge for its first pick (§6.3).
        for key, pool in (("races", pool_r), ("powers", pool_p)):
            if len(pool) < settings.players:
                raise PositionError(
                    f"settings.{key}",
                    f"{settings.players} players need at least {settings.players}, got {len(pool)}",
                )
        self.race_pool = pool_r
        self.power_pool = pool_p
        self.race_value = {r: races[r].value for r in races}
        self.power_value = {p: powers[p].value for p in powers}
        self.faction: dict[str, str | None] = {r: races[r].faction for r in races}
        self.tray_size = {r: races[r].tray or 0 for r in races}
        if ed.natives is not None:
            self.tray_size[ed.natives.id] = ed.natives.supply
            self.faction[ed.natives.id] = None
        self._apply_values(settings.values)
        self.units: dict[str, Unit] = dict(ed.units)
        self.relics: dict[str, Entry] = ed.relics
        self.pieces: dict[str, Piece] = ed.pieces
        self.piece_unit = ed.piece_unit
        # Action kinds whose integer argument is a region (written as "SIDE:ID" in text forms).
        self.region_args = frozenset(k for u in self.units.values() for k in u.region_args)
        # The hook indexes (engine/model/derived.py): the edition's, shared by its games, until `set_unit`.
        self._use(ed.tables)
        self.action_specs = ed.action_specs
        self.event_specs = ed.event_specs
        self.prompt_specs = ed.prompt_specs

    def _apply_values(self, values: dict[str, Any]) -> None:
        factions = self.edition.factions
        for key, table in (("races", self.race_value), ("powers", self.power_value)):
            over_all = values.get(key, {})
            if not isinstance(over_all, dict):
                raise PositionError(f"settings.values.{key}", "must map ids to objects")
            for uid, over in over_all.items():
                if uid not in table:
                    raise PositionError(f"settings.values.{key}.{uid}", "unknown id")
                if not isinstance(over, dict):
                    raise PositionError(f"settings.values.{key}.{uid}", "must be an object")
                for field, v in over.items():
                    where = f"settings.values.{key}.{uid}.{field}"
                    good_int = isinstance(v, int) and not isinstance(v, bool)
                    if field == "value" and good_int and 0 <= v <= 20:
                        table[uid] = v
                    elif field == "faction" and key == "races" and factions and v in factions:
                        self.faction[uid] = v
                    elif field == "tray" and key == "races" and good_int and 1 <= v <= 100:
                        self.tray_size[uid] = v
                    else:
                        raise PositionError(where, "not an overridable field or a bad value")

    def set_unit(self, uid: str, unit: Unit) -> None:
        """Play `uid` with another unit (a variant rule, a test double): the game gets hook indexes
        of its own, and every table looked up before is forgotten (`derived.Tables`)."""
        self.units[uid] = unit
        self._use(Tables(self.units, self.relics))

    def _use(self, tables: Tables) -> None:
        self.tables = tables
        # Read on the hot path as attributes of the game.
        self.marker_hooked: dict[str, frozenset[str]] = tables.marker_hooked
        self.shields = tables.shields

    def units_hooked(self, units: Sequence[Unit]) -> UnitsHooked:
        """The hook table of a list of units (remembered by the list's contents): what `Attack` asks."""
        return self.tables.units_hooked(units)

    def implementers(self, hook: str) -> frozenset[str]:
        """The ids of the units that implement `hook` (`overrides` for a unit)."""
        return self.tables.hooked[hook]

    def overrides(self, unit: Unit, hook: str) -> bool:
        """Whether the unit implements `hook` (hooks nobody implements cost nothing)."""
        return unit.id in self.tables.hooked[hook]

    def attack(self, st: State, seat: int) -> conquest.Attack:
        """A new `conquest.Attack` of the seat, as a listing of conquests keeps it (`State.memo`):
        what `derived.rebuild` compares the memo with."""
        att = conquest.Attack(st, seat)
        att.defended = conquest.defended_mask(st, seat)
        return att

    def new_initial_state(self) -> State:
        return initial_state(self)

    # The decision interface of this game's states (`State.legal_actions`, `State.apply`).
    def legal_actions(self, st: State, kinds: Any = None, regions: Any = None) -> list[Action]:
        legal = flow.legal_actions(st)
        if kinds is not None:
            legal = [a for a in legal if a.kind in kinds]
        if regions is not None:
            legal = [a for a in legal if a.region in regions]
        return legal

    def apply(self, st: State, action: Any, seat: int | None = None) -> None:
        flow.apply(st, action, seat)

    def is_legal(self, st: State, action: Any) -> bool:
        try:
            action = check_action(self, action)
        except MalformedActionError:
            return False
        return flow.is_legal(st, action)

    def explain(self, st: State, region: int, seat: int | None = None) -> dict[str, Any]:
        return explain_region(st, region, seat)

    def state_to_json(self, st: State) -> dict[str, Any]:
        return serialize.state_to_json(st)

    @classmethod
    def from_settings(cls, settings: Settings | dict[str, Any]) -> Game:
        if isinstance(settings, dict):
            settings = Settings.from_json(settings)
        return cls(settings)
