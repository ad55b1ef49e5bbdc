"""The JSON shape of a state, declared once: every field of the state's JSON, of a seat, a region,
a combo of the row, a marker and the turn, with its JSON type, whether it may be null, when the
writer leaves it out and how the writer gets it from the state.

From this one table come the writer (`write_state`: each shape's writer is generated from its fields
and compiled once, so it runs as fast as a hand-written one), the shape checks of the loader
(`check_object`: unknown keys, each field's JSON type and nulls; the loader's domain checks of ids,
counts and invariants stay in `serialize`), and the JSON Schemas of a state, of a view and of the
`position` of a position file (`schema.state_schema`, `schemas(...)["view"]`, `schema.position_defs`).
Adding a field to the state's JSON is one line here, plus how the loader reads its value.

Values whose shape another declaration owns (a unit's seat and turn data, prompts, events, piece
tags, the result, the team variant's offer) are `Declared`: the shape says only that they are an
object or a list, and their own declarations check the rest (`protocol.check_fields`,
`Unit.seat_fields`, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from smallworld.engine.model.errors import PositionError
from smallworld.engine.model.state import Phase, State, jcopy


@dataclass(frozen=True)
class Scalar:
    """An integer, a boolean or a string. `ids` names the ids it is drawn from (a definition of the
    protocol's schemas: seat, race, power, occupant, relic, unit_id, piece)."""

    json: str  # "integer" | "boolean" | "string"
    ids: str | None = None
    lo: int | None = None  # an integer's least value
    hi_seat: bool = False  # an integer that is at most the last seat
    enum: tuple[str, ...] = ()
    pattern: str | None = None


@dataclass(frozen=True)
class ListOf:
    item: Type
    per_seat: bool = False  # one item per seat
    min_items: int = 0
    lone: bool = False  # a position may give a single item for a list of one


@dataclass(frozen=True)
class TableOf:
    """An object keyed by the ids of `key` (a definition, as `Scalar.ids`, or "region")."""

    key: str
    value: Type


@dataclass(frozen=True)
class Obj:
    shape: Shape


@dataclass(frozen=True)
class Declared:
    """A value whose shape is declared elsewhere (`name` says where, for the schemas): only its JSON
    type ("object" or "array") is this table's."""

    name: str
    json: str


Type = Scalar | ListOf | TableOf | Obj | Declared


@dataclass(frozen=True)
class StateField:
    """A field of an object of the state's JSON. `get` is the writer: a Python expression over the
    shape's parameters, compiled once with the other fields'. `when` (an expression too) leaves the key
    out where it is false. `required`: a position that gives the object must give the field, as its
    schema says (the loader names it where it is missing); any other field of a position may be left
    out, and the loader keeps the base state's value."""

    name: str
    type: Type
    get: str
    doc: str = ""
    nullable: bool = False
    when: str | None = None
    required: bool = False


@dataclass(frozen=True)
class Shape:
    """An object of the state's JSON: its fields in the writer's order. `args` are the parameters of
    its writer `write_<name>`, `setup` statements it runs first."""

    name: str
    args: str
    fields: tuple[StateField, ...]
    doc: str = ""
    setup: tuple[str, ...] = ()
    by_name: dict[str, StateField] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_name", {f.name: f for f in self.fields})


F = StateField
COUNT = Scalar("integer", lo=0)
INT = Scalar("integer")
BOOL = Scalar("boolean")
SEAT_NO = Scalar("integer", ids="seat")
RACE = Scalar("string", ids="race")
POWER = Scalar("string", ids="power")
RELIC = Scalar("string", ids="relic")
UNIT_ID = Scalar("string", ids="unit_id")

MARKER = Shape(
    "marker",
    "mk",
    (
        F("id", RELIC, "mk[0]", "the Artifact or Legendary Place", required=True),
        F("face_up", BOOL, "mk[1]", "turned face up (§10.1); left out of a position: face down"),
    ),
    "a marker on the boards",
)
COMBO = Shape(
    "combo",
    "c",
    (
        F("race", RACE, "c[0]", required=True),
        F("power", POWER, "c[1]", required=True),
        F("coins", COUNT, "c[2]", "coins lying on the combo"),
    ),
    "a combo of the row",
)
DECLINED = Shape(
    "declined",
    "x",
    (F("race", RACE, "x[0]", required=True), F("power", POWER, "x[1]", nullable=True)),
    "a further In-Decline race and its power",
)
SEAT = Shape(
    "seat",
    "s",
    (
        F("coins", COUNT, "s.coins", "coins"),
        F("active", RACE, "s.active", "the Active race", nullable=True),
        F("power", POWER, "s.power", "the Active race's power", nullable=True),
        F("declined", RACE, "s.declined", "the In-Decline race", nullable=True),
        F("declined_power", POWER, "s.declined_power", "the In-Decline race's power", nullable=True),
        F(
            "more_declined",
            ListOf(Obj(DECLINED)),
            "[write_declined(x) for x in s.more_declined]",
            "further In-Decline races (a unit with a decline slot of its own; none in Warcraft)",
        ),
        F("hand", COUNT, "s.hand", "Active-race tokens in hand"),
        F("held", TableOf("piece", COUNT), "dict(sorted(s.held.items()))", "troop pieces in hand"),
        F(
            "ext",
            Declared("seat_data", "object"),
            "jcopy(s.ext)",
            "each unit's data for this seat, under its id (`Unit.seat_fields`)",
        ),
    ),
    "a seat",
)
REGION = Shape(
    "region",
    "st, r",
    (
        F("race", Scalar("string", ids="occupant"), "st.race[r]", "the race that holds it", nullable=True),
        F("tokens", COUNT, "st.tokens[r]", "its race tokens"),
        F(
            "pieces",
            TableOf("piece", Scalar("integer", lo=1)),
            "dict(sorted(st.pieces[r].items()))",
            "its pieces, by kind",
            when="st.pieces[r]",
        ),
        F(
            "tags",
            Declared("tags", "object"),
            "{k: jcopy(v) for k, v in sorted(st.tags[r].items())}",
            "one tag per tagged piece, by kind (`Piece.tag_fields`)",
            when="st.tags.get(r)",
        ),
    ),
    "a region that holds a race or pieces",
)
TURN = Shape(
    "turn",
    "t",
    (
        F("conquests", COUNT, "t.conquests", "successful conquests this turn"),
        F("done", BOOL, "t.done", "the conquests are over"),
        F("took", TableOf("race", COUNT), "dict(sorted(t.took.items()))", "regions conquered from each race"),
        F("withdrawn", ListOf(SEAT_NO), "list(t.withdrawn)", "seats that withdrew tokens this turn (§6.9)"),
        F("die", INT, "t.die", "the last reinforcement die of the turn", nullable=True),
        F(
            "scored",
            Declared("items", "object"),
            "dict(t.scored) if t.scored is not None else None",
            "the end-of-turn score, by item",
            nullable=True,
        ),
        F(
            "resume",
            Declared("resume", "object"),
            "jcopy(t.resume)",
            "a conquest whose last steps wait for a prompt (§6.8)",
            nullable=True,
        ),
        F("race", RACE, "t.race", "the In-Decline race playing a phase of its own", nullable=True),
        F("stash", COUNT, "t.stash", "Active-race tokens in hand set aside meanwhile"),
        F("risen", BOOL, "t.risen", "that phase was played this turn"),
        F(
            "data",
            Declared("turn_data", "object"),
            "jcopy(t.data)",
            "each unit's data for this turn, under its id (`Unit.turn_fields`)",
        ),
        F("ended", ListOf(UNIT_ID), "list(t.ended)", "units whose end-of-turn step (§6.13) has run"),
    ),
    "what happened so far in the turn",
)
STATE = Shape(
    "state",
    "st",
    (
        F("ply", COUNT, "st.ply", "decisions applied since the start of the game"),
        F("round", Scalar("integer", lo=1), "st.round", "the game turn"),
        F("first_seat", SEAT_NO, "st.first_seat", "the seat that plays first"),
        F("turn_seat", SEAT_NO, "st.turn_seat", "whose turn it is"),
        F(
            "acting_seat",
            Scalar("integer", lo=-1, hi_seat=True),
            "st.acting_seat",
            "the seat to act; -1 once the game is over",
        ),
        F("phase", Scalar("string", enum=tuple(p.value for p in Phase)), "str(st.phase)", "the step"),
        F("seats", ListOf(Obj(SEAT), per_seat=True), "[write_seat(s) for s in st.seats]", "the seats"),
        F(
            "regions",
            TableOf("region", Obj(REGION)),
            "{m.ref(r): write_region(st, r) for r in range(m.n) if st.race[r] is not None or st.pieces[r]}",
            "the regions that hold a race or pieces",
        ),
        F("tray", TableOf("occupant", COUNT), "dict(sorted(st.tray.items()))", "race tokens in each tray"),
        F(
            "row",
            ListOf(Obj(COMBO)),
            "[write_combo(c) for c in st.row]",
            "the combos on offer, position 0 first (empty in the team variant)",
        ),
        F("race_stack", ListOf(RACE), "list(st.race_stack)", "the banners stacked, top first"),
        F("power_stack", ListOf(POWER), "list(st.power_stack)", "the badges stacked, top first"),
        F("power_discard", ListOf(POWER), "list(st.power_discard)", "the badges discarded"),
        F("supply", TableOf("piece", COUNT), "dict(sorted(st.supply.items()))", "pieces left in the box"),
        F(
            "markers",
            TableOf("region", ListOf(Obj(MARKER), min_items=1, lone=True)),
            "{m.ref(r): [write_marker(mk) for mk in here] for r, here in sorted(st.markers.items())}",
            "Artifact and Legendary Place markers by region (§10.1)",
        ),
        F("spare_markers", ListOf(RELIC), "list(st.spare_markers)", "markers left out of the game (§3.2)"),
        F("turn", Obj(TURN), "write_turn(st.turn)", "the turn so far"),
        F("pending", Declared("prompts", "array"), "jcopy(st.pending)", "prompts waiting for an answer"),
        F(
            "rng",
            Scalar("string", pattern="^[0-9a-fA-F]{1,16}$"),
            "format(st.rng.state, '016x')",
            "the state of the seeded generator, in hexadecimal",
        ),
        F("rolls", ListOf(COUNT), "list(st.rolls)", "die results used before the generator, first first"),
        F("result", Declared("result", "object"), "jcopy(st.result)", "the final result", nullable=True),
        F("events", Declared("events", "array"), "jcopy(st.events)", "what the last action set off"),
        F(
            "offer",
            Declared("offer", "object"),
            "{k: list(v) for k, v in st.offer.items()}",
            "a variant's own offer (the team variant's columns, top first); absent in the standard game",
            when="st.offer is not None",
        ),
    ),
    "a state",
    setup=("m = st.game.map",),
)
SHAPES: tuple[Shape, ...] = (MARKER, COMBO, DECLINED, SEAT, REGION, TURN, STATE)


# --- the writer ---------------------------------------------------------------------------------------
def _leading(shape: Shape) -> int:
    """How many fields come before the first one with a `when`."""
    n = 0
    while n < len(shape.fields) and shape.fields[n].when is None:
        n += 1
    return n


def _literal(shape: Shape, n: int, inline: dict[str, str]) -> str:
    return "{" + ", ".join(f"{f.name!r}: {_get(f, inline)}" for f in shape.fields[:n]) + "}"


def _get(f: StateField, inline: dict[str, str]) -> str:
    text = f.get
    for call, expr in inline.items():
        text = text.replace(call, expr)
    return text


def inline_form(shape: Shape, inline: dict[str, str]) -> str | None:
    """`write_<shape>(args)` as an expression for its callers, where it can be one: the literal of
    its fields, or, where some have a `when`, the literal unless one of them is true (then the call).
    A call per region or combo costs about a twentieth of the whole writer."""
    n = _leading(shape)
    if shape.setup or any(f.when is None for f in shape.fields[n:]):
        return None
    literal = _literal(shape, n, inline)
    if n == len(shape.fields):
        return literal
    some = " or ".join(f"({f.when})" for f in shape.fields[n:])
    return f"(write_{shape.name}({shape.args}) if {some} else {literal})"


def writer_source(shape: Shape, inline: dict[str, str] | None = None) -> str:
    """The source of `write_<shape>`: the fields' `get` in order, each `when` an `if`; the calls of
    the writers in `inline` (a call's text, as its caller writes it) replaced by their expressions."""
    inline = inline or {}
    lines = [f"def write_{shape.name}({shape.args}):", *(f"    {s}" for s in shape.setup)]
    n = _leading(shape)
    if n == len(shape.fields):
        return "\n".join([*lines, f"    return {_literal(shape, n, inline)}"]) + "\n"
    lines.append(f"    out = {_literal(shape, n, inline)}")
    for f in shape.fields[n:]:
        if f.when is None:
            lines.append(f"    out[{f.name!r}] = {_get(f, inline)}")
        else:
            lines += [f"    if {f.when}:", f"        out[{f.name!r}] = {_get(f, inline)}"]
    return "\n".join([*lines, "    return out"]) + "\n"


def _compile() -> dict[str, Any]:
    space: dict[str, Any] = {"jcopy": jcopy}
    inline: dict[str, str] = {}
    for shape in SHAPES:  # nested shapes first: each writer calls (or inlines) the ones before it
        exec(compile(writer_source(shape, inline), f"<shape {shape.name}>", "exec"), space)
        form = inline_form(shape, inline)
        if form is not None:
            inline[f"write_{shape.name}({shape.args})"] = form
    return space


_WRITERS = _compile()
write_state: Callable[[State], dict[str, Any]] = _WRITERS["write_state"]


# --- the loader's shape checks ----------------------------------------------------------------------
def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


_PY: dict[str, type] = {"boolean": bool, "string": str}


def json_kind(t: Type) -> str:
    """The JSON type of a value of `t`: integer, boolean, string, object or array."""
    if isinstance(t, Scalar):
        return t.json
    if isinstance(t, ListOf):
        return "array"
    if isinstance(t, Declared):
        return t.json
    return "object"


_IDS = {
    "seat": "a seat number",
    "race": "a race id",
    "occupant": "a race id",
    "power": "a power id",
    "relic": "a marker id",
    "unit_id": "a unit id",
    "piece": "a piece kind",
}


def words(t: Type) -> str:
    """What a value of `t` must be, in words (the ranges and ids of this game are the loader's)."""
    if isinstance(t, Scalar):
        if t.ids is not None:
            return _IDS[t.ids]
        if t.enum:
            return f"one of {list(t.enum)}"
        if t.json == "integer":
            return "an integer" + ("" if t.lo is None else f" >= {t.lo}")
        return "true or false" if t.json == "boolean" else "a string"
    if isinstance(t, ListOf):
        item = t.item
        if isinstance(item, Scalar) and item.ids is not None:
            return f"a list of {_IDS[item.ids].split(' ', 1)[1]}s"
        return "a list"
    return "a list" if json_kind(t) == "array" else "an object"


def fits(t: Type, value: Any) -> bool:
    """`value` has the JSON type of `t` (not looking inside a list or an object)."""
    kind = json_kind(t)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    return isinstance(value, _PY[kind])


def check_object(shape: Shape, data: Any, where: str) -> dict[str, Any]:
    """`data` as an object of `shape`: every key declared and each value of its field's JSON type (or
    null where the field may be). What lies inside a value is the loader's to check."""
    if not isinstance(data, dict):
        raise PositionError(where, f"must be an object, got {_short(data)}")
    known = shape.by_name
    for key, value in data.items():
        f = known.get(key)
        if f is None:
            raise PositionError(f"{where}.{key}", f"unknown field; known: {sorted(known)}")
        if value is None and f.nullable:
            continue
        if not fits(f.type, value):
            what = words(f.type) + (" or null" if f.nullable else "")
            raise PositionError(f"{where}.{key}", f"must be {what}, got {_short(value)}")
    return data
