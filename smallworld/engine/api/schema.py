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
a client needs no registry to resolve a reference. Where the state has no declaration (the
skeleton of a view: seats, regions, the turn), the shape is written here after
`serialize.state_to_json` and `views.view_for`, and the tests keep the two in step.

`python -m smallworld.engine.api.schema [EDITION]` prints the tables of docs/protocol.md.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path
from typing import Any

from smallworld.engine.model import errors
from smallworld.engine.model.edition import Edition, get_edition

# The declaration of `turn.resume` (a conquest waiting for a prompt) lives with the loader.
from smallworld.engine.model.hooks import CONQUEST_FIELDS
from smallworld.engine.model.protocol import ActionSpec, Arg, EventSpec, Field, FieldType, PromptSpec
from smallworld.engine.model.state import Phase

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

    # --- views ------------------------------------------------------------------------------------
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

    def _view_defs(self) -> None:
        d = self.defs
        race_or_null, power_or_null = _or_null(_ref("race")), _or_null(_ref("power"))
        d["view.seat"] = _obj(
            {
                "coins": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": "coins; null for the seats whose total the viewer may not see",
                },
                "active": race_or_null,
                "power": power_or_null,
                "declined": race_or_null,
                "declined_power": power_or_null,
                "more_declined": {
                    "type": "array",
                    "items": _obj({"race": _ref("race"), "power": power_or_null}),
                    "description": "further In-Decline races (a unit with a decline slot of its own)",
                },
                "hand": {**_COUNT, "description": "Active-race tokens in hand"},
                "held": _table("piece", _COUNT, description="troop pieces in hand"),
                "ext": self._unit_data("seat_fields", "each unit's data for this seat (`Unit.seat_fields`)"),
            }
        )
        tagged = {
            p.id: {"type": "array", "items": self.fields(p.tag_fields, {}, [])}
            for p in self.ed.pieces.values()
            if p.tag_fields
        }
        d["view.region"] = _obj(
            {
                "race": _or_null(_ref("occupant")),
                "tokens": _COUNT,
                "pieces": _table("piece", {"type": "integer", "minimum": 1}),
                "tags": _obj(tagged, [], description="one tag per tagged piece (`Piece.tag_fields`)"),
            },
            ["race", "tokens"],
        )
        d["view.marker"] = _obj(
            {
                "id": {**_or_null(_ref("relic")), "description": "null while the marker is face down"},
                "face_up": {"type": "boolean"},
            }
        )
        d["view.count"] = _obj({"count": _COUNT}, description="a hidden pile: only its size is seen")
        resume = self.fields(CONQUEST_FIELDS, {}, [])
        resume["properties"]["region"]["description"] = "the region as a flat index of the map"
        d["view.turn"] = _obj(
            {
                "conquests": _COUNT,
                "done": {"type": "boolean"},
                "took": _table("race", _COUNT, description="regions conquered from each race this turn"),
                "withdrawn": {"type": "array", "items": _ref("seat")},
                "die": {"type": ["integer", "null"]},
                "scored": _or_null(_ref("items")),
                "resume": {
                    **_or_null(resume),
                    "description": "a conquest whose last steps wait for a prompt (§6.8)",
                },
                "race": race_or_null,
                "stash": _COUNT,
                "risen": {"type": "boolean"},
                "data": self._unit_data("turn_fields", "each unit's data for this turn (`Unit.turn_fields`)"),
                "ended": {
                    "type": "array",
                    "items": _ref("unit_id"),
                    "description": "units whose end-of-turn step (§6.13) has run this turn",
                },
            }
        )
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
        props: dict[str, Any] = {
            "ply": {**_COUNT, "description": "decisions applied since the start of the game"},
            "round": {"type": "integer", "minimum": 1},
            "first_seat": _ref("seat"),
            "turn_seat": _ref("seat"),
            "acting_seat": {
                "type": "integer",
                "minimum": -1,
                "maximum": self.max_seat,
                "description": "the seat to act; -1 once the game is over",
            },
            "phase": {"enum": [p.value for p in Phase]},
            "seats": {
                "type": "array",
                "items": _ref("view.seat"),
                "minItems": self.min_players,
                "maxItems": self.max_players,
            },
            "regions": _table(
                "region", _ref("view.region"), description="the regions that hold a race or pieces"
            ),
            "tray": _table("occupant", _COUNT, description="race tokens left in each tray"),
            "row": {
                "type": "array",
                "items": _obj({"race": _ref("race"), "power": _ref("power"), "coins": _COUNT}),
                "description": "the combos on offer, position 0 first (empty in the team variant)",
            },
            "race_stack": _ref("view.count"),
            "power_stack": _ref("view.count"),
            "power_discard": {"type": "array", "items": _ref("power")},
            "supply": _table("piece", _COUNT, description="pieces left in the box"),
            "markers": _table("region", {"type": "array", "items": _ref("view.marker"), "minItems": 1}),
            "spare_markers": _ref("view.count"),
            "turn": _ref("view.turn"),
            "pending": {
                "type": "array",
                "items": _ref("prompt"),
                "description": "the prompts the viewer may see: its own and the public ones",
            },
            "result": _or_null(_ref("view.result")),
            "events": {
                "type": "array",
                "items": _ref("event"),
                "description": "what the last action set off, redacted for the viewer",
            },
            "viewer": {**_or_null(_ref("seat")), "description": "whose view this is; null: a spectator"},
        }
        required = list(props)
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
    out: dict[str, dict[str, Any]] = {}
    for name in NAMES:
        title, doc = _DOCS[name]
        body = dict(bodies[name])
        if "description" in body:
            doc += " " + body.pop("description")
        out[name] = {
            "$schema": DIALECT,
            "$id": f"smallworld/{ed.id}/{name}.schema.json",
            "title": f"{ed.name}: {title}",
            "description": doc,
            **body,
            "$defs": _used(body, b.defs),
        }
    return out


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
