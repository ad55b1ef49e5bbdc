"""Game settings and the named rule options.

Every `RES` of the rules with a real alternative is a named option: the engine declares the ones
of its core rules (`CORE_OPTIONS`), an edition and its units declare their own (`OptionSpec`), and
each default is the resolution that the rulebook specification documents. Settings are plain
JSON: `Settings.from_json` names the bad field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from smallworld.engine.errors import PositionError

if TYPE_CHECKING:
    from smallworld.engine.edition import Edition

DEFAULT_EDITION = "warcraft"
SEED_BITS = 64  # seeds are 0 .. 2**64 - 1: a server draws 64-bit seeds


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

    __slots__ = ("_specs", "_values")

    _specs: dict[str, OptionSpec]
    _values: dict[str, Any]

    def __init__(self, specs: tuple[OptionSpec, ...] = CORE_OPTIONS, values: dict[str, Any] | None = None):
        object.__setattr__(self, "_specs", {s.name: s for s in specs})
        merged = {s.name: s.default for s in specs}
        merged.update(values or {})
        object.__setattr__(self, "_values", merged)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise AttributeError(name) from None

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
        return {
            k: self._specs[k].to_json(v) for k, v in self._values.items() if v != self._specs[k].default
        }


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


@dataclass(frozen=True)
class Settings:
    """What creates a game: edition, players, seed, boards, variant, rule options, content values.

    `options` holds only the options that differ from their defaults (`from_json` checks them)."""

    players: int
    seed: int = 0
    boards: tuple[Any, ...] | None = None  # side ids or inline side objects; None = drawn
    variant: str = "standard"
    options: dict[str, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)  # {"races": {id: {"value": n}}, ...}
    races: tuple[str, ...] | None = None  # the banner pool; None = every race of the edition
    powers: tuple[str, ...] | None = None  # the badge pool; None = every power of the edition
    edition: str = DEFAULT_EDITION

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        if not isinstance(data, dict):
            raise PositionError("settings", "must be an object")
        known = ("edition", "players", "seed", "boards", "variant", "options", "values", "races", "powers")
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise PositionError(f"settings.{unknown[0]}", f"unknown field; known: {list(known)}")
        from smallworld.engine.edition import get_edition

        edition = get_edition(data.get("edition", DEFAULT_EDITION))
        players = data.get("players")
        if not _is_int(players) or players not in edition.rounds:
            counts = sorted(edition.rounds)
            raise PositionError("settings.players", f"must be one of {counts}, got {players!r}")
        seed = data.get("seed", 0)
        if not _is_int(seed) or not 0 <= seed < 2**SEED_BITS:
            raise PositionError("settings.seed", f"must be an integer 0 .. 2**{SEED_BITS} - 1")
        boards = data.get("boards")
        if boards is not None:
            if not isinstance(boards, list) or not boards or len(boards) > 16:
                raise PositionError("settings.boards", "must be a non-empty list of side ids or side objects")
            for i, b in enumerate(boards):
                if not isinstance(b, str | dict):
                    raise PositionError(f"settings.boards[{i}]", "must be a side id or a side object")
            boards = tuple(boards)
        variant = data.get("variant", "standard")
        if not isinstance(variant, str):
            raise PositionError("settings.variant", "must be a string")
        edition.variant(variant)
        values = data.get("values", {})
        if not isinstance(values, dict) or any(k not in ("races", "powers") for k in values):
            raise PositionError("settings.values", "must be an object with keys 'races' and/or 'powers'")
        pools: dict[str, tuple[str, ...] | None] = {}
        for key in ("races", "powers"):
            pool = data.get(key)
            if pool is not None and (not isinstance(pool, list) or not all(isinstance(x, str) for x in pool)):
                raise PositionError(f"settings.{key}", "must be a list of ids")
            pools[key] = tuple(pool) if pool is not None else None
        return cls(
            players=players,
            seed=seed,
            boards=boards,
            variant=variant,
            options=check_options(option_specs(edition), data.get("options")),
            values=values,
            races=pools["races"],
            powers=pools["powers"],
            edition=edition.id,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"edition": self.edition, "players": self.players, "seed": self.seed}
        if self.boards is not None:
            out["boards"] = list(self.boards)
        if self.variant != "standard":
            out["variant"] = self.variant
        if self.options:
            out["options"] = {k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items()}
        if self.values:
            out["values"] = self.values
        if self.races is not None:
            out["races"] = list(self.races)
        if self.powers is not None:
            out["powers"] = list(self.powers)
        return out


OVERRIDE_KEYS = ("options", "values", "races", "powers", "boards")


def load_options_file(path: str | Path, edition: str = DEFAULT_EDITION) -> dict[str, Any]:
    """Read an options file (docs/options.md): rule options, content values and pools that every
    game a command creates will use. Checked at once, so a bad file is refused naming its field."""
    from smallworld.engine.jsonio import read_json

    data = read_json(path, "options file")
    if not isinstance(data, dict):
        raise PositionError("options file", "must hold one JSON object")
    unknown = sorted(str(k) for k in set(data) - set(OVERRIDE_KEYS) - {"about"})
    if unknown:
        raise PositionError(unknown[0], f"unknown key; an options file may give {OVERRIDE_KEYS}")
    overrides = {k: data[k] for k in OVERRIDE_KEYS if k in data}
    from smallworld.engine.game import Game

    Game(make_settings(2, 0, "standard", overrides, edition))  # checks every field now, not mid-run
    return overrides


def make_settings(
    players: int, seed: int, variant: str, overrides: dict[str, Any] | None, edition: str = DEFAULT_EDITION
) -> Settings:
    """Settings for a new game from a command's arguments and an options file's overrides."""
    data: dict[str, Any] = {
        "edition": edition,
        "players": players,
        "seed": seed,
        "variant": variant,
        **(overrides or {}),
    }
    return Settings.from_json(data)
