"""JSON Schemas (draft 2020-12) of the protocol, generated from its declarations.

Why generated: the engine and every unit declare their action kinds, event types, prompts, seat
and turn data and piece tags once (`engine/model/protocol.py`, `Unit.seat_fields`, `Unit.turn_fields`,
`Piece.tag_fields`); a hand-written schema would drift from them the day a unit adds a kind. A
client in any language validates what it sends and receives against these files, and the tests
validate every action, event and view of random games against them, so the schemas and the
engine cannot disagree silently.

Five documents per edition (`schemas(edition)`): `action` (what a client sends), `event` (what an
action set off), `prompt` (a decision a unit asks for), `view` (what a seat sees: `view_for`) and
`error` (what a refused action or input gives back). Each document is self-contained: the shared
pieces (region references, unit ids, every event and prompt) are copied into its own `$defs`, so
a client needs no registry to resolve a reference. The skeleton of a view (seats, regions, the
turn, ...) comes from the state's shape (`engine/api/shape.py`) with what `views.view_for` changes
(hidden coins, stacks as counts, face-down markers); so do `state_schema` (what
`serialize.state_to_json` writes) and `position_defs` (the `position` of a position file,
docs/position.schema.json).

`python -m smallworld.engine.api.schema [EDITION]` prints the tables of docs/protocol.md.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path
from typing import Any

from smallworld.engine.api.shape import (
    STATE,
    Declared,
    ListOf,
    Obj,
    Scalar,
    Shape,
    StateField,
    TableOf,
    Type,
)
from smallworld.engine.model import errors
from smallworld.engine.model.edition import Edition, get_edition, known_ids

# The declaration of `turn.resume` (a conquest waiting for a prompt) lives with the loader.
from smallworld.engine.model.hooks import CONQUEST_FIELDS
from smallworld.engine.model.protocol import ActionSpec, Arg, EventSpec, Field, FieldType, PromptSpec

DIALECT = "https://json-schema.org/draft/2020-12/schema"
REGION_PATTERN = r"^[A-Za-z0-9_-]+:[0-9]+$"  # "SIDE:ID": a board side id and a region number
NAMES = ("action", "event", "prompt", "view", "error")
BEGIN = "<!-- BEGIN GENERATED: python -m smallworld.engine.api.schema -->"
END = "<!-- END GENERATED -->"

_NULL: dict[str, Any] = {"type": "null"}
_COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
_LISTS = {
    FieldType.REGIONS: FieldType.REGION,
    FieldType.SEATS: FieldType.SEAT,
    FieldType.INTS: FieldType.INT,
    FieldType.CHOICES: FieldType.CHOICE,
    FieldType.ROLLS: FieldType.INT,
}
_SECRET = {
    "everyone": "secret to every seat until the game ends",
    "others": "secret to the seats other than the event's seat and its allies until the game ends",
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _or_null(s: dict[str, Any]) -> dict[str, Any]:
    """`s`, or null: in place for an enum or a single type, else as an `anyOf` (a `$ref`)."""
    if "enum" in s:
        return {**s, "enum": [*s["enum"], None]}
    if isinstance(s.get("type"), str) and "$ref" not in s:
        return {**s, "type": [s["type"], "null"]}
    return {"anyOf": [s, _NULL]}


def _one_of(names: list[str]) -> dict[str, Any]:
    """One of the named definitions; with none declared (an edition without prompts) nothing fits."""
    if not names:
        return {"not": {}, "description": "(None is declared.)"}
    return {"oneOf": [_ref(n) for n in names]}


def _obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    """An object whose keys are all known: anything else is a mismatch worth catching."""
    out: dict[str, Any] = {"type": "object", **extra, "properties": props}
    out["required"] = list(props) if required is None else required
    out["additionalProperties"] = False
    return out


def _table(key_def: str, value: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """An object keyed by the ids of `key_def` (a tray, a supply, a region map)."""
    return {"type": "object", **extra, "propertyNames": _ref(key_def), "additionalProperties": value}


def _unit_note(unit: str) -> str:
    return "the engine's own" if unit == "core" else f"declared by `{unit}`"


class _Builder:
    """Every definition of an edition's schemas, built once; each document keeps the ones it uses."""

    def __init__(self, ed: Edition) -> None:
        self.ed = ed
        self.max_seat = max(ed.rounds) - 1
        self.min_players, self.max_players = min(ed.rounds), max(ed.rounds)
        natives = [ed.natives.id] if ed.natives is not None else []
        units = list(ed.units)
        # The units that offer named conquest options: the words an `option` argument is made of.
        self.option_units = [u for u in units if u in ed.hooked.get("conquest_options", ())]
        # The team variant's offer and factions (§11) are the only variant-specific parts of a view;
        # a variant declares no view shape, so theirs is written here after its `hide`.
        self.team = "team" in ed.variants and bool(ed.factions)
        d: dict[str, Any] = {
            "region": {
                "type": "string",
                "pattern": REGION_PATTERN,
                "description": 'a region as "SIDE:ID": the board side id and the region number',
            },
            "seat": {
                "type": "integer",
                "minimum": 0,
                "maximum": self.max_seat,
                "description": "a seat number, 0 first",
            },
            "race": {"enum": list(ed.races), "description": "a race id"},
            "power": {"enum": list(ed.powers), "description": "a special power id"},
            "relic": {"enum": list(ed.relics), "description": "an Artifact or Legendary Place id"},
            "occupant": {
                "enum": [*ed.races, *natives],
                "description": "a race that can stand in a region: a race id or the natives",
            },
            "unit_id": {"enum": units, "description": "the id of a unit: a race, power or relic"},
            "unit": {
                "enum": [*units, *natives],
                "description": "a race, power or relic id, or the natives",
            },
            "piece": {"enum": list(ed.pieces), "description": "a piece kind"},
            "items": {
                "type": "object",
                "additionalProperties": {"type": "integer"},
                "description": "named integers (score items)",
            },
            "option": self._option_schema(),
            "plan": self._plan_schema(),
        }
        self.defs = d
        for spec in ed.action_specs.values():
            d[f"action.{spec.kind}"] = self._action(spec)
        d["action"] = _one_of([f"action.{k}" for k in ed.action_specs])
        for e in ed.event_specs.values():
            d[f"event.{e.type}"] = self._event(e)
        d["event"] = _one_of([f"event.{t}" for t in ed.event_specs])
        for (uid, pid), p in ed.prompt_specs.items():
            d[f"prompt.{uid}.{pid}"] = self._prompt(p)
        d["prompt"] = _one_of([f"prompt.{u}.{p}" for u, p in ed.prompt_specs])
        d["error"] = self._error()
        self._view_defs()

    # --- fields ---------------------------------------------------------------------------------
    def _type(self, f: Field, t: FieldType, secret: bool) -> dict[str, Any]:
        if t in _LISTS:
            item = self._type(f, _LISTS[t], False)
            # A secret list is redacted to as many nulls in a seat's data (`views._hidden`).
            return {"type": "array", "items": _or_null(item) if secret else item}
        simple: dict[FieldType, dict[str, Any]] = {
            FieldType.SEAT: _ref("seat"),
            FieldType.REGION: _ref("region"),
            FieldType.INT: {"type": "integer"},
            FieldType.BOOL: {"type": "boolean"},
            FieldType.TEXT: {"type": "string"},
            FieldType.UNIT: _ref("unit"),
            FieldType.PIECE: _ref("piece"),
            FieldType.CHOICE: {"enum": [str(c) for c in f.choices]},
            FieldType.OBJECT: {"type": "object"},
            FieldType.OBJECTS: {"type": "array", "items": {"type": "object"}},
            FieldType.ITEMS: _ref("items"),
            FieldType.PIECES: _table("piece", {"type": "integer", "minimum": 1}),
        }
        return dict(simple[t])

    def field(self, f: Field) -> dict[str, Any]:
        """A declared field: its type, null where it is nullable or secret (redacted), its doc."""
        s = self._type(f, f.type, f.secret is not None)
        if f.nullable or f.secret is not None:
            s = _or_null(s)
        doc = f.doc
        if f.secret is not None:
            doc += f" ({_SECRET.get(f.secret, 'secret')}: null, or a list of nulls, where hidden)"
        return {**s, "description": doc}

    def fields(self, fields: tuple[Field, ...], fixed: dict[str, Any], required: list[str]) -> dict[str, Any]:
        """An object of declared fields after `fixed` keys; fields not `optional` are required."""
        props = dict(fixed)
        req = list(required)
        for f in fields:
            props[f.name] = self.field(f)
            if not f.optional:
                req.append(f.name)
        return _obj(props, req)

    # --- actions --------------------------------------------------------------------------------
    def _option_schema(self) -> dict[str, Any]:
        ids = self.option_units
        doc = 'a named conquest option: the id of a unit that offers one, or several joined by "+"'
        if not ids:
            return {"type": "string", "description": doc}
        one = "(?:" + "|".join(re.escape(u) for u in ids) + ")"
        return {"type": "string", "pattern": f"^{one}(?:\\+{one})*$", "description": doc}

    def _plan_schema(self) -> dict[str, Any]:
        troops = [p.id for p in self.ed.pieces.values() if p.troop]
        entry: dict[str, Any] = {"tokens": {**_COUNT, "maximum": 1000, "description": "race tokens"}}
        for k in troops:
            entry[k] = {**_COUNT, "maximum": 1000, "description": f"{k} troop pieces"}
        return _table(
            "region",
            _obj(entry, []),
            minProperties=1,
            description="a whole plan: each named region's final race tokens and troop pieces "
            "(regions left out keep what they hold)",
        )

    def _arg(self, spec: ActionSpec) -> dict[str, Any]:
        parts: list[dict[str, Any]] = []
        for a in spec.args:
            if a == Arg.NONE:
                parts.append(_NULL)
            elif a == Arg.COUNT:
                parts.append({"type": "integer", "minimum": 0, "maximum": spec.most})
            elif a == Arg.CHOICE:
                parts.append({"enum": list(spec.choices)})
            else:
                parts.append(_ref(str(a)))  # region, option, piece, relic, plan: shared definitions
        return parts[0] if len(parts) == 1 else {"anyOf": parts}

    def _action(self, spec: ActionSpec) -> dict[str, Any]:
        kind = str(spec.kind)  # a `Kind` member is a str: written as its value
        props: dict[str, Any] = {"kind": {"const": kind}}
        required = ["kind"]
        if spec.region:
            props["region"] = _ref("region")
            required.append("region")
        else:
            props["region"] = {**_NULL, "description": "this kind names no region: leave it out"}
        props["arg"] = self._arg(spec)
        if not spec.takes(Arg.NONE):
            required.append("arg")
        return _obj(
            props,
            required,
            title=kind,
            description=f"{spec.doc} ({_unit_note(spec.unit)}; step {spec.step})",
            **{"x-unit": spec.unit, "x-step": spec.step},
        )

    # --- events, prompts, errors ------------------------------------------------------------------
    def _event(self, e: EventSpec) -> dict[str, Any]:
        out = self.fields(e.fields, {"type": {"const": e.type}}, ["type"])
        return {"title": e.type, "description": f"{e.doc} ({_unit_note(e.unit)})", "x-unit": e.unit, **out}

    def _prompt(self, p: PromptSpec) -> dict[str, Any]:
        fixed: dict[str, Any] = {
            "unit": {"const": p.unit},
            "prompt": {"const": p.id},
            "seat": {**_ref("seat"), "description": "the seat that answers"},
            "resume_seat": {
                "type": "integer",
                "minimum": -1,
                "maximum": self.max_seat,
                "description": "the seat that acts again once the prompt is settled",
            },
        }
        required = ["unit", "prompt", "seat", "resume_seat"]
        if p.public:
            fixed["public"] = {"const": True, "description": "every seat sees that it is pending"}
            required.append("public")
        out = self.fields(p.fields, fixed, required)
        answers = ", ".join(f"`{a}`" for a in p.answers)
        rule = f"; {p.rule}" if p.rule else ""
        return {
            "title": f"{p.unit}.{p.id}",
            "description": f"{p.doc} (answered by {answers}{rule})",
            "x-unit": p.unit,
            "x-answers": list(p.answers),
            **out,
        }

    def _error(self) -> dict[str, Any]:
        codes = error_codes()
        out = _obj(
            {
                "code": {
                    "enum": list(codes),
                    "description": "the stable machine code. "
                    + " ".join(f"`{c}`: {doc}." for c, (doc, _keys) in codes.items()),
                },
                "message": {"type": "string", "description": "what is wrong, in words"},
                "rule": {"type": "string", "description": "the rule section an illegal action breaks"},
                "field": {"type": "string", "description": "the part of the input that is wrong"},
                "reason": {"type": "string", "description": "the key of the refusal's words: why.<reason>"},
                "params": {"type": "object", "description": "the values the refusal's words are filled with"},
            },
            ["code", "message"],
        )
        # Each error class takes `rule` or `field` in its constructor: then its JSON always has it.
        out["allOf"] = [
            {"if": {"properties": {"code": {"const": c}}}, "then": {"required": list(keys)}}
            for c, (_doc, keys) in codes.items()
            if keys
        ]
        return out

    # --- unit data --------------------------------------------------------------------------------
    def _unit_data(self, which: str, doc: str) -> dict[str, Any]:
        """Seat or turn data: keyed by unit id, each unit's object its declared fields (a unit with
        none may only hold an empty object, as `State.seat_data` creates one on first use)."""
        props = {
            uid: self.fields(getattr(unit, which), {}, [])
            for uid, unit in self.ed.units.items()
            if getattr(unit, which)
        }
        return {
            "type": "object",
            "description": doc,
            "propertyNames": _ref("unit_id"),
            "properties": props,
            "additionalProperties": {"type": "object", "maxProperties": 0},
        }

    # --- the state's shape -------------------------------------------------------------------------
    def _declared(self, t: Declared, prefix: str) -> dict[str, Any]:
        """The values whose shape the protocol's and the units' declarations give."""
        if t.name == "seat_data":
            return self._unit_data("seat_fields", "each unit's data for this seat (`Unit.seat_fields`)")
        if t.name == "turn_data":
            return self._unit_data("turn_fields", "each unit's data for this turn (`Unit.turn_fields`)")
        if t.name == "tags":
            tagged = {
                p.id: {"type": "array", "items": self.fields(p.tag_fields, {}, [])}
                for p in self.ed.pieces.values()
                if p.tag_fields
            }
            return _obj(tagged, [], description="one tag per tagged piece (`Piece.tag_fields`)")
        if t.name == "resume":
            resume = self.fields(CONQUEST_FIELDS, {}, [])
            resume["properties"]["region"]["description"] = "the region as a flat index of the map"
            return resume
        if t.name == "prompts":
            return {"type": "array", "items": _ref("prompt")}
        if t.name == "events":
            return {"type": "array", "items": _ref("event")}
        if t.name == "items":
            return _ref("items")
        # result, offer: definitions of their own (`_view_defs`)
        return _ref(f"view.{t.name}")

    def _shape_type(self, t: Type, prefix: str) -> dict[str, Any]:
        if isinstance(t, Scalar):
            if t.ids is not None:
                return _ref(t.ids)
            if t.enum:
                return {"enum": list(t.enum)}
            out: dict[str, Any] = {"type": t.json}
            if t.lo is not None:
                out["minimum"] = t.lo
            if t.hi_seat:
                out["maximum"] = self.max_seat
            if t.pattern is not None:
                out["pattern"] = t.pattern
            return out
        if isinstance(t, ListOf):
            out = {"type": "array", "items": self._shape_type(t.item, prefix)}
            if t.per_seat:
                out["minItems"], out["maxItems"] = self.min_players, self.max_players
            elif t.min_items:
                out["minItems"] = t.min_items
            return out
        if isinstance(t, TableOf):
            return _table(t.key, self._shape_type(t.value, prefix))
        if isinstance(t, Obj):
            return _ref(self.shape_def(t.shape, prefix))
        return self._declared(t, prefix)

    def shape_field(self, f: StateField, prefix: str) -> dict[str, Any]:
        s = self._shape_type(f.type, prefix)
        if f.nullable:
            s = _or_null(s)
        return {**s, "description": f.doc} if f.doc else s

    def shape_props(self, shape: Shape, prefix: str) -> tuple[dict[str, Any], list[str]]:
        """The properties of a shape's object and the required ones (every field the writer always
        writes); a view replaces what it hides (`_VIEW`)."""
        props: dict[str, Any] = {}
        for f in shape.fields:
            key = f"{shape.name}.{f.name}"
            if prefix == "view" and key in _VIEW:
                if _VIEW[key] is not None:
                    props[f.name] = _VIEW[key]
                continue
            props[f.name] = self.shape_field(f, prefix)
        return props, [f.name for f in shape.fields if f.when is None and f.name in props]

    def shape_def(self, shape: Shape, prefix: str) -> str:
        """The definition `<prefix>.<shape>`, built once."""
        name = f"{prefix}.{shape.name}"
        if name not in self.defs:
            props, required = self.shape_props(shape, prefix)
            self.defs[name] = _obj(props, required, description=shape.doc)
        return name

    # --- views ------------------------------------------------------------------------------------
    def _view_defs(self) -> None:
        d = self.defs
        d["view.count"] = _obj({"count": _COUNT}, description="a hidden pile: only its size is seen")
        result: dict[str, Any] = {
            "scores": {"type": "array", "items": {"type": "integer"}, "description": "final coins by seat"},
            "winners": {"type": "array", "items": _ref("seat"), "minItems": 1},
        }
        # §7: coins tie; each tied seat's race tokens on the boards ("none": the tie_break option
        # is off and the victory is shared at once, so no figure).
        tied: dict[str, Any] = _obj(
            {"seat": _ref("seat"), "value": {"type": "integer", "minimum": 0}}, ["seat"]
        )
        by = ["race_tokens", "none"]
        if self.team:
            result["factions"] = _table("faction", {"type": "integer"}, description="team variant: scores")
            result["winning_factions"] = {"type": "array", "items": _ref("faction")}
            # §11.4: faction scores tie; the higher best individual score of each tied faction.
            tied = {"anyOf": [tied, _obj({"faction": _ref("faction"), "value": {"type": "integer"}})]}
            by.append("best_score")
        result["tie_break"] = _obj(
            {
                "rule": {"type": "string", "description": "the rule section of the tie-break"},
                "by": {"enum": by, "description": "what breaks the tie: `value` of each tied entry"},
                "tied": {"type": "array", "items": tied, "minItems": 2},
                "shared": {"type": "boolean", "description": "still tied after it: a shared victory"},
            },
            description="only when the top score is tied: the tie-break's figures",
        )
        d["view.result"] = _obj(result, ["scores", "winners"])
        if self.team:
            d["faction"] = {"enum": list(self.ed.factions), "description": "a faction (team variant)"}
            columns = {
                f: _obj({"rows": {"type": "array", "items": _ref("race")}, "hidden": _COUNT})
                for f in self.ed.factions
            }
            columns["powers"] = _obj({"rows": {"type": "array", "items": _ref("power")}, "hidden": _COUNT})
            d["view.offer"] = _obj(
                columns,
                description="team variant: each column's visible rows and how many banners or badges "
                "lie unseen in its stack",
            )

    def view(self) -> dict[str, Any]:
        props, required = self.shape_props(STATE, "view")
        props["viewer"] = {**_or_null(_ref("seat")), "description": "whose view this is; null: a spectator"}
        required.append("viewer")
        extra: dict[str, Any] = {}
        if self.team:
            props["offer"] = _ref("view.offer")
            props["factions"] = {
                "type": "array",
                "items": _ref("faction"),
                "description": "team variant: the faction of each seat",
            }
            extra["dependentRequired"] = {"offer": ["factions"], "factions": ["offer"]}
        return _obj(props, required, **extra)

    def state(self) -> dict[str, Any]:
        props, required = self.shape_props(STATE, "state")
        if self.team:
            columns = {f: {"type": "array", "items": _ref("race")} for f in self.ed.factions}
            columns["powers"] = {"type": "array", "items": _ref("power")}
            props["offer"] = {**_obj(columns), "description": STATE.by_name["offer"].doc}
        else:
            del props["offer"]
        return _obj(props, required)


