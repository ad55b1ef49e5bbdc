"""Every derived index of the engine: what it is derived from, its one invalidation, its rebuild.

A derived index is data the engine could work out again at any moment from the edition, the game
and the state, kept only for speed. None is saved, put in JSON, copied into a view or compared by
`==` on states. Each has a single invalidation:

- hook sets, the ids of the units that implement each hook and those of the markers
  (`Tables.hooked`, `Tables.marker_hooked`), from the units the game plays: forgotten when the
  game's `Tables` is replaced (`Game.set_unit`);
- seat tables, a seat's own units and those of each hook (`Tables.seat`, LRU, by `seat_key`), and
  unit tables, the same for any list of units (`Tables.lists`, LRU): the same;
- the table a seat keeps (`Seat.hooked`, a `SeatTable`), from the seat's races and powers and the
  `Tables`: looked up again whenever one of them differs (checked at each read, `State.table`);
- face-up markers (`State._up`), from `State.markers`: forgotten when `markers` is another dict,
  by `reveal` and `move_marker`;
- region indexes (`State.race_mask`, `.defense`, `.immune`), from `State.race` and `.pieces`: kept
  in step by the state's helpers (`set_region`, `add_piece`, ...);
- the memo of the last listing of conquests (`State.memo`: ply, seat, `conquest.Attack`), from the
  state at that ply: unused at another ply or seat, or once the seat's race, power or regions
  differ (`listed_attack`); never copied;
- maps of drawn board sides (`Edition.maps`, LRU), from the sides, and the adjacency of region masks
  (`Map.adjacency`, the oldest dropped first), from the map: never forgotten (a `Map` never changes);
- shared actions (`actions.at_regions`, `functools.cache`), from a kind, a map size and an
  argument: never forgotten (a few dozen tuples).

Each state-level index is also dropped by `forget(st)`, the one call for code that changes a state's
fields by hand (a loader, a test, a unit that edits them directly); the game-level ones by a new
`Tables`. The tables and the maps are shared by every game of an edition in a process; LRU bounds
(`SEAT_TABLES`, `UNIT_TABLES`, `MAPS`, and `ADJACENCY` for each map) keep a long process (a server, a study of
thousands of games) at a flat size. `rebuild(st)` works every index out from scratch and `check(st)`
(called by `invariants.check_invariants`) compares each one the state and its game keep with it.

The rule "which units answer a hook for a seat" is written here once: the seat's own units
(`own_units`: its Active race and power, then its In-Decline races and powers whose hooks work In
Decline), then the face-up markers that apply to it (`marker_units`), each asked only when it
overrides the hook (`hooks.overrides`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import GetSetDescriptorType
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from smallworld.engine.model.hooks import HOOK_NAMES, Unit, overrides

if TYPE_CHECKING:
    from smallworld.engine.model.board_map import Map
    from smallworld.engine.model.state import Seat, State
    from smallworld.engine.rules.conquest import Attack

# LRU bounds of the indexes shared by the games of an edition (`Tables`, `Edition.maps`, `Map`).
SEAT_TABLES = 4096  # hook tables of seats, by races and powers
UNIT_TABLES = 4096  # hook tables of lists of units (a seat's units with its face-up markers)
MAPS = 128  # maps of drawn board sides, each with its adjacency memo
ADJACENCY = 2048  # region masks of one map whose adjacency is remembered

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A dict of at most `size` entries that drops the least recently used one to make room."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.data: dict[K, V] = {}  # oldest first: a hit moves its entry to the end

    def get(self, key: K) -> V | None:
        data = self.data
        got = data.pop(key, None)
        if got is not None:
            data[key] = got
        return got

    def put(self, key: K, value: V) -> V:
        data = self.data
        data[key] = value
        if len(data) > self.size:
            del data[next(iter(data))]
        return value

    def __len__(self) -> int:
        return len(self.data)

    def __iter__(self) -> Iterator[K]:
        return iter(self.data)

    def clear(self) -> None:
        self.data.clear()


# --- which units answer a hook ----------------------------------------------------------------------
def own_units(units: Mapping[str, Unit], key: tuple[Any, ...]) -> list[Unit]:
    """A seat's own units by its `seat_key` (without the markers): the Active race and power, then
    the In-Decline races and powers whose hooks work In Decline, each once."""
    active, power, declined, declined_power, more = key
    out: list[Unit] = []
    if active:
        out.append(units[active])
    if power:
        out.append(units[power])
    if declined and units[declined].works_in_decline:
        out.append(units[declined])
    if declined_power and declined_power != power and units[declined_power].works_in_decline:
        out.append(units[declined_power])
    for race, pw in more:
        for uid in (race, pw):
            if uid and units[uid].works_in_decline and units[uid] not in out:
                out.append(units[uid])
    return out


def face_up(
    markers: Mapping[int, list[list[Any]]], units: Mapping[str, Unit]
) -> tuple[tuple[int, Unit], ...]:
    """The face-up markers as (region, unit), by region then as they lie there."""
    return tuple((r, units[m[0]]) for r in sorted(markers) for m in markers[r] if m[1])  # [relic id, face up]


def marker_units(
    up: tuple[tuple[int, Unit], ...], race: list[str | None], active: str | None, ids: frozenset[str] | None
) -> list[Unit]:
    """The units of the face-up markers `up` (`face_up`) whose own hooks apply to a seat whose Active
    race is `active`, by region: those that work everywhere (the Well) and those lying in a region
    of that race (§10); only those whose id is in `ids` unless it is None."""
    out = []
    for r, unit in up:
        mine = unit.everywhere or (active is not None and race[r] == active)
        if mine and (ids is None or unit.id in ids):
            out.append(unit)
    return out


def hooked_sets(units: Mapping[str, Unit]) -> dict[str, frozenset[str]]:
    """For each hook, the ids of the units that implement it (a hook nobody implements costs nothing)."""
    return {hook: frozenset(uid for uid, u in units.items() if overrides(u, hook)) for hook in HOOK_NAMES}


def marker_sets(
    hooked: Mapping[str, frozenset[str]], units: Mapping[str, Unit], relics: Iterable[str]
) -> dict[str, frozenset[str]]:
    """For each hook that a marker implements, the ids of those markers (any unit that is neither a
    race nor a power counts as one, to be safe)."""
    marks = set(relics) | {i for i, u in units.items() if u.kind not in ("race", "power")}
    return {hook: ids & marks for hook, ids in hooked.items() if ids & marks}


# --- the game-level indexes ------------------------------------------------------------------------
# The units of a hook that none of a table's units implements (shared by every table: never changed).
NONE: list[Unit] = []


class HookLists(dict[str, list[Unit]]):
    """A table's units by hook; a hook none of them implements reads as `NONE` (kept on first use,
    so later reads are a plain lookup). No attributes: compiled by mypyc, a dict subclass with
    attributes never frees them (python/mypy#21716)."""

    def __missing__(self, hook: str) -> list[Unit]:
        self[hook] = NONE
        return NONE


class UnitsHooked:
    """For a fixed list of units: those that implement each hook, in their order (`lists[hook]`), and
    what the conquest step reads of all of them. Callers must not change the lists."""

    def __init__(self, units: tuple[Unit, ...], hooks_of: Mapping[str, tuple[str, ...]]) -> None:
        self.units = units
        lists = HookLists()
        for u in units:
            for hook in hooks_of[u.id]:
                got = lists.get(hook)
                if got is None:
                    lists[hook] = [u]
                else:
                    got.append(u)
        self.lists = lists
        self.minimum = max((u.min_per_region for u in units), default=1)
        self.final = all(u.final_attempt for u in units)
        self.loss_order = sorted(units, key=lambda u: u.loss_priority)  # §6.9, AMB-12 (`prevented_by`)
        # The hooks of every listing of conquests, read as attributes (`conquest.Attack`).
        self.reducers = lists["cost_reduction"]
        self.waivers = lists["waives_travel"]
        self.optional = lists["conquest_options"]
        self.extra_targets = lists["extra_targets"]

    def __getitem__(self, hook: str) -> list[Unit]:
        return self.lists[hook]


class Tables:
    """The hook indexes of the units a game plays: shared by every game of an edition that plays its
    units as they are (`Edition.tables`); a game that plays another unit gets its own
    (`Game.set_unit`). The object is the token of what was looked up in it (`SeatTable.tables`)."""

    def __init__(self, units: Mapping[str, Unit], relics: Iterable[str]) -> None:
        self.units = units
        self.hooked = hooked_sets(units)
        self.marker_hooked = marker_sets(self.hooked, units, relics)
        self.shields = bool(self.hooked["shielded"])  # whether any unit may shield regions (Diplomat)
        # For each unit, the hooks it implements (what a table of units is built from).
        self.hooks_of = {uid: tuple(h for h, ids in self.hooked.items() if uid in ids) for uid in units}
        self.seat: Lru[tuple[Any, ...], UnitsHooked] = Lru(SEAT_TABLES)
        self.lists: Lru[tuple[Unit, ...], UnitsHooked] = Lru(UNIT_TABLES)
        # The units whose hook sets `check` last compared with their rebuild (they change only with them).
        self.verified: tuple[Unit, ...] | None = None

    def seat_table(self, key: tuple[Any, ...]) -> UnitsHooked:
        """The hook table of a seat's own units, by its `seat_key`."""
        got = self.seat.get(key)
        if got is None:
            got = self.seat.put(key, self.units_hooked(own_units(self.units, key)))
        return got

    def units_hooked(self, units: Sequence[Unit]) -> UnitsHooked:
        """The hook table of a list of units (remembered by the list's contents)."""
        key = tuple(units)
        got = self.lists.get(key)
        if got is None:
            got = self.lists.put(key, UnitsHooked(key, self.hooks_of))
        return got


class SeatTable:
    """`Seat.hooked`: the hook table of a seat's races and powers, with the ids and the `Tables` it
    was looked up for; `State.table` uses it while they are the seat's (a class, not a tuple: a
    compiled build reads its fields without taking a reference to each)."""

    __slots__ = ("active", "declined", "declined_power", "power", "table", "tables")

    def __init__(self, s: Seat, tables: Tables, table: UnitsHooked) -> None:
        self.active = s.active
        self.power = s.power
        self.declined = s.declined
        self.declined_power = s.declined_power
        self.tables = tables
        self.table = table


def seat_key(s: Seat) -> tuple[Any, ...]:
    """What a seat's own units depend on, its races and powers: the key of its hook table."""
    more = s.more_declined
    return (s.active, s.power, s.declined, s.declined_power, tuple(map(tuple, more)) if more else ())


def _fields(obj: object) -> list[str]:
    """The attributes of an object of a class with `__slots__`; compiled by mypyc such a class keeps
    none: its attributes are then the getset descriptors of its type."""
    slots = getattr(type(obj), "__slots__", None)
    if slots is None:
        slots = [k for k, v in vars(type(obj)).items() if isinstance(v, GetSetDescriptorType)]
    return [k for k in slots if not k.startswith("__")]


def listed_attack(st: State, seat: int, ply: int) -> Attack | None:
    """The `conquest.Attack` that the listing of conquests made at `ply` for `seat` kept
    (`State.memo`, set by `flow.conquest_actions`), while the state still shows what it was built
    for: the seat's race, power and regions (a state changed by hand in between is judged afresh);
    None otherwise."""
    memo = st.memo
    if memo is None or memo[0] != ply or memo[1] != seat:
        return None
    att: Attack = memo[2]
    s = st.seats[seat]
    race = st.turn.race if st.turn.race is not None and seat == st.turn_seat else s.active
    own = st.race_mask.get(race, 0) if race else 0
    if att.race != race or att.active != s.active or att.power != s.power or att.own != own:
        return None
    return att


# --- the state-level indexes: forget, rebuild, check ---------------------------------------------
def forget(st: State) -> None:
    """The one invalidation of a state's derived indexes, after its fields were changed by hand:
    the face-up markers, the tables the seats keep and the memo are dropped (worked out again on
    their next read) and the region indexes are rebuilt."""
    st._up = None
    st.memo = None
    for s in st.seats:
        s.hooked = None
    fresh = _regions(st)
    st.race_mask, st.defense, st.immune = fresh["race_mask"], fresh["defense"], fresh["immune"]


def _regions(st: State) -> dict[str, Any]:
    race_mask: dict[str, int] = {}
    for r, race in enumerate(st.race):
        if race is not None:
            race_mask[race] = race_mask.get(race, 0) | (1 << r)
    kinds = st.game.pieces
    defense = [0] * len(st.race)
    immune = 0
    for r, p in enumerate(st.pieces):
        for k, n in (p or {}).items():
            piece = kinds.get(k)
            if piece is not None:
                defense[r] += piece.defense * n
                if piece.immune:
                    immune |= 1 << r
    return {"race_mask": race_mask, "defense": defense, "immune": immune}


def rebuild(st: State, hooks: bool = True) -> dict[str, Any]:
    """Every derived index of the state and its game, worked out from scratch (nothing read from a
    cache): what `check` compares the kept ones with; without the game's hook sets unless `hooks`."""
    game = st.game
    units = game.units
    up = face_up(st.markers, units)
    seats = []
    for s in st.seats:
        own = own_units(units, seat_key(s))
        seats.append({"own": own, "units": own + marker_units(up, st.race, s.active, None)})
    memo = None
    if st.memo is not None and listed_attack(st, st.memo[1], st.ply) is not None:  # a memo in use
        memo = (st.ply, st.memo[1], game.attack(st, st.memo[1]))
    out = {
        **_regions(st),
        "face_up": up,
        "seats": seats,
        "memo": memo,
        "adjacency": {mask: _adjacent(game.map, mask) for mask in st.race_mask.values()},
    }
    if hooks:
        out["hooked"] = hooked = hooked_sets(units)
        out["marker_hooked"] = marker_sets(hooked, units, game.relics)
    return out


def _adjacent(m: Map, mask: int) -> int:
    out = 0
    for r in range(m.n):
        if (mask >> r) & 1:
            out |= m.adj[r]
    return out


def hook_list(units: Iterable[Unit], hook: str) -> list[Unit]:
    """The units of `units` that implement `hook`, in their order (the definition)."""
    return [u for u in units if overrides(u, hook)]


def check(st: State) -> None:
    """Compare every derived index the state and its game keep with `rebuild(st)`; AssertionError
    names the one out of step."""
    game = st.game
    tables = game.tables
    assert dict(tables.units) == game.units, "the hook tables are not those of the game's units (`set_unit`)"
    # The hook sets depend on the units alone: worked out from scratch once for each set of units.
    verify = tables.verified != tuple(game.units.values())
    fresh = rebuild(st, hooks=verify)
    for name in ("race_mask", "defense", "immune"):
        assert getattr(st, name) == fresh[name], f"the region index {name} is out of step (`derived.forget`)"
    if verify:
        assert tables.hooked == fresh["hooked"], "the hook sets are out of step with the units"
        assert tables.marker_hooked == fresh["marker_hooked"], "the markers' hook sets are out of step"
        tables.verified = tuple(game.units.values())
    if st._up is not None and st._up[0] is st.markers:
        assert st._up[1] == fresh["face_up"], "the face-up markers are out of step (`derived.forget`)"
    for i, s in enumerate(st.seats):
        want = fresh["seats"][i]
        kept = s.hooked
        if kept is not None and kept.tables is tables and not s.more_declined:  # `State.table` reuses it
            key = (kept.active, kept.power, kept.declined, kept.declined_power, ())
            own = own_units(game.units, key)
            assert list(kept.table.units) == own, f"seat {i}'s kept hook table is not the units of its key"
            want_lists = {h: [u for u in own if u.id in ids] for h, ids in tables.hooked.items()}
            want_lists = {h: us for h, us in want_lists.items() if us}
            kept_lists = {h: us for h, us in kept.table.lists.items() if us}
            assert kept_lists == want_lists, f"seat {i}'s kept table of hooks is out of step"
        # What the seat's units are now, through whatever table it keeps or looks up (`hook_units`
        # against the rule for each hook: tests/test_fast_paths.py).
        assert st.units(i) == want["units"], f"seat {i}'s units are not those the hook rule names"
    memo = fresh["memo"]
    if memo is not None and st.memo is not None:
        att, new = st.memo[2], memo[2]
        for field in _fields(att):
            if field != "hooked":  # the table itself: compared above, seat by seat
                assert getattr(att, field) == getattr(new, field), f"the memo's Attack.{field} is out of step"
    m = game.map
    for mask, adj in fresh["adjacency"].items():
        kept_adj = m.adjacency.get(mask)
        assert kept_adj is None or kept_adj == adj, "the adjacency memo is out of step"
