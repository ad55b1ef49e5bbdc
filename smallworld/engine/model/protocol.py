"""The protocol, declared once: every action kind, event type and prompt, with its fields.

The engine declares its own (`CORE_ACTIONS`, `CORE_EVENTS`); each unit declares the ones it adds
(`Unit.action_specs`, `event_specs`, `prompt_specs`), and an edition collects them all. From these
declarations come the checks of incoming actions, the JSON form of actions and events (regions
always as "SIDE:ID" references), the per-seat redaction of events, the JSON Schemas
(`engine/api/schema.py`), the RL action encoding and the words of every client.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from smallworld.engine.model.actions import (
    ABANDON,
    CONQUER,
    DECLINE,
    DEPLOY,
    END,
    EXPAND,
    FINAL,
    PASS,
    PICK,
    PLAN,
    READY,
    RISE,
    SKIP,
    Action,
)


class Arg(StrEnum):
    """What an action's argument may be."""

    NONE = "none"  # no argument
    COUNT = "count"  # an integer 0..max (a row position, a number of tokens)
    CHOICE = "choice"  # one of `choices`
    REGION = "region"  # a second region
    OPTION = "option"  # a named conquest option, or several joined by "+" (`ethereals+frostmourne`)
    PIECE = "piece"  # a piece kind (`beast`, `fort`)
    RELIC = "relic"  # a marker id (`frostmourne`)
    PLAN = "plan"  # a whole plan: region -> tokens and troops (redeployment, withdrawn tokens)


@dataclass(frozen=True)
class ActionSpec:
    """One action kind: its name, whether it names a region, what its argument may be, the step
    it belongs to ("prompt" for the answers to a unit's prompt), and who declares it."""

    kind: str
    doc: str
    region: bool = False
    args: tuple[Arg, ...] = (Arg.NONE,)  # the argument types allowed; NONE among them = may be left out
    choices: tuple[str, ...] = ()
    most: int = 0  # Arg.COUNT: the largest value
    step: str = "conquer"
    unit: str = "core"
    conquest: bool = False  # a way of conquering: refused once conquests are over (§6.10)

    def takes(self, arg: Arg) -> bool:
        return arg in self.args


class FieldType(StrEnum):
    SEAT = "seat"  # a seat number
    REGION = "region"  # a region ("SIDE:ID" in JSON)
    REGIONS = "regions"  # a list of regions
    INT = "int"
    BOOL = "bool"
    TEXT = "text"  # a free string (a reason, a rule citation)
    UNIT = "unit"  # a race, power or marker id
    PIECE = "piece"  # a piece kind
    CHOICE = "choice"  # one of `choices`
    SEATS = "seats"  # a list of seats
    INTS = "ints"  # a list of integers
    CHOICES = "choices"  # a list of values from `choices`
    OBJECT = "object"  # any JSON object (checked by its owner)
    OBJECTS = "objects"  # a list of JSON objects
    ITEMS = "items"  # an object of named integers (score items)
    PIECES = "pieces"  # an object of piece kinds with their counts (troops that went somewhere)
    ROLLS = "rolls"  # a list of die results


@dataclass(frozen=True)
class Field:
    """A field of an event or a prompt. `nullable` fields may be null; `secret` fields are redacted
    for the seats that may not see them: "everyone" (until the game ends) or "others" (every seat
    but the event's `seat` and its allies, until the game ends)."""

    name: str
    type: FieldType
    doc: str
    nullable: bool = False
    optional: bool = False  # may be left out
    choices: tuple[str, ...] = ()
    secret: str | None = None


@dataclass(frozen=True)
class EventSpec:
    """One event type: what an action set off, for clients (`State.events`)."""

    type: str
    doc: str
    fields: tuple[Field, ...] = ()
    unit: str = "core"
    # Worked out once: every recorded event asks it (`event_json`, the hot path of applying).
    _regions: tuple[tuple[str, FieldType], ...] = field(init=False, repr=False, compare=False, default=())

    def __post_init__(self) -> None:
        kinds = (FieldType.REGION, FieldType.REGIONS)
        regions = tuple((f.name, f.type) for f in self.fields if f.type in kinds)
        object.__setattr__(self, "_regions", regions)