# What a view changes of the state's shape (`views.PublicView`), by "<shape>.<field>"; None: left out.
_VIEW: dict[str, dict[str, Any] | None] = {
    "seat.coins": {
        "type": ["integer", "null"],
        "minimum": 0,
        "description": "coins; null for the seats whose total the viewer may not see",
    },
    "marker.id": {**_or_null(_ref("relic")), "description": "null while the marker is face down"},
    "state.race_stack": _ref("view.count"),
    "state.power_stack": _ref("view.count"),
    "state.spare_markers": _ref("view.count"),
    "state.rng": None,
    "state.rolls": None,
    "state.offer": None,  # the team variant's is a view of its own (`view.offer`)
    "state.pending": {
        "type": "array",
        "items": _ref("prompt"),
        "description": "the prompts the viewer may see: its own and the public ones",
    },
    "state.events": {
        "type": "array",
        "items": _ref("event"),
        "description": "what the last action set off, redacted for the viewer",
    },
}


def error_codes() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Every error code the engine gives callers: the first sentence of its class's doc, and which
    of `rule` and `field` its JSON always carries (the ones its constructor takes)."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for value in vars(errors).values():
        is_error = isinstance(value, type) and issubclass(value, errors.SmallworldError)
        if is_error and value is not errors.SmallworldError and value.code not in out:
            doc = (value.__doc__ or "").strip().split(". ")[0].rstrip(".")
            params = inspect.signature(value.__init__).parameters
            out[value.code] = (doc, tuple(k for k in ("rule", "field") if k in params))
    return out


