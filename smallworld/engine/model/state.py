"""The mutable game state: plain data that round-trips exactly through JSON.

Only `apply` (in `flow`) changes a state on behalf of a player; the helpers here keep the derived
indexes (`race_mask`, `defense`, `immune`; engine/model/derived.py lists them all) in step with the region
arrays. Units keep what they track in their own namespace of the seat and turn data (`seat_data`,
`turn_data`), and secrets that belong to a piece ride on the piece as its tags
(`add_piece(..., tags=...)`): they move with it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.derived import SeatTable, face_up, marker_units, seat_key
from smallworld.engine.model.protocol import FieldType, event_json
from smallworld.engine.model.rng import Rng

if TYPE_CHECKING:
    from smallworld.engine.api.game import Game
    from smallworld.engine.model.derived import UnitsHooked
    from smallworld.engine.model.hooks import Unit


class Phase(StrEnum):
    """Where a turn stands. Decision phases wait for an action; `flow.advance` passes through the
    others. Members are strings, so a phase compares equal to its name."""

    PICK = "pick"
    RISE = "rise"  # whether the In-Decline race that conquers In Decline plays its phase first
    START = "start"
    CONQUER = "conquer"
    REDEPLOY = "redeploy"
    WITHDRAWN = "withdrawn"
    AFTER_SCORE = "after_score"  # a race that may decline after scoring decides
    OVER = "over"
    AFTER_CONQUESTS = "after_conquests"
    REDEPLOY_BEGIN = "redeploy_begin"
    WITHDRAWN_NEXT = "withdrawn_next"
    TURN_END = "turn_end"
    SCORE = "score"
    NEXT_TURN = "next_turn"


class Ph:
    """The phases as plain class attributes, for the hot paths: reading `Phase.X` goes through the
    attribute hook of the Enum metaclass (about 60 ns a read in Python 3.11), `Ph.X` does not."""

    PICK: Final = Phase.PICK
    RISE: Final = Phase.RISE
    START: Final = Phase.START
    CONQUER: Final = Phase.CONQUER
    REDEPLOY: Final = Phase.REDEPLOY
    WITHDRAWN: Final = Phase.WITHDRAWN
    AFTER_SCORE: Final = Phase.AFTER_SCORE
    OVER: Final = Phase.OVER
    AFTER_CONQUESTS: Final = Phase.AFTER_CONQUESTS
    REDEPLOY_BEGIN: Final = Phase.REDEPLOY_BEGIN
    WITHDRAWN_NEXT: Final = Phase.WITHDRAWN_NEXT
    TURN_END: Final = Phase.TURN_END
    SCORE: Final = Phase.SCORE
    NEXT_TURN: Final = Phase.NEXT_TURN


PICK, START, CONQUER, REDEPLOY, WITHDRAWN, OVER = (
    Phase.PICK,
    Phase.START,
    Phase.CONQUER,
    Phase.REDEPLOY,
    Phase.WITHDRAWN,
    Phase.OVER,
)
DECISION_PHASES = frozenset(
    {
        Phase.PICK,
        Phase.RISE,
        Phase.START,
        Phase.CONQUER,
        Phase.REDEPLOY,
        Phase.WITHDRAWN,
        Phase.AFTER_SCORE,
        Phase.OVER,
    }
)


def jcopy(x: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars): states, clones and views never share
    a nested object, so changing one can never change another."""
    if isinstance(x, dict):
        return {k: jcopy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [jcopy(v) for v in x]
    return x


class Seat:
    __slots__ = (
        "active",
        "coins",
        "declined",
        "declined_power",
        "ext",
        "hand",
        "held",
        "hooked",
        "more_declined",
        "power",
    )

    def __init__(self, coins: int = 5) -> None:
        self.coins = coins
        self.active: str | None = None
        self.power: str | None = None
        self.declined: str | None = None
        self.declined_power: str | None = None
        # Further In-Decline races, each [race, power], held beside `declined` by a race whose unit
        # takes a decline slot of its own (classic Spirit); always empty in Small World of Warcraft.
        self.more_declined: list[list[str | None]] = []
        self.hand = 0  # Active-race tokens in hand (§4)
        self.held: dict[str, int] = {}  # troop pieces in hand (Beasts, the Champion)
        self.ext: dict[str, Any] = {}  # unit id -> that unit's data for this seat
        # The hook table of the seat's races and powers with what it was looked up for (`State.table`,
        # engine/model/derived.py): never saved; a change of any of them makes it look the table up again.
        self.hooked: SeatTable | None = None

    def declined_races(self) -> list[str]:
        """Every In-Decline race of the seat, the most recent first."""
        out = [self.declined] if self.declined else []
        out.extend(str(r) for r, _p in self.more_declined if r)
        return out

    def copy(self) -> Seat:
        s = Seat.__new__(Seat)
        s.coins, s.active, s.power = self.coins, self.active, self.power
        s.declined, s.declined_power, s.hand = self.declined, self.declined_power, self.hand
        s.more_declined = [x[:] for x in self.more_declined]
        s.held = dict(self.held)
        s.ext = jcopy(self.ext)
        s.hooked = self.hooked  # the tables are shared by the games of an edition (`derived.Tables`)
        return s


class Turn:
    """What happened so far in the current turn (cleared at the start of each turn)."""

    __slots__ = (
        "conquests",
        "data",
        "die",
        "done",
        "ended",
        "race",
        "resume",
        "risen",
        "scored",
        "stash",
        "took",
        "withdrawn",
    )

    def __init__(self) -> None:
        self.conquests = 0  # successful conquests this turn (of the race conquering now)
        self.done = False  # conquests are over (the player ended them or made the final attempt)
        self.took: dict[str, int] = {}  # race id -> regions conquered from it (§6.15)
        self.withdrawn: list[int] = []  # seats that withdrew tokens this turn (§6.9)
        self.die: int | None = None  # the last reinforcement die result of the turn
        self.scored: dict[str, int] | None = None  # the end-of-turn score, by item
        self.resume: dict[str, Any] | None = None  # a conquest whose steps 4-6 wait for a prompt (§6.8)
        # The In-Decline race conquering in its own phase (None: the Active race), the Active
        # race's tokens in hand set aside meanwhile, and whether that phase was played this turn.
        self.race: str | None = None
        self.stash = 0
        self.risen = False
        self.data: dict[str, Any] = {}  # unit id -> that unit's data for this turn
        # Units whose end-of-turn step (§6.13) has run: a step that asks a prompt holds back the
        # later steps until it is answered, so they run in their order, one after the other.
        self.ended: list[str] = []

    def copy(self) -> Turn:
        t = Turn.__new__(Turn)
        t.conquests, t.done, t.die = self.conquests, self.done, self.die
        t.took = dict(self.took)
        t.withdrawn = list(self.withdrawn)
        t.scored = dict(self.scored) if self.scored is not None else None
        t.resume = jcopy(self.resume)
        t.race, t.stash, t.risen = self.race, self.stash, self.risen
        t.data = jcopy(self.data)
        t.ended = list(self.ended)
        return t


class State:
    __slots__ = (
        "_events",
        "_raw_events",
        "_up",
        "acting_seat",
        "defense",
        "first_seat",
        "game",
        "immune",
        "markers",
        "memo",
        "offer",
        "pending",
        "phase",
        "pieces",
        "ply",
        "power_discard",
        "power_stack",
        "race",
        "race_mask",
        "race_stack",
        "result",
        "rng",
        "rolls",
        "round",
        "row",
        "seats",
        "spare_markers",
        "supply",
        "tags",
        "tokens",
        "tray",
        "turn",
        "turn_seat",
    )

    def __init__(self, game: Game, *, blank: bool = False) -> None:
        self.game = game
        if blank:
            # `clone` fills in every field itself. (A compiled build, tools/build-compiled, cannot
            # make an instance without running __init__, as `State.__new__(State)` did.)
            return
        n = game.map.n
        self.ply = 0  # decisions applied since the start of the game
        self.round = 1
        self.first_seat = 0
        self.turn_seat = 0
        self.acting_seat = 0
        self.phase = Ph.PICK
        self.seats = [Seat() for _ in range(game.players)]
        self.race: list[str | None] = [None] * n
        self.tokens = [0] * n
        self.pieces: list[dict[str, int] | None] = [None] * n
        # Tags of tagged pieces: region -> kind -> one JSON value per piece (a bomb's order and kind).
        self.tags: dict[int, dict[str, list[Any]]] = {}
        self.defense = [0] * n
        self.immune = 0
        self.race_mask: dict[str, int] = {}
        self.tray: dict[str, int] = dict(game.tray_size)
        self.row: list[list[Any]] = []  # [race, power, coins] per visible combo, position 0 first
        self.race_stack: list[str] = []
        self.power_stack: list[str] = []
        self.power_discard: list[str] = []
        # A variant's own offer (the team variant's faction and power columns); None otherwise.
        self.offer: dict[str, list[str]] | None = None
        self.supply = {p.id: p.supply for p in game.pieces.values()}
        self.turn = Turn()
        self.pending: list[dict[str, Any]] = []  # decisions that units asked for (prompts)
        self.rng = Rng(0)
        self.rolls: list[int] = []  # scripted die results, used before the generator (tests)
        self.result: dict[str, Any] | None = None
        # What the last action set off (die rolls, scores, ...), for clients: cleared by each apply.
        self._events: list[dict[str, Any]] = []
        # Events recorded but not yet in their JSON form (kind, fields): `events` converts them when
        # read, so search and simulation, which never read them, do not pay for the conversion.
        self._raw_events: list[tuple[str, dict[str, Any]]] = []
        # Artifact / Legendary Place markers by region: a list of [relic id, face up] (§10.1), as
        # an Artifact may join a region that already holds a marker; the markers not drawn at setup
        # stay unseen (the Well of Eternity's fallback draws from them).
        self.markers: dict[int, list[list[Any]]] = {}
        self.spare_markers: list[str] = []
        # The face-up markers, (region, unit) by region then as they lie there, with the `markers`
        # dict they were read from: `face_up` works them out again when that dict was replaced, and
        # `reveal` and `move_marker` forget them (engine/model/derived.py).
        self._up: tuple[dict[int, list[list[Any]]], tuple[tuple[int, Unit], ...]] | None = None
        # The conquest context of the last listing, (ply, seat, Attack): applying one of the listed
        # conquests at once reuses it (`flow._declare`, engine/model/derived.py). Never copied or saved.
        self.memo: tuple[int, int, Any] | None = None

    # --- queries -------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.phase == Ph.OVER

    def occupied_mask(self, race: str | None) -> int:
        return self.race_mask.get(race, 0) if race else 0

    def in_conquest_step(self, seat: int) -> bool:
        """Whether it is `seat`'s conquest step with its Active race and its conquests are not over
        (§6.5-§6.11): when the Active race's unit actions of the conquest step may be taken."""
        return (
            self.phase == Ph.CONQUER and seat == self.turn_seat and not self.turn.done and not self.turn.race
        )

    def is_nonempty(self, region: int) -> bool:
        return self.race[region] is not None

    def owner_seat(self, race: str | None) -> int | None:
        """The seat whose Active or In-Decline race this is (None for the natives and nobody)."""
        if race is None:
            return None
        for i, s in enumerate(self.seats):
            if s.active == race or s.declined == race:
                return i
            if s.more_declined and any(r == race for r, _p in s.more_declined):
                return i
        return None

    def is_active_race(self, race: str | None) -> bool:
        return race is not None and any(s.active == race for s in self.seats)

    def units(self, seat: int) -> list[Unit]:
        """The units whose *own* hooks apply to this seat now (Active race and power, the
        In-Decline races and powers where they work In Decline, then the face-up markers of the
        seat's Active race's regions and those that work everywhere, by region)."""
        s = self.seats[seat]
        out = list(self.table(s).units)
        if self.markers:
            out.extend(marker_units(self.face_up(), self.race, s.active, None))
        return out

    def table(self, s: Seat) -> UnitsHooked:
        """The hook table of the seat's races and powers (`derived.Tables.seat_table` of its
        `seat_key`): the one the seat keeps (`Seat.hooked`) while it holds, else looked up and kept."""
        c = s.hooked
        tables = self.game.tables
        if (
            c is not None
            and c.active is s.active
            and c.power is s.power
            and c.declined is s.declined
            and c.declined_power is s.declined_power
            and c.tables is tables
            and not s.more_declined
        ):
            return c.table
        table = tables.seat_table(seat_key(s))
        s.hooked = SeatTable(s, tables, table)
        return table

    def seat_hooks(self, seat: int) -> UnitsHooked:
        """The hook table of `units(seat)`: what `conquest.Attack` reads (the hot path: the table of
        the seat's races and powers, unless a face-up marker applies to the seat)."""
        s = self.seats[seat]
        table = self.table(s)
        if self.markers:
            extra = marker_units(self.face_up(), self.race, s.active, None)
            if extra:
                return self.game.tables.units_hooked((*table.units, *extra))
        return table

    def face_up(self) -> tuple[tuple[int, Unit], ...]:
        """The face-up markers as (region, unit), by region then as they lie there. Code that
        changes a marker in place other than by `reveal` and `move_marker` must call `derived.forget`."""
        up = self._up
        if up is not None and up[0] is self.markers:
            return up[1]
        found = face_up(self.markers, self.game.units)
        self._up = (self.markers, found)
        return found

    def hook_units(self, seat: int, hook: str) -> list[Unit]:
        """`units(seat)` that implement `hook`, in the same order (the hot path: no unit is asked
        whether it overrides the hook, and the seat's own table's list is handed out as it is
        unless a marker adds a unit). Callers must not change the list."""
        base = self.table(self.seats[seat]).lists[hook]
        if not self.markers:
            return base
        ids = self.game.marker_hooked.get(hook)
        if not ids:
            return base  # no marker implements the hook: the markers need not be looked at
        # Most often no face-up marker implements the hook, or none of those that do is the seat's.
        extra = marker_units(self.face_up(), self.race, self.seats[seat].active, ids)
        return base + extra if extra else base

    def marker_units(self, seat: int, ids: frozenset[str] | None = None) -> list[Unit]:
        """The units of the face-up markers that apply to the seat, by region (the same order
        after a JSON round trip); only those whose id is in `ids` unless it is None."""
        return marker_units(self.face_up(), self.race, self.seats[seat].active, ids)

    def seat_data(self, seat: int, uid: str) -> dict[str, Any]:
        """The unit's own data for this seat (created empty on first use)."""
        ext = self.seats[seat].ext
        mine = ext.get(uid)
        if mine is None:
            mine = ext[uid] = {}
        return mine

    def turn_data(self, uid: str) -> dict[str, Any]:
        """The unit's own data for the current turn (created empty on first use; cleared each turn)."""
        data = self.turn.data
        mine = data.get(uid)
        if mine is None:
            mine = data[uid] = {}
        return mine

    def return_banner(self, race: str) -> None:
        """A race leaves play: the variant decides where its banner goes (§6.17, §11.3)."""
        self.game.variant.return_banner(self, race)

    def discard_badge(self, power: str) -> None:
        """A badge is discarded: the variant decides where it goes (§6.3, option `discarded_badges`)."""
        self.game.variant.discard_badge(self, power)

    def marker_owner(self, region: int) -> int | None:
        """The seat whose Active race occupies the region of a face-up marker (AMB-19)."""
        if not any(up for _rid, up in self.markers.get(region, ())):
            return None
        race = self.race[region]
        for i, s in enumerate(self.seats):
            if s.active is not None and s.active == race:
                return i
        return None

    def reveal(self, region: int, seat: int) -> None:
        """A race entered a region with a face-down marker: it turns face up for good (§10.1)."""
        for m in list(self.markers.get(region, ())):  # a copy: `on_reveal` may move the marker
            if not m[1]:
                m[1] = True
                self._up = None
                self.event("reveal", seat=seat, region=region, relic=m[0])
                unit = self.game.units[m[0]]
                if self.game.overrides(unit, "on_reveal"):
                    unit.on_reveal(self, seat, region)

    def marker_region(self, relic: str) -> int | None:
        """The region holding the marker `relic`, or None when it is not on the boards."""
        for r, here in self.markers.items():
            for m in here:
                if m[0] == relic:
                    return r
        return None

    def move_marker(self, relic: str, region: int | None, face_up: bool | None = None) -> None:
        """Put the marker `relic` in `region` (None: out of the game), from wherever it lies or from
        the box; `face_up` None keeps its side (a new marker comes face up)."""
        self._up = None
        up = True if face_up is None else face_up
        for r, here in list(self.markers.items()):
            for m in here:
                if m[0] == relic:
                    up = m[1] if face_up is None else face_up
                    here.remove(m)
                    if not here:
                        del self.markers[r]
                    break
        if region is not None:
            self.markers.setdefault(region, []).append([relic, up])

    def hands(self, seat: int) -> list[tuple[str, int]]:
        """The race tokens the seat holds in hand, by race: its Active race's, and during the seat's
        In-Decline phase that race's (the Active race's are then set aside in `Turn.stash`)."""
        s = self.seats[seat]
        if self.turn.race is not None and seat == self.turn_seat:
            out = [(self.turn.race, s.hand)]
            if s.active:
                out.append((s.active, self.turn.stash))
            return out
        return [(s.active, s.hand)] if s.active else []

    def min_per_region(self, race: str | None) -> int:
        unit = self.game.units.get(race) if race else None
        return unit.min_per_region if unit is not None else 1

    def race_tokens_on_board(self, seat: int) -> int:
        s = self.seats[seat]
        total = 0
        for race in (s.active, *s.declined_races()):
            for r in bits(self.occupied_mask(race)):
                total += self.tokens[r]
        return total

    # --- changes used by the engine and by units ------------------------------------------
    def set_region(self, region: int, race: str | None, tokens: int) -> None:
        old = self.race[region]
        if old is not None and old != race:
            m = self.race_mask[old] & ~(1 << region)
            if m:
                self.race_mask[old] = m
            else:
                del self.race_mask[old]
        self.race[region] = race
        self.tokens[region] = tokens
        if race is not None:
            self.race_mask[race] = self.race_mask.get(race, 0) | (1 << region)

    def gain(self, seat: int, coins: int, why: str) -> None:
        """`seat` receives `coins` by the rule of the unit `why` (a `gain` event tells it)."""
        self.seats[seat].coins += coins
        self.event("gain", seat=seat, coins=coins, why=why)

    def pay(self, payer: int, payee: int | None, coins: int) -> int:
        """Move up to `coins` from `payer` to `payee` (None = the stash); returns what was paid."""
        paid = min(coins, self.seats[payer].coins)
        self.seats[payer].coins -= paid
        if payee is not None:
            self.seats[payee].coins += paid
        return paid

    @property
    def events(self) -> list[dict[str, Any]]:
        """What the last action set off, for clients: each event in its JSON form (`event`)."""
        raw = self._raw_events
        if raw:
            game = self.game
            self._events.extend(event_json(game, kind, data) for kind, data in raw)
            self._raw_events = []
        return self._events

    @events.setter
    def events(self, value: list[dict[str, Any]]) -> None:
        self._events = value
        self._raw_events = []

    def event(self, kind: str, **data: Any) -> None:
        """Record what an action set off, for clients (`events` lists the last action's); `kind`
        is a declared event type, and its region fields are kept as "SIDE:ID". The fields are
        put in that form when `events` is read: values must not be changed after the call."""
        if kind not in self.game.event_specs:
            raise KeyError(f"event type {kind!r} is declared by no unit")
        self._raw_events.append((kind, data))

    def push_prompt(self, unit: str, seat: int, prompt: str, **fields: Any) -> None:
        """Ask `seat` a decision on behalf of a unit: `prompt` is one of the unit's declared
        prompts, `fields` its declared fields (regions kept as "SIDE:ID"). The unit's
        `prompt_actions` list the answers and `apply_prompt` applies one."""
        spec = self.game.prompt_specs[(unit, prompt)]
        entry: dict[str, Any] = {
            "unit": unit,
            "prompt": prompt,
            "seat": seat,
            "resume_seat": self.acting_seat,
        }
        m = self.game.map
        for f in spec.fields:
            if f.name in fields:
                v = fields[f.name]
                entry[f.name] = m.ref(v) if f.type == FieldType.REGION and isinstance(v, int) else v
        unknown = sorted(set(fields) - {f.name for f in spec.fields})
        if unknown:
            raise KeyError(f"prompt {unit}.{prompt} declares no field {unknown[0]!r}")
        if spec.public:
            entry["public"] = True
        self.pending.append(entry)
        if len(self.pending) == 1:
            self.acting_seat = seat

    def pop_prompt(self) -> dict[str, Any]:
        prompt = self.pending.pop(0)
        self.acting_seat = self.pending[0]["seat"] if self.pending else prompt["resume_seat"]
        return prompt

    def roll_die(self) -> int:
        if self.rolls:
            return self.rolls.pop(0)
        faces = self.game.options.die_faces
        return int(faces[self.rng.randbelow(len(faces))])

    # --- pieces ------------------------------------------------------------------------------
    def add_piece(self, region: int, kind: str, count: int = 1, tags: list[Any] | None = None) -> int:
        """Put up to `count` pieces from the supply into `region`; returns how many were placed.
        A tagged piece kind needs one tag per piece (`tags`)."""
        n = min(count, self.supply.get(kind, 0))
        if n <= 0:
            return 0
        self.supply[kind] -= n
        p = self.pieces[region]
        if p is None:
            p = self.pieces[region] = {}
        p[kind] = p.get(kind, 0) + n
        if tags is not None:
            here = self.tags.setdefault(region, {})
            here[kind] = [*here.get(kind, []), *tags[:n]]
        self._refresh_pieces(region)
        return n

    def remove_piece(self, region: int, kind: str, count: int | None = None) -> int:
        p = self.pieces[region]
        if not p or kind not in p:
            return 0
        n = p[kind] if count is None else min(count, p[kind])
        p[kind] -= n
        if not p[kind]:
            del p[kind]
        if not p:
            self.pieces[region] = None
        self.supply[kind] = self.supply.get(kind, 0) + n
        self.take_tags(region, kind, n)
        self._refresh_pieces(region)
        return n

    def piece_tags(self, region: int, kind: str) -> list[Any]:
        return list(self.tags.get(region, {}).get(kind, ()))

    def take_tags(self, region: int, kind: str, n: int | None = None) -> list[Any]:
        """Remove and return the tags of `n` pieces of `kind` in `region` (all when None)."""
        here = self.tags.get(region)
        if not here or kind not in here:
            return []
        tags = here[kind]
        k = len(tags) if n is None else min(n, len(tags))
        taken, rest = tags[:k], tags[k:]
        if rest:
            here[kind] = rest
        else:
            del here[kind]
            if not here:
                del self.tags[region]
        return taken

    def _refresh_pieces(self, region: int) -> None:
        p = self.pieces[region]
        kinds = self.game.pieces
        d, imm = 0, False
        if p:
            for k, n in p.items():
                piece = kinds.get(k)
                if piece is not None:
                    d += piece.defense * n
                    imm = imm or piece.immune
        self.defense[region] = d
        if imm:
            self.immune |= 1 << region
        else:
            self.immune &= ~(1 << region)

    def troops_in(self, region: int) -> dict[str, int]:
        """The troop pieces in a region (they belong to the race that occupies it)."""
        p = self.pieces[region]
        if not p:
            return {}
        kinds = self.game.pieces
        return {k: n for k, n in sorted(p.items()) if k in kinds and kinds[k].troop}

    def lift_piece(self, region: int, seat: int, kind: str, count: int) -> None:
        """Take troop pieces from a region into the seat's hand (no change to the box's supply)."""
        p = self.pieces[region]
        assert p is not None and p.get(kind, 0) >= count
        p[kind] -= count
        if not p[kind]:
            del p[kind]
        if not p:
            self.pieces[region] = None
        held = self.seats[seat].held
        held[kind] = held.get(kind, 0) + count
        self._refresh_pieces(region)

    def place_held(self, region: int, seat: int, kind: str, count: int) -> None:
        """Put troop pieces from the seat's hand into a region."""
        held = self.seats[seat].held
        assert held.get(kind, 0) >= count
        held[kind] -= count
        if not held[kind]:
            del held[kind]
        p = self.pieces[region]
        if p is None:
            p = self.pieces[region] = {}
        p[kind] = p.get(kind, 0) + count
        self._refresh_pieces(region)

    def discard_held(self, seat: int, kind: str, count: int = 1) -> int:
        """Return troop pieces from hand to the box (a Beast lost, the Champion removed)."""
        held = self.seats[seat].held
        n = min(count, held.get(kind, 0))
        if n:
            held[kind] -= n
            if not held[kind]:
                del held[kind]
            self.supply[kind] = self.supply.get(kind, 0) + n
        return n

    def clear_pieces(self, region: int, flag: str) -> None:
        """Remove every piece of a kind that has `flag` set (e.g. "removed_on_conquest")."""
        p = self.pieces[region]
        if not p:
            return
        for k in sorted(p):
            piece = self.game.pieces.get(k)
            if piece is not None and getattr(piece, flag):
                self.remove_piece(region, k)

    def swap_regions(self, a: int, b: int) -> None:
        """Exchange everything two regions hold: race and tokens, pieces with their tags (Portal)."""
        ra, ta, rb, tb = self.race[a], self.tokens[a], self.race[b], self.tokens[b]
        self.set_region(a, rb, tb)
        self.set_region(b, ra, ta)
        self.pieces[a], self.pieces[b] = self.pieces[b], self.pieces[a]
        ga, gb = self.tags.pop(a, None), self.tags.pop(b, None)
        if gb:
            self.tags[a] = gb
        if ga:
            self.tags[b] = ga
        self._refresh_pieces(a)
        self._refresh_pieces(b)

    # --- copying and JSON --------------------------------------------------------------------
    def clone(self) -> State:
        c = State(self.game, blank=True)
        c.ply = self.ply
        c.round, c.first_seat, c.turn_seat = self.round, self.first_seat, self.turn_seat
        c.acting_seat, c.phase = self.acting_seat, self.phase
        c.seats = [s.copy() for s in self.seats]
        c.race = self.race[:]
        c.tokens = self.tokens[:]
        c.pieces = [dict(p) if p else None for p in self.pieces]
        c.tags = {r: {k: jcopy(v) for k, v in here.items()} for r, here in self.tags.items()}
        c.defense = self.defense[:]
        c.immune = self.immune
        c.race_mask = dict(self.race_mask)
        c.tray = dict(self.tray)
        c.row = [r[:] for r in self.row]
        c.race_stack = self.race_stack[:]
        c.power_stack = self.power_stack[:]
        c.power_discard = self.power_discard[:]
        c.offer = {k: v[:] for k, v in self.offer.items()} if self.offer is not None else None
        c.supply = dict(self.supply)
        c.turn = self.turn.copy()
        c.pending = jcopy(self.pending)
        c.rng = self.rng.copy()
        c.rolls = self.rolls[:]
        c.result = jcopy(self.result)
        c.markers = {r: [m[:] for m in here] for r, here in self.markers.items()}
        up = self._up
        c._up = (c.markers, up[1]) if up is not None and up[0] is self.markers else None
        c._events = jcopy(self._events)
        c._raw_events = self._raw_events[:]  # each (kind, fields) is never changed once recorded
        c.spare_markers = self.spare_markers[:]
        c.memo = None
        return c

    # The decision interface and the JSON form live in the layers above (`flow`, `serialize`); the
    # game reaches them, so a state needs nothing but its game.
    def to_json(self) -> dict[str, Any]:
        return self.game.state_to_json(self)

    def legal_actions(self, kinds: Any = None, regions: Any = None) -> list[Action]:
        """Every legal decision of the seat to act, in the canonical order; `kinds` and `regions`
        (collections) keep only the actions of those kinds and on those regions."""
        return self.game.legal_actions(self, kinds, regions)

    def apply(self, action: Any, seat: int | None = None) -> None:
        """Apply an action of `seat` (when given, it must be the seat to act); anything else raises
        the engine's own error and changes nothing."""
        self.game.apply(self, action, seat)

    def explain(self, region: int, seat: int | None = None) -> dict[str, Any]:
        """The conquest of `region` now, as data: each way to attack it with its cost term by term
        and the unit each term comes from, or the reasons it cannot be attacked (`engine/api/explain.py`)."""
        return self.game.explain(self, region, seat)

    def is_legal(self, action: Any) -> bool:
        """Whether `action` is an action of this game and one of `legal_actions()` (worked out for
        that action alone; a whole `plan` is never listed: `apply` tries it step by step)."""
        return self.game.is_legal(self, action)
