"""The named rule options.

Every `RES` of the rules with a real alternative is a named option: the engine declares the ones
of its core rules (`CORE_OPTIONS`), an edition and its units declare their own (`OptionSpec`), and
each default is the resolution that the rulebook specification documents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.errors import PositionError

if TYPE_CHECKING:
    from smallworld.engine.model.edition import Edition


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@dataclass(frozen=True)
class OptionSpec:
    """A named rule option: its default (the documented resolution), its allowed values and what it
    settles. Declared by the engine, by an edition or by the unit whose rule it changes."""

    name: str
    default: Any
    doc: str
    kind: str = "choice"  # "choice", "bool", "count" (int >= 0), "seat" (int >= 0 or null), "faces"
    choices: tuple[Any, ...] = ()
    unit: str = "core"

    def check(self, value: Any) -> Any:
        """The value as the engine stores it, or PositionError naming the option."""
        where = f"settings.options.{self.name}"
        if self.kind == "faces":
            if (
                not isinstance(value, list | tuple)
                or not value
                or len(value) > 64
                or any(not _is_int(v) or not 0 <= v <= 1000 for v in value)
            ):
                raise PositionError(where, "must be a non-empty list of integers 0..1000")
            return tuple(value)
        if self.kind == "seat":
            if value is not None and (not _is_int(value) or not 0 <= value < 5):
                raise PositionError(where, "must be a seat number 0..4 or null")
            return value
        if self.kind == "count":
            if not _is_int(value) or not 0 <= value <= 1000:
                raise PositionError(where, "must be an integer 0..1000")
            return value
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise PositionError(where, "must be true or false")
            return value
        if isinstance(value, bool) or not isinstance(value, str | int) or value not in self.choices:
            raise PositionError(where, f"must be one of {list(self.choices)}")
        return value

    def to_json(self, value: Any) -> Any:
        return list(value) if self.kind == "faces" else value

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the option's value (schemas and docs are generated from it)."""
        if self.kind == "faces":
            item = {"type": "integer", "minimum": 0, "maximum": 1000}
            return {"type": "array", "items": item, "minItems": 1, "maxItems": 64}
        if self.kind == "seat":
            return {"type": ["integer", "null"], "minimum": 0, "maximum": 4}
        if self.kind == "count":
            return {"type": "integer", "minimum": 0, "maximum": 1000}
        if self.kind == "bool":
            return {"type": "boolean"}
        return {"enum": list(self.choices)}


CORE_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("die_faces", (0, 0, 0, 1, 2, 3), "AMB-01 (§1.4): faces of the reinforcement die.", "faces"),
    OptionSpec(
        "first_player", None, "§3.2 step 9: seat that plays first; null draws it from the seed.", "seat"
    ),
    OptionSpec(
        "returned_banner",
        "first_empty_slot",
        "AMB-08 (§6.17): a returned banner fills the first empty row slot, or always goes to the bottom "
        "of the stack.",
        choices=("first_empty_slot", "stack_bottom"),
    ),
    OptionSpec(
        "max_final_shortfall",
        3,
        "AMB-41 (§6.10): the largest shortfall a final die attempt may have.",
        "count",
    ),
    OptionSpec(
        "tokenless_active_race",
        "return_and_pick",
        "AMB-34: an Active race with no token left returns its banner at the start of its owner's turn, "
        "who picks again ('keep' leaves it in play).",
        choices=("return_and_pick", "keep"),
    ),
    OptionSpec(
        "declined_badge",
        "kept",
        "AMB-65 (§6.16): a badge still in effect In Decline (Garrisoned, Marshdweller) stays beside the "
        "In-Decline banner until that race leaves play ([EN]/[DE]); 'discarded': it goes to the badge "
        "discard pile at the decline, like every other badge ([PT]).",
        choices=("kept", "discarded"),
    ),
    OptionSpec(
        "own_decline_bonus",
        False,
        "AMB-43: whether taking a region of one's own In-Decline race earns bonuses.",
        "bool",
    ),
    OptionSpec(
        "tie_break",
        "race_tokens",
        "§7: break a tie on coins by race tokens on the boards ('none': shared victory).",
        choices=("race_tokens", "none"),
    ),
    OptionSpec(
        "conquest_base",
        2,
        "§6.6 (classic §5.2): the tokens every conquest costs before its defenders, pieces and terrain "
        "(both rulebooks print 2; another engine's reading, smawg's, is 3: docs/engine.md).",
        "count",
    ),
    OptionSpec(
        "discarded_badges",
        "discard_pile",
        "§6.3, §6.16 step 2 (classic §5.1, §5.4): a discarded badge goes to the discard pile, shuffled "
        "into a new stack when the stack runs out; 'stack_bottom': straight under the badge stack, "
        "never shuffled (smawg's reading). Standard variant only.",
        choices=("discard_pile", "stack_bottom"),
    ),
    OptionSpec(
        "withdrawn_order",
        "clockwise",
        "§6.12 RES: order in which opponents redeploy withdrawn tokens.",
        choices=("clockwise",),
    ),
)


class RuleOptions:
    """The rule options of one game, read as attributes (`game.options.die_faces`).

    Built from the declarations of the engine, the edition and its units; an option not set keeps
    its declared default. Settings keep only the options that differ from the defaults."""

    _specs: dict[str, OptionSpec]
    _values: dict[str, Any]

    def __init__(self, specs: tuple[OptionSpec, ...] = CORE_OPTIONS, values: dict[str, Any] | None = None):
        object.__setattr__(self, "_specs", {s.name: s for s in specs})
        merged = {s.name: s.default for s in specs}
        merged.update(values or {})
        object.__setattr__(self, "_values", merged)
        for name, value in merged.items():
            if hasattr(RuleOptions, name):
                raise ValueError(f"rule option {name!r} has the name of a method of RuleOptions")
            # Plain attributes too: the engine reads some options at every listing or die roll,
            # and an attribute is read without a call (`__getattr__` is only for unknown names).
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("rule options are read-only")

    def names(self) -> list[str]:
        return list(self._specs)

    def spec(self, name: str) -> OptionSpec:
        return self._specs[name]

    def to_json(self) -> dict[str, Any]:
        return {k: self._specs[k].to_json(v) for k, v in self._values.items()}

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults (what a save needs to record)."""
        return {k: self._specs[k].to_json(v) for k, v in self._values.items() if v != self._specs[k].default}


def check_options(specs: tuple[OptionSpec, ...], data: Any) -> dict[str, Any]:
    """Validate `settings.options` against the declared options; returns the values that differ
    from their defaults, as the engine stores them."""
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise PositionError("settings.options", "must be an object")
    known = {s.name: s for s in specs}
    out: dict[str, Any] = {}
    for key, value in data.items():
        spec = known.get(key)
        if spec is None:
            raise PositionError(f"settings.options.{key}", f"unknown rule option; known: {sorted(known)}")
        v = spec.check(value)
        if v != spec.default:
            out[key] = v
    return out


def option_specs(edition: Edition) -> tuple[OptionSpec, ...]:
    """Every rule option a game of this edition knows: the engine's, the edition's, its units'."""
    return (*CORE_OPTIONS, *edition.options, *edition.unit_options)