def _used(root: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """The definitions `root` reaches through `$ref`, in the builder's order."""
    seen: set[str] = set()
    todo: list[Any] = [root]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            ref = x.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/") :]
                if name not in seen:
                    seen.add(name)
                    todo.append(defs[name])
            todo.extend(x.values())
        elif isinstance(x, list):
            todo.extend(x)
    return {k: v for k, v in defs.items() if k in seen}


_DOCS = {
    "action": (
        "Action",
        'What a client sends for the seat to act: {kind, region?, arg?}, regions as "SIDE:ID". One '
        "alternative per declared action kind.",
    ),
    "event": (
        "Event",
        "What an action set off (`State.events`, a view's `events`): one alternative per declared event "
        "type. Secret fields are null where the viewer may not see them.",
    ),
    "prompt": (
        "Prompt",
        "A decision a unit asks of a seat at an automatic moment (a view's `pending`): one alternative "
        "per declared prompt; its `x-answers` are the action kinds that answer it.",
    ),
    "view": (
        "View",
        "What a seat sees (`view_for(state, seat)`): the state without other seats' coins, the order of "
        "the stacks, the generator, face-down markers, other seats' prompts and declared secrets.",
    ),
    "error": (
        "Error",
        "What a refused action or input gives back (`SmallworldError.to_json()`).",
    ),
    "state": (
        "State",
        "A whole state as `state_to_json` writes it (a saved game's state): its shape is "
        "`engine/api/shape.py`'s.",
    ),
}


def _document(ed: Edition, b: _Builder, name: str, body: dict[str, Any]) -> dict[str, Any]:
    title, doc = _DOCS[name]
    body = dict(body)
    if "description" in body:
        doc += " " + body.pop("description")
    return {
        "$schema": DIALECT,
        "$id": f"smallworld/{ed.id}/{name}.schema.json",
        "title": f"{ed.name}: {title}",
        "description": doc,
        **body,
        "$defs": _used(body, b.defs),
    }


def schemas(edition: Edition | str) -> dict[str, dict[str, Any]]:
    """The JSON Schemas of an edition's protocol, by name: action, event, prompt, view, error."""
    ed = get_edition(edition) if isinstance(edition, str) else edition
    b = _Builder(ed)
    bodies: dict[str, dict[str, Any]] = {
        "action": b.defs["action"],
        "event": b.defs["event"],
        "prompt": b.defs["prompt"],
        "view": b.view(),
        "error": b.defs["error"],
    }
    return {name: _document(ed, b, name, bodies[name]) for name in NAMES}


def state_schema(edition: Edition | str) -> dict[str, Any]:
    """The JSON Schema of a whole state of an edition's games (`state_to_json`), from its shape."""
    ed = get_edition(edition) if isinstance(edition, str) else edition
    b = _Builder(ed)
    return _document(ed, b, "state", b.state())


# --- the position of a position file (docs/position.schema.json) ------------------------------------
POSITION_SCHEMA = "docs/position.schema.json"
POSITION_REF = r"^([A-Za-z0-9]+:)?\d+$"  # a position may name a region by its flat index too
_POSITION_NAMES = {"state": "position", "region": "region_state"}  # the file's names of the shapes
_STRINGS: dict[str, Any] = {"type": "array", "items": {"type": "string"}}


def _position_declared(name: str, seat: dict[str, Any], last: int, columns: list[str]) -> dict[str, Any]:
    """What a position file's schema says of the values whose shape other declarations give (the
    loader checks them against those declarations, which differ by edition)."""
    if name in ("seat_data", "turn_data"):
        return {"type": "object", "additionalProperties": {"type": "object"}}
    if name == "tags":
        return {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "object"}}}
    if name == "prompts":
        prompt = {
            "unit": {"type": "string"},
            "prompt": {"type": "string"},
            "seat": seat,
            "resume_seat": {"type": "integer", "minimum": -1, "maximum": last},
            "public": {"type": "boolean"},
        }
        return {
            "type": "array",
            "items": {"type": "object", "required": ["unit", "prompt", "seat"], "properties": prompt},
        }
    if name == "events":
        return {"type": "array", "items": {"type": "object", "required": ["type"]}}
    if name == "items":
        return {"type": "object", "additionalProperties": {"type": "integer"}}
    if name == "offer":
        return {
            "type": "object",
            "additionalProperties": False,
            "properties": dict.fromkeys(columns, _STRINGS),
        }
    return {"type": "object"}  # result, resume