@dataclass(frozen=True)
class PromptSpec:
    """A decision a unit asks of a seat at an automatic moment, answered by `answers`."""

    id: str  # unique within its unit; the words' message id is "<unit>.prompt.<id>"
    doc: str
    answers: tuple[str, ...]
    fields: tuple[Field, ...] = ()
    rule: str = ""  # the section that asks the decision (an unanswered prompt cites it)
    unit: str = "core"
    public: bool = False  # every seat sees that it is pending (not only the seat that answers)


def seat_field(doc: str = "the seat this is about") -> Field:
    return Field("seat", FieldType.SEAT, doc)


def region_field(doc: str = "the region", name: str = "region") -> Field:
    return Field(name, FieldType.REGION, doc)


# --- the engine's own declarations ----------------------------------------------------------------

CORE_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        PICK,
        "take the combo at this position of the row (it costs the position in coins)",
        args=(Arg.COUNT,),
        most=5,
        step="pick",
    ),
    ActionSpec(RISE, "the In-Decline race that conquers In Decline plays its own phase first", step="rise"),
    ActionSpec(SKIP, "the In-Decline race does not play its phase this turn", step="rise"),
    ActionSpec(
        DECLINE,
        "go into decline instead of expanding (or, after scoring, with a race that may)",
        step="start",
    ),
    ActionSpec(
        EXPAND, "expand: ready the troops (tokens above each region's minimum go to hand)", step="start"
    ),
    ActionSpec(
        CONQUER,
        "conquer a region with tokens from hand, with an optional named option",
        region=True,
        args=(Arg.NONE, Arg.OPTION),
        conquest=True,
    ),
    ActionSpec(
        FINAL,
        "the final conquest attempt with the reinforcement die (1 to 3 tokens short)",
        region=True,
        args=(Arg.NONE, Arg.OPTION),
        conquest=True,
    ),
    ActionSpec(
        ABANDON, "abandon a region before the first conquest of the turn (its tokens to hand)", region=True
    ),
    ActionSpec(
        READY,
        "before the first conquest of the turn, take a troop piece that a region keeps (the Champion...) "
        "into hand, a race token from hand taking its place",
        region=True,
        args=(Arg.PIECE,),
    ),
    ActionSpec(END, "end the conquests of the turn"),
    ActionSpec(
        DEPLOY,
        "redeploy one token, every token in hand ('all'), or a troop piece into a region",
        region=True,
        args=(Arg.NONE, Arg.CHOICE, Arg.PIECE),
        choices=("all",),
        step="redeploy",
    ),
    ActionSpec(
        PLAN,
        "a whole redeployment or withdrawn-token placement: each region's final tokens and troops",
        args=(Arg.PLAN,),
        step="redeploy",
    ),
    ActionSpec(
        PASS,
        "end the turn: without the decline a race allows after scoring, or with no combo left to pick",
        step="after_score",
    ),
)

