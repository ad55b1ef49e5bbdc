"""Editions: everything a game is made of that is not the engine's own rules.

An `Edition` bundles the content units (races, powers, markers) with their data, the natives that
start on the map, the board set and how boards are drawn for a player count, the policies where
editions differ (how a race enters the map, factions, terrains and features), the rule options
of the edition and of its units, the variants it can be played in, and the map from the engine's
rule ids to the sections of its rulebook.

The engine imports no edition: `Game(settings)` asks the resolver installed by the `smallworld`
package (`set_resolver`) for `settings.edition`, or takes an `Edition` object directly. Hook tables
("which units override which hook", engine/model/derived.py) are built once per edition, so a new game
costs nothing there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.derived import MAPS, Lru, Tables
from smallworld.engine.model.errors import PositionError
from smallworld.engine.model.hooks import Piece, Unit
from smallworld.engine.model.options import OptionSpec
from smallworld.engine.model.protocol import CORE_ACTIONS, CORE_EVENTS, ActionSpec, EventSpec, PromptSpec
from smallworld.engine.model.rule_ids import Rule

if TYPE_CHECKING:
    from smallworld.boards.model import BoardSide
    from smallworld.engine.model.board_map import Map
    from smallworld.engine.rules.variants.base import Variant


@dataclass(frozen=True)
class Entry:
    """One unit of an edition with its data row: values, where they come from, and how sure we are."""

    id: str
    kind: str  # "race", "power", "relic"
    name: str
    value: int
    source: str
    confidence: str
    section: str
    unit: Unit
    implemented: bool = True
    faction: str | None = None
    faction_source: str | None = None
    tray: int | None = None
    group: str | None = None  # relics: "artifact" or "place"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "value": self.value,
            "source": self.source,
            "confidence": self.confidence,
            "section": self.section,
            "implemented": self.implemented,
        }
        if self.kind == "race":
            out.update(faction=self.faction, faction_source=self.faction_source, tray=self.tray)
        if self.kind == "relic":
            out["value"] = None  # markers give no tokens
            out["kind"] = self.group
        return out


@dataclass(frozen=True)
class Natives:
    """The ownerless In-Decline race that starts on the map (Murlocs; classic: Lost Tribes)."""

    id: str
    name: str
    supply: int  # tokens in the box
    feature: str  # one token goes on every land region with this feature at setup


@dataclass(frozen=True)
class EntryRule:
    """How a race reaches regions it is not adjacent to.

    `first`: feature of the regions a race may enter the map through (its first conquest);
    `reach`: feature of the regions any later conquest may target without adjacency (None: none);
    `travel`: feature of the regions that cost `travel_cost` more when not adjacent (None: none).
    Warcraft: Entry regions for all three, +1; classic: border regions first, then adjacency only."""

    first: str
    reach: str | None = None
    travel: str | None = None
    travel_cost: int = 0


class BoardSet:
    """Where an edition's board sides come from and which go on the table for a player count."""

    def side(self, side_id: str) -> BoardSide:
        raise NotImplementedError

    def ids(self) -> list[str]:
        raise NotImplementedError

    def draw(self, players: int, randbelow: Callable[[int], int]) -> list[str]:
        """The side ids of a new game, drawn with `randbelow` (the seed's board stream)."""
        raise NotImplementedError

    def check(self, side: BoardSide) -> list[str]:
        """The edition's own design checks of one of its sides (`smallworld boards validate`): each
        problem as a line naming the side, region and rule; none by default."""
        return []

    def summary(self, side: BoardSide) -> dict[str, Any]:
        """Counts of one side for `smallworld boards list` (the edition's own; none by default)."""
        return {}