def position_defs() -> dict[str, dict[str, Any]]:
    """The `position` of a position file and the objects it nests, for every edition, as
    docs/position.schema.json defines them: the state's shape with ids as strings, where every field
    but the `required` ones may be left out (the loader keeps the base state's value) and a single
    marker stands for a list of one."""
    eds = [get_edition(e) for e in known_ids()]
    fewest, most = min(min(ed.rounds) for ed in eds), max(max(ed.rounds) for ed in eds)
    seat: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": most - 1}
    columns = [*sorted({f for ed in eds for f in ed.factions}), "powers"]
    out: dict[str, dict[str, Any]] = {}

    def typ(t: Type) -> dict[str, Any]:
        if isinstance(t, Scalar):
            if t.ids == "seat":
                return dict(seat)
            if t.enum:
                return {"enum": list(t.enum)}
            s: dict[str, Any] = {"type": t.json}
            if t.lo is not None:
                s["minimum"] = t.lo
            if t.hi_seat:
                s["maximum"] = most - 1
            if t.pattern is not None:
                s["pattern"] = t.pattern
            return s
        if isinstance(t, ListOf):
            s = {"type": "array", "items": typ(t.item)}
            if t.per_seat:
                s["minItems"], s["maxItems"] = fewest, most
            if t.lone:
                return {"oneOf": [s["items"], s]}
            return s
        if isinstance(t, TableOf):
            s = {"type": "object"}
            if t.key == "region":
                s["propertyNames"] = {"type": "string", "pattern": POSITION_REF}
            return {**s, "additionalProperties": typ(t.value)}
        if isinstance(t, Obj):
            return {"$ref": f"#/$defs/{shape(t.shape)}"}
        return _position_declared(t.name, seat, most - 1, columns)

    def shape(sh: Shape) -> str:
        name = _POSITION_NAMES.get(sh.name, sh.name)
        if name not in out:
            out[name] = {}  # its place in the order: before the shapes it nests
            props: dict[str, Any] = {}
            for f in sh.fields:
                s = typ(f.type)
                props[f.name] = {
                    **(_or_null(s) if f.nullable else s),
                    **({"description": f.doc} if f.doc else {}),
                }
            body: dict[str, Any] = {"type": "object", "description": sh.doc}
            required = [f.name for f in sh.fields if f.required]
            if required:
                body["required"] = required
            out[name] = {**body, "additionalProperties": False, "properties": props}
        return name

    shape(STATE)
    return out