CORE_EVENTS: tuple[EventSpec, ...] = (
    EventSpec(
        "turn", "a turn begins", (seat_field("whose turn"), Field("round", FieldType.INT, "the game turn"))
    ),
    EventSpec(
        "pick",
        "a combo was picked",
        (
            seat_field(),
            Field("race", FieldType.UNIT, "the race"),
            Field("power", FieldType.UNIT, "the special power"),
            Field("cost", FieldType.INT, "coins paid for its position"),
            Field("coins", FieldType.INT, "coins collected from the combo"),
            Field("tokens", FieldType.INT, "race tokens taken from the tray"),
        ),
    ),
    EventSpec(
        "conquest",
        "a region was conquered",
        (
            seat_field("the conqueror"),
            region_field(),
            Field("race", FieldType.UNIT, "the conquering race"),
            Field("defender", FieldType.UNIT, "the race that held it (null: empty)", nullable=True),
            Field("defender_seat", FieldType.SEAT, "its seat (null: natives or nobody)", nullable=True),
            Field("tokens", FieldType.INT, "tokens placed"),
            Field("lost", FieldType.INT, "defending tokens discarded"),
            Field(
                "troops",
                FieldType.PIECES,
                "troop pieces that went in with the tokens, by kind (left out: none)",
                optional=True,
            ),
        ),
    ),
    EventSpec(
        "die",
        "the reinforcement die was rolled for a final conquest attempt",
        (
            seat_field(),
            region_field(),
            Field("roll", FieldType.INT, "the result"),
            Field("cost", FieldType.INT, "the conquest cost"),
            Field("tokens", FieldType.INT, "tokens in hand"),
            Field("success", FieldType.BOOL, "whether the conquest succeeded"),
        ),
    ),
    EventSpec("abandon", "a region was abandoned", (seat_field(), region_field())),
    EventSpec(
        "ready",
        "a troop piece a region kept was taken into hand and a race token from hand took its place",
        (seat_field(), region_field(), Field("piece", FieldType.PIECE, "the troop taken into hand")),
    ),
    EventSpec(
        "reveal",
        "a face-down marker was turned face up by a race entering its region (§10.1)",
        (seat_field("whose race entered"), region_field(), Field("relic", FieldType.UNIT, "the marker")),
    ),
    EventSpec(
        "decline",
        "a race went into decline",
        (
            seat_field(),
            Field("race", FieldType.UNIT, "the race"),
            Field("power", FieldType.UNIT, "its power"),
        ),
    ),
    EventSpec(
        "left_play",
        "a race left play and its banner went back to the offer",
        (
            Field("race", FieldType.UNIT, "the race"),
            Field("seat", FieldType.SEAT, "its owner", nullable=True),
        ),
    ),
    EventSpec(
        "payment",
        "coins paid before an attack or an effect, for a unit's purchase, or as a ransom",
        (
            seat_field("the payer"),
            Field("payee", FieldType.SEAT, "who received them (null: the stash)", nullable=True),
            Field("coins", FieldType.INT, "coins paid"),
            Field("why", FieldType.UNIT, "the unit whose rule asks for them"),
        ),
    ),
    EventSpec(
        "gain",
        "coins a unit's rule paid out during a turn (not at its end-of-turn scoring)",
        (
            seat_field("who received them"),
            Field("coins", FieldType.INT, "coins gained"),
            Field("why", FieldType.UNIT, "the unit whose rule pays them"),
        ),
    ),
    EventSpec(
        "score",
        "the end-of-turn scoring of the active player",
        (
            seat_field(),
            Field("total", FieldType.INT, "coins scored"),
            Field("items", FieldType.ITEMS, "coins by item (regions, bonuses of units)"),
        ),
    ),
    EventSpec(
        "game_over",
        "the game ended",
        (
            Field("scores", FieldType.INTS, "final coins by seat"),
            Field("winners", FieldType.SEATS, "the winning seats"),
        ),
    ),
)


# --- actions in and out ---------------------------------------------------------------------------
_ACTION_KEYS = ("kind", "region", "arg")


def _as_int(value: Any) -> int | None:
    """An exact integer (numpy integers too), or None for anything else (bool and float included)."""
    if isinstance(value, bool | float):
        return None
    if isinstance(value, int):
        return int(value)
    index = getattr(type(value), "__index__", None)
    if index is None or type(value).__name__.startswith("float"):
        return None
    try:
        return int(index(value))
    except (TypeError, ValueError):
        return None


def check_action(game: Any, data: Any) -> Action:
    """The `Action` that `data` stands for, checked against the game's declarations and map.

    `data` may be an `Action`, a `[kind, region, arg]` list or tuple, or a `{kind, region, arg}`
    object; regions may be flat indexes or "SIDE:ID" references. Anything that is not an action of
    this game raises `MalformedActionError` naming the part that is wrong; legality is not checked."""
    from smallworld.engine.model.errors import MalformedActionError

    if isinstance(data, dict):
        extra = sorted(str(k) for k in data if k not in _ACTION_KEYS)
        if extra:
            raise MalformedActionError(
                f"action.{extra[0]}",
                "unknown field; an action has kind, region, arg",
                "malformed_field",
                {"name": extra[0]},
            )
        kind, region, arg = data.get("kind"), data.get("region"), data.get("arg")
    elif isinstance(data, tuple | list) and 1 <= len(data) <= 3:
        kind, region, arg = [*list(data), None, None][:3]
    else:
        raise MalformedActionError(
            "action", f"expected {{kind, region, arg}}, got {_short(data)}", "malformed_shape"
        )
    if not isinstance(kind, str):
        raise MalformedActionError("action.kind", f"must be a string, got {_short(kind)}", "malformed_kind")
    spec = game.action_specs.get(kind)
    if spec is None:
        raise MalformedActionError(
            "action.kind", f"unknown action kind {kind!r}", "unknown_kind", {"kind": _plain(kind)}
        )
    m = game.map
    r = None if region is None else _region(m, region, "action.region")
    if spec.region and r is None:
        raise MalformedActionError(
            "action.region", f"'{kind}' names a region", "needs_region", {"kind": str(kind)}
        )
    if not spec.region and r is not None:
        raise MalformedActionError(
            "action.region", f"'{kind}' names no region", "takes_no_region", {"kind": str(kind)}
        )
    return Action(kind, r, _arg(game, spec, arg))


