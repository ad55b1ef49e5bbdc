"""A Game: the static part of a match (edition, settings, map, content values). States point to it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from smallworld.boards.model import BoardSide
from smallworld.engine import flow, serialize
from smallworld.engine.actions import Action
from smallworld.engine.board_map import Map
from smallworld.engine.edition import Edition, Entry, get_edition
from smallworld.engine.errors import PositionError
from smallworld.engine.explain import explain_region
from smallworld.engine.hooks import Piece, Unit, overrides
from smallworld.engine.keyed_rng import board_rng
from smallworld.engine.options import RuleOptions, option_specs
from smallworld.engine.settings import Settings
from smallworld.engine.setup import initial_state

if TYPE_CHECKING:
    from smallworld.engine.state import State


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
        got = edition.maps[ids] = Map(sides, edition.water, edition.terrain_defence)
    return got


# How many hook tables a game keeps before it starts them afresh (the tables of an edition are shared
# by all its games: a long simulation meets many combinations of races and powers).
_TABLES_MAX = 50_000


class UnitsHooked(dict[str, list[Unit]]):
    """For a fixed list of units: those that implement each hook (in their order), filled on first
    use, and what the conquest step reads of all of them. Callers must not change the lists."""

    def __init__(self, units: tuple[Unit, ...], hooked: dict[str, frozenset[str]]) -> None:
        super().__init__()
        self.units = units
        self.hooked = hooked
        self.minimum = max((u.min_per_region for u in units), default=1)
        self.final = all(u.final_attempt for u in units)
        self.loss_order = sorted(units, key=lambda u: u.loss_priority)  # §6.9, AMB-12 (`prevented_by`)
        # The hooks of every listing of conquests, read as attributes (`conquest.Attack`).
        self.reducers = self["cost_reduction"]
        self.waivers = self["waives_travel"]
        self.optional = self["conquest_options"]
        self.extra_targets = self["extra_targets"]

    def __missing__(self, hook: str) -> list[Unit]:
        ids = self.hooked[hook]
        got = self[hook] = [u for u in self.units if u.id in ids]
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
        self._hooked: dict[str, frozenset[str]] = ed.hooked
        self.shields = bool(self._hooked["shielded"])  # whether any unit may shield regions (Diplomat)
        # A seat's own units depend only on its races and powers (`State.units`): the hot path asks
        # them several times a decision, so each combination is worked out once, with the units of
        # each hook among them (`seat_tables`, by `State.seat_key`). Keyed by values only, the
        # tables are shared by every state and clone of the game, and by every game of the edition
        # that plays its units as they are; `set_unit` gives the game tables of its own.
        self.seat_tables: dict[tuple[Any, ...], UnitsHooked] = ed.seat_tables
        # Stands for the tables in the table each seat keeps (`State.table`): `set_unit` replaces it.
        self.tables_token = object()
        self._units_hooked: dict[tuple[Unit, ...], UnitsHooked] = ed.units_tables
        # For each hook, the relics (marker units) that implement it: most hooks have none.
        self.marker_hooked: dict[str, frozenset[str]] = ed.marker_hooked  # `_index_markers` after set_unit
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
        """Play `uid` with another unit (a variant rule, a test double); hook lookups start afresh."""
        self.units[uid] = unit
        self._hooked = {
            hook: frozenset(i for i, u in self.units.items() if overrides(u, hook)) for hook in self._hooked
        }
        self.seat_tables = {}
        self.tables_token = object()
        self._units_hooked = {}
        self.shields = bool(self._hooked["shielded"])
        self._index_markers()

    def _index_markers(self) -> None:
        # Markers are relics; any unit that is neither a race nor a power counts, to be safe.
        relics = set(self.relics) | {i for i, u in self.units.items() if u.kind not in ("race", "power")}
        self.marker_hooked = {hook: ids & relics for hook, ids in self._hooked.items() if ids & relics}

    def seat_units(self, key: tuple[Any, ...]) -> tuple[Unit, ...]:
        """The units of a seat's races and powers, by `State.seat_key`: the Active race and power,
        then the In-Decline races and powers whose hooks work In Decline (without the markers)."""
        return self.seat_table(key).units

    def seat_table(self, key: tuple[Any, ...]) -> UnitsHooked:
        """The hook table of `seat_units(key)` (`State.hook_units` looks in `seat_tables` first)."""
        got = self.seat_tables.get(key)
        if got is not None:
            return got
        active, power, declined, declined_power, more = key
        u = self.units
        out: list[Unit] = []
        if active:
            out.append(u[active])
        if power:
            out.append(u[power])
        if declined and u[declined].works_in_decline:
            out.append(u[declined])
        if declined_power and declined_power != power and u[declined_power].works_in_decline:
            out.append(u[declined_power])
        for race, pw in more:
            for uid in (race, pw):
                if uid and u[uid].works_in_decline and u[uid] not in out:
                    out.append(u[uid])
        if len(self.seat_tables) > _TABLES_MAX:
            self.seat_tables.clear()  # a bound for very long simulations; refilled as needed
        got = self.seat_tables[key] = self.units_hooked(out)
        return got

    def units_hooked(self, units: Sequence[Unit]) -> UnitsHooked:
        """The hooks of a list of units (cached by the list's contents): what `Attack` asks."""
        key = tuple(units)
        got = self._units_hooked.get(key)
        if got is None:
            if len(self._units_hooked) > _TABLES_MAX:
                self._units_hooked.clear()
            got = self._units_hooked[key] = UnitsHooked(key, self._hooked)
        return got

    def seat_hooked(self, key: tuple[Any, ...], hook: str) -> list[Unit]:
        """`seat_units(key)` that implement `hook`, in the same order."""
        return self.seat_table(key)[hook]

    def implementers(self, hook: str) -> frozenset[str]:
        """The ids of the units that implement `hook` (`overrides` for a unit)."""
        return self._hooked[hook]

    def overrides(self, unit: Unit, hook: str) -> bool:
        """Whether the unit implements `hook` (hooks nobody implements cost nothing)."""
        return unit.id in self._hooked[hook]

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

    def explain(self, st: State, region: int, seat: int | None = None) -> dict[str, Any]:
        return explain_region(st, region, seat)

    def state_to_json(self, st: State) -> dict[str, Any]:
        return serialize.state_to_json(st)

    @classmethod
    def from_settings(cls, settings: Settings | dict[str, Any]) -> Game:
        if isinstance(settings, dict):
            settings = Settings.from_json(settings)
        return cls(settings)