def position_schema_text(text: str) -> str:
    """docs/position.schema.json's text (`text`) with the position's definitions made anew."""
    doc = json.loads(text)
    doc["$defs"].update(position_defs())
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def write_schemas(edition: Edition | str, out_dir: str | Path) -> list[Path]:
    """Write one `<name>.schema.json` per schema into `out_dir` (created if missing)."""
    docs = schemas(edition)  # an unknown edition fails before anything is written
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, doc in docs.items():
        path = out / f"{name}.schema.json"
        path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


# --- the tables of docs/protocol.md -----------------------------------------------------------------
def _arg_words(spec: ActionSpec) -> str:
    words = []
    for a in spec.args:
        if a == Arg.NONE:
            words.append("none")
        elif a == Arg.COUNT:
            words.append(f"count 0..{spec.most}")
        elif a == Arg.CHOICE:
            words.append(" / ".join(f"`{c}`" for c in spec.choices))
        else:
            words.append(str(a))
    return " or ".join(words)


def _field_words(f: Field) -> str:
    kind = str(f.type)
    if f.choices:
        kind += " (" + " / ".join(str(c) for c in f.choices) + ")"
    notes = [n for n, on in (("or null", f.nullable), ("optional", f.optional)) if on]
    if f.secret is not None:
        notes.append(f"secret to {f.secret}")
    return f"`{f.name}` {kind}" + (f" {', '.join(notes)}" if notes else "")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_tables(edition: Edition | str) -> str:
    """The tables of every action kind, event type and prompt, as docs/protocol.md shows them (a
    test compares the two, so the document cannot go stale)."""
    ed = get_edition(edition) if isinstance(edition, str) else edition
    lines = [BEGIN, "", f"### Action kinds ({len(ed.action_specs)})", ""]
    lines += ["| kind | unit | step | region | arg | what it does |", "|---|---|---|---|---|---|"]
    for a in ed.action_specs.values():
        region = "yes" if a.region else "—"
        lines.append(f"| `{a.kind}` | {a.unit} | {a.step} | {region} | {_arg_words(a)} | {_cell(a.doc)} |")
    lines += ["", f"### Event types ({len(ed.event_specs)})", ""]
    lines += ["| type | unit | fields | what it says |", "|---|---|---|---|"]
    for e in ed.event_specs.values():
        fields = "; ".join(_field_words(f) for f in e.fields)
        lines.append(f"| `{e.type}` | {e.unit} | {_cell(fields)} | {_cell(e.doc)} |")
    lines += ["", f"### Prompts ({len(ed.prompt_specs)})", ""]
    lines += ["| unit | prompt | answers | fields | public | what it asks |", "|---|---|---|---|---|---|"]
    for p in ed.prompt_specs.values():
        answers = ", ".join(f"`{a}`" for a in p.answers)
        fields = "; ".join(_field_words(f) for f in p.fields) or "—"
        public = "yes" if p.public else "—"
        lines.append(f"| {p.unit} | `{p.id}` | {answers} | {_cell(fields)} | {public} | {_cell(p.doc)} |")
    lines += ["", END]
    return "\n".join(lines)


if __name__ == "__main__":  # `python -m smallworld.engine.api.schema`: the package installs the editions
    print(markdown_tables(sys.argv[1] if len(sys.argv) > 1 else "warcraft"))