def _short(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def _region(m: Any, value: Any, where: str) -> int:
    from smallworld.engine.model.errors import MalformedActionError

    if isinstance(value, str):
        try:
            return int(m.index(value))
        except KeyError:
            raise MalformedActionError(
                where, f"no region {_short(value)} on this map", "no_region_named", {"name": _plain(value)}
            ) from None
    i = _as_int(value)
    if i is None:
        raise MalformedActionError(
            where,
            f'must be a region ("SIDE:ID" or 0..{m.n - 1}), got {_short(value)}',
            "not_a_region",
            {"value": _plain(value), "most": m.n - 1},
        )
    if not 0 <= i < m.n:
        raise MalformedActionError(
            where,
            f"there is no region {i} on this map (0..{m.n - 1})",
            "no_region_number",
            {"n": i, "most": m.n - 1},
        )
    return i


def _arg(game: Any, spec: ActionSpec, arg: Any) -> Any:
    from smallworld.engine.model.errors import MalformedActionError

    where = "action.arg"
    if arg is None:
        if spec.takes(Arg.NONE):
            return None
        raise MalformedActionError(
            where, f"'{spec.kind}' needs an argument", "needs_arg", {"kind": str(spec.kind)}
        )
    if spec.takes(Arg.PLAN):
        return check_plan(game, arg)
    if isinstance(arg, str):
        if spec.takes(Arg.CHOICE) and arg in spec.choices:
            return arg
        if spec.takes(Arg.PIECE) and arg in game.pieces:
            return arg
        if spec.takes(Arg.RELIC) and arg in game.relics:
            return arg
        if spec.takes(Arg.OPTION) and all(part in game.units for part in arg.split("+")):
            return arg
        if spec.takes(Arg.REGION) and ":" in arg:
            return _region(game.map, arg, where)
        raise _not_an_arg(where, spec, arg)
    i = _as_int(arg)
    if i is not None:
        if spec.takes(Arg.COUNT) and 0 <= i <= max(spec.most, 0):
            return i
        if spec.takes(Arg.REGION):
            return _region(game.map, i, where)
        if spec.takes(Arg.COUNT):
            raise MalformedActionError(
                where,
                f"'{spec.kind}' takes 0..{spec.most}, got {i}",
                "count_range",
                {"most": spec.most, "n": i},
            )
    raise _not_an_arg(where, spec, arg)


def _not_an_arg(where: str, spec: ActionSpec, arg: Any) -> Exception:
    from smallworld.engine.model.errors import MalformedActionError

    return MalformedActionError(
        where,
        f"{_short(arg)} is not an argument of '{spec.kind}'",
        "bad_arg",
        {"kind": str(spec.kind), "value": _plain(arg)},
    )


def _plain(x: Any) -> str:
    """What was sent, as a reason's parameter: text, cut to 40 characters, without control bytes."""
    text = x if isinstance(x, str) else repr(x)
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= 40 else text[:39] + "…"


def check_plan(game: Any, plan: Any) -> tuple[tuple[int, int, tuple[tuple[str, int], ...]], ...]:
    """A whole plan as the engine keeps it: ((region, tokens, ((piece, n), ...)), ...) by region.

    In JSON a plan is an object keyed by region: {"L1a:3": {"tokens": 2, "beast": 1}, ...}."""
    from smallworld.engine.model.errors import MalformedActionError

    out: dict[int, tuple[int, tuple[tuple[str, int], ...]]] = {}
    if isinstance(plan, dict):
        items: list[tuple[Any, Any]] = list(plan.items())
        for ref, entry in items:
            where = f"action.arg.{ref}"
            r = _region(game.map, ref, where)
            if not isinstance(entry, dict):
                raise MalformedActionError(where, "must be {tokens, <piece>: n, ...}", "plan_entry")
            tokens = entry.get("tokens", 0)
            t = _as_int(tokens)
            if t is None or not 0 <= t <= 1000:
                raise MalformedActionError(f"{where}.tokens", "must be an integer 0..1000", "plan_tokens")
            troops = []
            for k, v in entry.items():
                if k == "tokens":
                    continue
                n = _as_int(v)
                if k not in game.pieces or n is None or not 0 <= n <= 1000:
                    raise MalformedActionError(
                        f"{where}.{k}",
                        "must be a troop piece kind with a count",
                        "plan_piece",
                        {"name": _plain(k)},
                    )
                if n:
                    troops.append((str(k), n))
            if r in out:
                raise MalformedActionError(where, "a region is named twice", "plan_twice")
            out[r] = (t, tuple(sorted(troops)))
    elif isinstance(plan, tuple):
        for i, row in enumerate(plan):
            if not (isinstance(row, tuple) and len(row) == 3 and isinstance(row[2], tuple)):
                raise MalformedActionError(
                    f"action.arg[{i}]", "must be (region, tokens, ((piece, n), ...))", "plan_row"
                )
            r = _region(game.map, row[0], f"action.arg[{i}]")
            t = _as_int(row[1])
            if t is None or t < 0:
                raise MalformedActionError(
                    f"action.arg[{i}]", "tokens must be an integer >= 0", "plan_tokens"
                )
            troops = []
            for pair in row[2]:
                if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)):
                    raise MalformedActionError(
                        f"action.arg[{i}]", "troops must be (piece kind, count) pairs", "plan_row"
                    )
                k, n = pair
                c = _as_int(n)
                if k not in game.pieces or c is None or c < 0:
                    raise MalformedActionError(
                        f"action.arg[{i}]", "troops must be (piece kind, count) pairs", "plan_row"
                    )
                if c:
                    troops.append((str(k), c))
            if r in out:
                raise MalformedActionError(f"action.arg[{i}]", "a region is named twice", "plan_twice")
            out[r] = (t, tuple(sorted(troops)))
    else:
        raise MalformedActionError("action.arg", "a plan is an object keyed by region", "plan_shape")
    if not out:
        raise MalformedActionError("action.arg", "a plan names at least one region", "plan_empty")
    return tuple((r, t, troops) for r, (t, troops) in sorted(out.items()))