@dataclass(eq=False)  # compared and hashed by identity: one object per edition and process
class Edition:
    """An edition of the game. Build it once; games share it (it is never changed by a game)."""

    id: str
    name: str
    rulebook: str  # the specification its citations point into
    entries: Iterable[Entry]
    boards: BoardSet
    variants: Mapping[str, Variant]
    citations: Mapping[Rule, str]
    rounds: Mapping[int, int]  # players -> game turns
    entry_rule: EntryRule
    natives: Natives | None = None
    terrains: tuple[str, ...] = ()
    water: frozenset[str] = frozenset()
    features: tuple[str, ...] = ()
    terrain_defence: Mapping[str, int] = field(default_factory=dict)  # Mountain: +1 (§6.6)
    factions: tuple[str, ...] = ()  # empty: the edition has no factions and no Faction Bonus
    opposed: Mapping[str, str] = field(default_factory=dict)  # faction -> the faction it scores against
    marker_feature: str | None = None  # one face-down marker per board on this feature at setup
    options: tuple[OptionSpec, ...] = ()  # the edition's own rule options (units add theirs)
    words: Any = None  # the edition's message catalogues (engine/words.py)

    def __post_init__(self) -> None:
        entries = list(self.entries)
        self.races: dict[str, Entry] = {e.id: e for e in entries if e.kind == "race"}
        self.powers: dict[str, Entry] = {e.id: e for e in entries if e.kind == "power"}
        self.relics: dict[str, Entry] = {e.id: e for e in entries if e.kind == "relic"}
        self.units: dict[str, Unit] = {e.id: e.unit for e in entries}
        for uid, unit in self.units.items():
            if unit.id != uid:
                raise ValueError(f"edition {self.id}: entry {uid!r} holds the unit of {unit.id!r}")
        self.pieces: dict[str, Piece] = {}
        self.piece_unit: dict[str, str] = {}  # piece kind -> the unit that brings it
        for unit in self.units.values():
            for p in unit.pieces:
                self.pieces[p.id] = p
                self.piece_unit[p.id] = unit.id
        # The hook indexes of its units (engine/model/derived.py), built once per edition and process and
        # shared by its games: a hook nobody overrides costs nothing.
        self.tables = Tables(self.units, self.relics)
        self.hooked: dict[str, frozenset[str]] = self.tables.hooked
        # The map of each drawn set of board sides, shared by the games of one draw (a Map is never
        # changed after it is built); the least recently drawn go first past the bound.
        self.maps: Lru[tuple[str, ...], Map] = Lru(MAPS)
        self.unit_options: tuple[OptionSpec, ...] = tuple(
            spec for u in self.units.values() for spec in u.options
        )
        self._collect_protocol()

    def _collect_protocol(self) -> None:
        """Every action kind, event type and prompt of the edition: the engine's, then each unit's
        (stamped with its unit); two declarations of one name are an error of the edition."""
        self.action_specs: dict[str, ActionSpec] = {a.kind: a for a in CORE_ACTIONS}
        self.event_specs: dict[str, EventSpec] = {e.type: e for e in CORE_EVENTS}
        self.prompt_specs: dict[tuple[str, str], PromptSpec] = {}
        for uid, unit in self.units.items():
            for a in unit.action_specs:
                a = replace(a, unit=uid)
                if self.action_specs.get(a.kind, a) != a:
                    raise ValueError(f"edition {self.id}: action kind {a.kind!r} is declared twice")
                self.action_specs[a.kind] = a
            for e in unit.event_specs:
                e = replace(e, unit=uid)
                if self.event_specs.get(e.type, e) != e:
                    raise ValueError(f"edition {self.id}: event type {e.type!r} is declared twice")
                self.event_specs[e.type] = e
            for p in unit.prompt_specs:
                self.prompt_specs[(uid, p.id)] = replace(p, unit=uid)
        # Canonical rank of each kind: the engine's kinds first, then the units' in edition order.
        self.kind_rank: dict[str, int] = {k: i for i, k in enumerate(self.action_specs)}

    # --- queries ------------------------------------------------------------------------------
    def cite(self, rule: Rule | str) -> str:
        """The section of this edition's rulebook that an engine rule id stands for."""
        if isinstance(rule, Rule):
            return self.citations.get(rule, rule.value)
        return rule

    def variant(self, name: str) -> Variant:
        if name not in self.variants:
            known = sorted(self.variants)
            raise PositionError("settings.variant", f"{self.id!r} has the variants {known}, not {name!r}")
        return self.variants[name]

    def unit_kind(self, uid: str) -> str | None:
        for table, kind in ((self.races, "race"), (self.powers, "power"), (self.relics, "relic")):
            if uid in table:
                return kind
        return None


# --- the registry of editions -------------------------------------------------------------------
_EDITIONS: dict[str, Edition] = {}
_RESOLVER: list[Callable[[str], Edition | None]] = []


def register(edition: Edition) -> Edition:
    """Make an edition known by its id (tests register their own small editions)."""
    _EDITIONS[edition.id] = edition
    return edition


def set_resolver(resolver: Callable[[str], Edition | None]) -> None:
    """Install the function that loads an edition by id on first use (the `smallworld` package does)."""
    if resolver not in _RESOLVER:
        _RESOLVER.append(resolver)


def get_edition(edition_id: str) -> Edition:
    if not isinstance(edition_id, str):
        raise PositionError("settings.edition", f"must be an edition id, got {edition_id!r}")
    found = _EDITIONS.get(edition_id)
    if found is None:
        for resolve in _RESOLVER:
            found = resolve(edition_id)
            if found is not None:
                _EDITIONS[edition_id] = found
                break
    if found is None:
        known = sorted(set(_EDITIONS) | set(known_ids()))
        raise PositionError("settings.edition", f"unknown edition {edition_id!r}; known: {known}")
    return found


_KNOWN: list[Callable[[], Iterable[str]]] = []


def add_known(lister: Callable[[], Iterable[str]]) -> None:
    """Install a function listing the edition ids that a resolver can load (for messages and CLIs)."""
    _KNOWN.append(lister)


def known_ids() -> list[str]:
    out = set(_EDITIONS)
    for lister in _KNOWN:
        out.update(lister())
    return sorted(out)
