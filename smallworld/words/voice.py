"""A `Voice`: the words of one game in one language, as one seat sees them.

It renders what the engine declares (action kinds, event types, prompts and their fields) through the
catalogue of whoever declares it, following the conventions of `smallworld.words`: the owner of a
message is the declaring unit (or the core), the message id comes from the declaration, and the
parameters are the declared fields rendered as text. Clients add their own parameters (a conquest's
cost, what a region holds) and their own catalogue (`extra`), and never name a unit's ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.protocol import ActionSpec, Arg, EventSpec, Field, FieldType
from smallworld.words import CASES, CORE, DEFAULT, EDITION, Words, check_lang, for_edition
from smallworld.words import why as refusal

OPTION_JOIN = "+"  # `conquer REF a+b`: two named options on one conquest
_LISTS = frozenset(
    {
        FieldType.REGIONS,
        FieldType.SEATS,
        FieldType.INTS,
        FieldType.CHOICES,
        FieldType.ITEMS,
        FieldType.ROLLS,
        FieldType.PIECES,
    }
)

_COUNTED = frozenset({FieldType.ITEMS, FieldType.PIECES})  # objects of counts: empty when all are 0


class Voice:
    """Words of `game` in `lang` for the seat `viewer` (None: a spectator, nobody is "you")."""

    def __init__(
        self,
        game: Any,
        lang: str = DEFAULT,
        viewer: int | None = None,
        extra: Mapping[str, dict[str, dict[str, str]]] | None = None,
    ) -> None:
        self.game = game
        self.edition = game.edition
        self.lang = check_lang(lang)
        self.viewer = viewer
        words: Words = for_edition(self.edition)
        for owner, catalogue in (extra or {}).items():
            words = words.with_catalogue(owner, catalogue)
        self.words = words
        self.piece_owner: dict[str, str] = {
            p.id: uid for uid, unit in self.edition.units.items() for p in unit.pieces
        }
        self._names: dict[tuple[str | None, str | None], str] = {}  # `unit`'s answers, which never change

    # --- lookups ------------------------------------------------------------------------------
    def has(self, owner: str, key: str) -> bool:
        return self.words.template(owner, key, self.lang) is not None

    def text(self, owner: str, key: str, **params: Any) -> str:
        return self.words.text(owner, key, self.lang, **params)

    def first(self, owner: str, keys: Iterable[str]) -> str | None:
        """The first of `keys` that `owner`'s catalogue has."""
        return next((k for k in keys if self.has(owner, k)), None)

    def core(self, key: str, **params: Any) -> str:
        return self.text(CORE, key, **params)

    def join(self, items: Iterable[str], last: bool = False) -> str:
        """Items joined with the list separator (`last`: the final pair with "and")."""
        items = [x for x in items if x]
        if last and len(items) > 1:
            return self.core("list.and", first=self.core("list.sep").join(items[:-1]), last=items[-1])
        return self.core("list.sep").join(items)

    # --- names ----------------------------------------------------------------------------------
    def forms(self, name: str, uid: str | None) -> dict[str, Any]:
        """The parameters `<name>_<case>` of a unit's case forms (`CASES`), each worked out only if a
        template uses it."""
        return {f"{name}_{case}": partial(self.unit, uid, case) for case in CASES}

    def unit(self, uid: str | None, case: str | None = None) -> str:
        """The name of a race, power or marker (or the natives) in this language; with `case`
        ("dat", "gen") its form in that grammatical case where the language has one (German
        "von Trollen", "der Verlassenen": `name.dat`, `name.gen`, `natives.dat`), else the name."""
        name = self._names.get((uid, case))
        if name is None:
            name = self._names[uid, case] = self._unit(uid, case)
        return name

    def _unit(self, uid: str | None, case: str | None) -> str:
        if uid is None:
            return self.core("none")
        natives = self.edition.natives
        if natives is not None and uid == natives.id:
            key = f"natives.{case}"
            return self.text(EDITION, key if case and self.has(EDITION, key) else "natives")
        if uid in self.edition.units and self.has(uid, "name"):
            key = f"name.{case}"
            return self.text(uid, key if case and self.has(uid, key) else "name")
        return uid.replace("_", " ")

    def card(self, uid: str) -> str:
        return self.text(uid, "card")

    def piece(self, kind: str, n: int = 1) -> str:
        owner = self.piece_owner.get(kind, EDITION)
        key = f"piece.{kind}"
        return self.text(owner, key, n=n) if self.has(owner, key) else kind.replace("_", " ")

    def terrain(self, terrain: str) -> str:
        key = f"terrain.{terrain}"
        return self.text(EDITION, key) if self.has(EDITION, key) else terrain

    def feature(self, feature: str, **params: Any) -> str:
        key = f"feature.{feature}"
        return self.text(EDITION, key, **params) if self.has(EDITION, key) else feature

    def faction(self, faction: str | None) -> str:
        if faction is None:
            return self.core("none")
        key = f"faction.{faction}"
        return self.text(EDITION, key) if self.has(EDITION, key) else faction

    def seat(self, seat: int | None, listed: bool = False) -> str:
        """A seat as the subject of a sentence ("You", "Seat 2"); `listed`: inside a list."""
        if seat is None:
            return self.core("seat.nobody")
        if seat == self.viewer:
            return self.core("seat.you.listed" if listed else "seat.you")
        return self.core("seat.other", n=seat)

    def region(self, region: int | str | None) -> str:
        """`7 Ashen Vale`: the number to type and the name."""
        m = self.game.map
        if isinstance(region, str):
            try:
                region = int(m.index(region))
            except KeyError:
                return str(region)
        if not isinstance(region, int) or not 0 <= region < m.n:
            return str(region)
        return self.core("region", n=region, name=m.regions[region].name)

    def phase(self, phase: str) -> str:
        key = f"phase.{phase}"
        return self.core(key) if self.has(CORE, key) else phase.replace("_", " ")

    def choice(self, owner: str, value: Any) -> str:
        key = f"choice.{value}"
        for who in (owner, CORE):
            if self.has(who, key):
                return self.text(who, key)
        return str(value)

    def option(self, option: str) -> str:
        """A named conquest option (`a` or `a+b`): each unit's `option` words, else its name."""
        parts = [
            self.text(uid, "option") if self.has(uid, "option") else self.unit(uid)
            for uid in option.split(OPTION_JOIN)
        ]
        return self.join(parts, last=True)

    def payer_reason(self, why: str) -> str:
        """The unit whose rule asks for a payment (its id), as its name."""
        return self.unit(why)

    def score_items(self, items: Mapping[str, int]) -> str:
        """`3 regions, 1 Mining`: a score's breakdown by item."""
        parts = []
        for key, n in items.items():
            if not n:
                continue
            base = key.removesuffix("_declined")
            if self.has(CORE, f"score.{key}"):
                parts.append(self.core(f"score.{key}", n=n))
            elif base in self.edition.units:
                which = "score.unit" if base == key else "score.unit_declined"
                parts.append(self.core(which, n=n, name=self.unit(base)))
            else:
                parts.append(f"{n} {key.replace('_', ' ')}")
        return self.join(parts)

    # --- declared values as text ------------------------------------------------------------------
    def value(self, owner: str, f: Field, v: Any) -> Any:
        """One field's value as a parameter: text, or the number/flag itself (INT, BOOL)."""
        t = f.type
        if t == FieldType.SEAT:
            return self.seat(v)
        if v is None:
            return self.core("none")
        if t in (FieldType.INT, FieldType.BOOL):
            return v
        if t == FieldType.REGION:
            return self.region(v)
        if t == FieldType.REGIONS:
            return self.join((self.region(r) for r in v), last=True)
        if t == FieldType.SEATS:
            return self.join((self.seat(s, listed=True) for s in v), last=True)
        if t == FieldType.UNIT:
            return self.unit(v)
        if t == FieldType.PIECE:
            return self.piece(v)
        if t == FieldType.CHOICE:
            return self.choice(owner, v)
        if t == FieldType.CHOICES:
            return self.join(self.choice(owner, x) for x in v)
        if t in (FieldType.INTS, FieldType.ROLLS):
            return self.join(str(x) for x in v)
        if t == FieldType.ITEMS:
            return self.score_items(v)
        if t == FieldType.PIECES:
            return self.join((f"{n} {self.piece(k, n)}" for k, n in v.items() if n), last=True)
        if t == FieldType.TEXT:
            if v in self.edition.pieces:
                return self.piece(v)
            return self.core(f"text.{v}") if self.has(CORE, f"text.{v}") else str(v)
        return ""  # objects are for programs, not for sentences

    def params(self, owner: str, fields: Iterable[Field], data: Mapping[str, Any]) -> dict[str, Any]:
        """Every declared field present in `data` as a parameter; each seat field `f` also gives the
        flags `f_you` (it is the viewer) and `f_self` (it is the same seat as the field `seat`), each
        list, items or pieces field the flag `f_any` (it is present and not empty), each integer
        field the flag `f_any` (it is not 0), each unit field its case forms `f_dat`, `f_gen`."""
        out: dict[str, Any] = {}
        for f in fields:
            if f.name not in data:
                if f.type in _LISTS:
                    out[f"{f.name}_any"] = False  # an optional list left out is an empty one
                continue
            v = data[f.name]
            out[f.name] = self.value(owner, f, v)
            if f.type == FieldType.UNIT:
                out |= self.forms(f.name, v)
            if f.type == FieldType.SEAT:
                out[f"{f.name}_you"] = v is not None and v == self.viewer
                if f.name != "seat":
                    out[f"{f.name}_self"] = v is not None and v == data.get("seat")
            elif f.type in _LISTS:
                out[f"{f.name}_any"] = bool(v) and (f.type not in _COUNTED or any(v.values()))
            elif f.type == FieldType.INT:
                out[f"{f.name}_any"] = bool(v)
        return out

    # --- events ---------------------------------------------------------------------------------
    def event_key(self, spec: EventSpec, event: Mapping[str, Any]) -> str:
        """The message id of an event: `event.<type>`, or a variant of it.

        Variants, most specific first: `event.<type>.<choice>.<field>`, `event.<type>.<choice>`,
        `event.<type>.<field>`, then `event.<type>`; <choice> is the value of the first CHOICE field
        present (a BOOL field: `yes`/`no`), <field> each optional or nullable field present, in
        declaration order (`<field>_none` when it is null)."""
        base = f"event.{spec.type}"
        choice = None
        for f in spec.fields:
            if f.type in (FieldType.CHOICE, FieldType.BOOL) and event.get(f.name) is not None:
                v = event[f.name]
                choice = ("yes" if v else "no") if f.type == FieldType.BOOL else str(v)
                chosen = f.name
                break
        opts = [
            f.name if event[f.name] is not None else f"{f.name}_none"
            for f in spec.fields
            if (f.optional or f.nullable) and f.name in event and (choice is None or f.name != chosen)
        ]
        keys = []
        if choice is not None:
            keys += [f"{base}.{choice}.{o}" for o in opts] + [f"{base}.{choice}"]
        keys += [f"{base}.{o}" for o in opts] + [base]
        return self.first(spec.unit, keys) or base

    def event(self, event: Mapping[str, Any], **extra: Any) -> str:
        """An event as a sentence, from the catalogue of the unit that declares its type."""
        spec = self.game.event_specs.get(event.get("type"))
        if spec is None:
            details = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("type", "seat"))
            return self.core(
                "event.unknown",
                seat=self.seat(event.get("seat")),
                type=str(event.get("type")).replace("_", " "),
                details=details,
            )
        params = self.params(spec.unit, spec.fields, event)
        return self.text(spec.unit, self.event_key(spec, event), **params, **extra)

    # --- prompts --------------------------------------------------------------------------------
    def prompt(self, prompt: Mapping[str, Any], **extra: Any) -> str:
        """A pending prompt's question, from its unit's `prompt.<id>` with the prompt's fields."""
        unit, pid = str(prompt.get("unit")), str(prompt.get("prompt"))
        spec = self.game.prompt_specs.get((unit, pid))
        fields = spec.fields if spec is not None else ()
        params = self.params(unit, (Field("seat", FieldType.SEAT, "who answers"), *fields), prompt)
        return self.text(unit, f"prompt.{pid}", **params, **extra)

    # --- actions --------------------------------------------------------------------------------
    def arg_type(self, spec: ActionSpec, arg: Any) -> str | None:
        """What an action's argument is, by the declaration (None: no argument)."""
        if arg is None:
            return None
        if isinstance(arg, str):
            if spec.takes(Arg.CHOICE) and arg in spec.choices:
                return Arg.CHOICE.value
            if spec.takes(Arg.PIECE) and arg in self.game.pieces:
                return Arg.PIECE.value
            if spec.takes(Arg.RELIC) and arg in self.edition.relics:
                return Arg.RELIC.value
            if spec.takes(Arg.OPTION):
                return Arg.OPTION.value
        if isinstance(arg, int) and not isinstance(arg, bool):
            if spec.takes(Arg.COUNT):
                return Arg.COUNT.value
            if spec.takes(Arg.REGION):
                return Arg.REGION.value
        if isinstance(arg, tuple | dict):
            return Arg.PLAN.value
        return None

    def action_key(self, spec: ActionSpec, action: Action) -> str:
        """`action.<kind>.<choice>` for a declared choice, `action.<kind>.<n>` for a count,
        `action.<kind>.<type>` for another argument type, else `action.<kind>`."""
        base = f"action.{spec.kind}"
        kind = self.arg_type(spec, action.arg)
        keys = []
        if kind in (Arg.CHOICE.value, Arg.COUNT.value):
            keys.append(f"{base}.{action.arg}")
        elif kind is not None:
            keys.append(f"{base}.{kind}")
        return self.first(spec.unit, [*keys, base]) or base

    def arg(self, spec: ActionSpec, action: Action) -> Any:
        """An action's argument as a parameter."""
        kind = self.arg_type(spec, action.arg)
        a = action.arg
        if kind == Arg.CHOICE.value:
            return self.choice(spec.unit, a)
        if kind == Arg.PIECE.value:
            return self.piece(str(a))
        if kind == Arg.RELIC.value:
            return self.unit(str(a))
        if kind == Arg.OPTION.value:
            return self.option(str(a))
        if kind == Arg.REGION.value:
            return self.region(a)
        if kind == Arg.COUNT.value:
            return a
        return ""

    def action(self, action: Action, **extra: Any) -> str:
        """A move, from the catalogue of the unit that declares its kind: parameters `region`, `arg`,
        `option` and `using` (the named option, as a word and as a clause), then the client's."""
        spec = self.game.action_specs.get(action.kind)
        if spec is None:
            return action.kind
        opt = action.arg if self.arg_type(spec, action.arg) == Arg.OPTION.value else None
        params: dict[str, Any] = {
            "region": self.region(action.region) if action.region is not None else "",
            "arg": self.arg(spec, action),
            "option": self.option(str(opt)) if opt else "",
            "using": self.core("clause.using", option=self.option(str(opt))) if opt else "",
            # A number that names a seat (the Diplomat's ally): the seat as it is named.
            "arg_seat": partial(self.seat, action.arg, listed=True) if type(action.arg) is int else "",
        }
        params.update(extra)
        return self.text(spec.unit, self.action_key(spec, action), **params)

    # --- refusals -------------------------------------------------------------------------------
    def error(self, error: Exception | Mapping[str, Any]) -> str:
        """An error (or its JSON) in words: its reason's sentence and the section it cites, never
        its English message (`smallworld.words.why`)."""
        return refusal.error(self, error)

    def why(self, reason: str, params: Mapping[str, Any] | None = None, rule: str | None = None) -> str:
        """A "why not" (`explain`'s reasons): the reason's sentence and, given, the section."""
        return refusal.told(self, reason, params, rule)