def action_to_json(game: Any, a: Action) -> dict[str, Any]:
    """The JSON form of an action: {kind, region?, arg?}, regions as "SIDE:ID"."""
    out: dict[str, Any] = {"kind": a.kind}
    m = game.map
    if a.region is not None:
        out["region"] = m.ref(a.region)
    if a.arg is not None:
        spec = game.action_specs.get(a.kind)
        if a.kind == PLAN and isinstance(a.arg, tuple):
            out["arg"] = {m.ref(r): {"tokens": t, **dict(troops)} for r, t, troops in a.arg}
        elif spec is not None and spec.takes(Arg.REGION) and isinstance(a.arg, int):
            out["arg"] = m.ref(a.arg)
        else:
            out["arg"] = a.arg
    return out


# --- events ---------------------------------------------------------------------------------------
def event_json(game: Any, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """An event as it is kept and sent: its declared fields, regions as "SIDE:ID"."""
    spec = game.event_specs.get(kind)
    if spec is None:
        raise KeyError(f"event type {kind!r} is declared by no unit")
    out: dict[str, Any] = {"type": kind, **data}
    regions = spec._regions  # the event's region fields, worked out once per spec
    if regions:
        ref = game.map.ref
        for name, ftype in regions:
            v = out.get(name)
            if ftype is FieldType.REGION:
                if isinstance(v, int):
                    out[name] = ref(v)
            elif ftype is FieldType.REGIONS and isinstance(v, list | tuple):
                out[name] = [ref(x) if isinstance(x, int) else x for x in v]
    return out


def redact_event(
    game: Any, event: dict[str, Any], seat: int | None, allies: list[int], over: bool
) -> dict[str, Any]:
    """The event as `seat` may see it: secret fields become null (until the game is over)."""
    if over:
        return dict(event)
    spec = game.event_specs.get(event.get("type"))
    if spec is None:
        return dict(event)
    out = dict(event)
    for f in spec.fields:
        if f.secret is None or f.name not in out:
            continue
        if f.secret == "everyone" or (f.secret == "others" and out.get("seat") not in allies):
            out[f.name] = None
    return out


# --- checking values that come from outside ---------------------------------------------------------
_BIG = 10**9


def check_value(game: Any, f: Field, value: Any, where: str) -> Any:
    """`value` as a field of type `f.type`, or `PositionError` naming `where`. Regions may be given as
    "SIDE:ID" or as flat indexes; they are kept as "SIDE:ID"."""
    from smallworld.engine.model.errors import PositionError

    if value is None:
        if f.nullable:
            return None
        raise PositionError(where, "must not be null")
    t = f.type
    m = game.map

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise PositionError(where, f"must be {what}, got {_short(value)}")

    if t == FieldType.SEAT:
        need(_is_int(value) and 0 <= value < game.players, f"a seat 0..{game.players - 1}")
        return value
    if t == FieldType.INT:
        need(_is_int(value) and -_BIG <= value <= _BIG, "an integer")
        return value
    if t == FieldType.BOOL:
        need(isinstance(value, bool), "true or false")
        return value
    if t == FieldType.TEXT:
        need(isinstance(value, str) and len(value) <= 500, "a string")
        return value
    if t == FieldType.UNIT:
        need(
            isinstance(value, str) and (value in game.units or value == game.natives),
            "a race, power or marker id",
        )
        return value
    if t == FieldType.PIECE:
        need(isinstance(value, str) and value in game.pieces, "a piece kind")
        return value
    if t == FieldType.CHOICE:
        need(isinstance(value, str) and value in f.choices, f"one of {list(f.choices)}")
        return value
    if t == FieldType.REGION:
        need(isinstance(value, str | int) and not isinstance(value, bool), "a region")
        try:
            return m.ref(m.index(value))
        except KeyError:
            raise PositionError(where, f"no region {_short(value)} on this map") from None
    if t in (FieldType.REGIONS, FieldType.SEATS, FieldType.INTS, FieldType.CHOICES, FieldType.ROLLS):
        need(isinstance(value, list) and len(value) <= 1000, "a list")
        inner = {
            FieldType.REGIONS: FieldType.REGION,
            FieldType.SEATS: FieldType.SEAT,
            FieldType.INTS: FieldType.INT,
            FieldType.CHOICES: FieldType.CHOICE,
            FieldType.ROLLS: FieldType.INT,
        }[t]
        one = Field(f.name, inner, f.doc, choices=f.choices)
        return [check_value(game, one, v, f"{where}[{i}]") for i, v in enumerate(value)]
    if t == FieldType.ITEMS:
        need(
            isinstance(value, dict) and all(isinstance(k, str) and _is_int(v) for k, v in value.items()),
            "an object of named integers",
        )
        return dict(value)
    if t == FieldType.PIECES:
        need(
            isinstance(value, dict)
            and all(k in game.pieces and _is_int(v) and 0 < v <= 1000 for k, v in value.items()),
            "an object of piece kinds with counts",
        )
        return dict(value)
    if t == FieldType.OBJECT:
        need(isinstance(value, dict), "an object")
        return value
    if t == FieldType.OBJECTS:
        need(isinstance(value, list) and all(isinstance(v, dict) for v in value), "a list of objects")
        return value
    raise AssertionError(f"field type {t!r} has no check")  # pragma: no cover


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_fields(
    game: Any, fields: tuple[Field, ...], data: Any, where: str, extra: tuple[str, ...] = ()
) -> dict[str, Any]:
    """An object whose keys are the declared `fields` (and `extra` keys kept as they are)."""
    from smallworld.engine.model.errors import PositionError

    if not isinstance(data, dict):
        raise PositionError(where, "must be an object")
    known = {f.name: f for f in fields}
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in extra:
            out[key] = value
            continue
        f = known.get(key)
        if f is None:
            raise PositionError(f"{where}.{key}", f"unknown field; known: {sorted(known)}")
        out[key] = check_value(game, f, value, f"{where}.{key}")
    for f in fields:
        if f.name not in out and not f.optional and not f.nullable:
            raise PositionError(f"{where}.{f.name}", "is missing")
    return out
