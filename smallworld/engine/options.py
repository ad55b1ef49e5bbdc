"""Game settings and the named rule options (every `RES` of the rules in scope, §1-§7).

Each option's default is the resolution documented in `warcraft-rules.md`; `OPTION_DOCS` says
which ambiguity it settles. Settings are plain JSON: `Settings.from_json` names the bad field.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from smallworld.engine.errors import PositionError

ROUNDS = {2: 10, 3: 10, 4: 9, 5: 8}  # §5


@dataclass(frozen=True)
class RuleOptions:
    die_faces: tuple[int, ...] = (0, 0, 0, 1, 2, 3)
    first_player: int | None = None
    returned_banner: str = "first_empty_slot"
    max_final_shortfall: int = 3
    tokenless_active_race: str = "return_and_pick"
    own_decline_bonus: bool = False
    tie_break: str = "race_tokens"
    withdrawn_order: str = "clockwise"
    chapel_protects: str = "race"
    portal_pairs: str = "any"

    @classmethod
    def from_json(cls, data: Any) -> RuleOptions:
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise PositionError("settings.options", "must be an object")
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise PositionError(f"settings.options.{key}", f"unknown rule option; known: {sorted(known)}")
            if key == "die_faces":
                if (
                    not isinstance(value, list)
                    or not value
                    or any(not isinstance(v, int) or v < 0 for v in value)
                ):
                    raise PositionError("settings.options.die_faces", "must be a list of integers >= 0")
                value = tuple(value)
            elif key == "first_player":
                if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                    raise PositionError("settings.options.first_player", "must be a seat number or null")
            elif key == "max_final_shortfall":
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise PositionError("settings.options.max_final_shortfall", "must be an integer >= 0")
            elif key == "own_decline_bonus" and not isinstance(value, bool):
                raise PositionError("settings.options.own_decline_bonus", "must be true or false")
            choices = OPTION_CHOICES.get(key)
            if choices and value not in choices:
                raise PositionError(f"settings.options.{key}", f"must be one of {choices}")
            kwargs[key] = value
        return cls(**kwargs)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["die_faces"] = list(self.die_faces)
        return out

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults (what a save needs to record)."""
        default = RuleOptions().to_json()
        return {k: v for k, v in self.to_json().items() if default[k] != v}


OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "returned_banner": ("first_empty_slot", "stack_bottom"),
    "tokenless_active_race": ("return_and_pick", "keep"),
    "tie_break": ("race_tokens", "none"),
    "withdrawn_order": ("clockwise",),
    "portal_pairs": ("any", "one_own"),
    "chapel_protects": ("race", "region"),
}

OPTION_DOCS: dict[str, str] = {
    "die_faces": "AMB-01 (§1.4): faces of the reinforcement die.",
    "first_player": "§3.2 step 9: seat that plays first; null draws it from the seed.",
    "returned_banner": "AMB-08 (§6.17): a returned banner fills the first empty row slot, or always "
    "goes to the bottom of the stack.",
    "max_final_shortfall": "AMB-41 (§6.10): the largest shortfall a final die attempt may have.",
    "tokenless_active_race": "AMB-34: an Active race with no token left returns its banner at the start "
    "of its owner's turn, who picks again ('keep' leaves it in play).",
    "own_decline_bonus": "AMB-43: whether taking a region of one's own In-Decline race earns bonuses.",
    "tie_break": "§7: break a tie on coins by race tokens on the boards ('none': shared victory).",
    "chapel_protects": "AMB-21 (§10.3): Light's Hope Chapel spares the losses of the whole race holding "
    "it ([EN]/[PT]), or only when the Chapel region itself is attacked ('region', [DE]).",
    "withdrawn_order": "§6.12 RES: order in which opponents redeploy withdrawn tokens.",
    "portal_pairs": "AMB-16 (§9.17): Portal Mage swaps any two Magic regions, or only pairs where one "
    "region is the Portal Mage race's own ('one_own').",
}


@dataclass(frozen=True)
class Settings:
    """What creates a game: players, seed, boards, variant, rule options, content values."""

    players: int
    seed: int = 0
    boards: tuple[Any, ...] | None = None  # side ids or inline side objects; None = drawn (§3.1)
    variant: str = "standard"
    options: RuleOptions = field(default_factory=RuleOptions)
    values: dict[str, Any] = field(default_factory=dict)  # {"races": {id: {"value": n}}, ...}
    races: tuple[str, ...] | None = None  # the banner pool; None = all 16
    powers: tuple[str, ...] | None = None  # the badge pool; None = all 20

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        if not isinstance(data, dict):
            raise PositionError("settings", "must be an object")
        players = data.get("players")
        if not isinstance(players, int) or players not in ROUNDS:
            raise PositionError("settings.players", f"must be 2, 3, 4 or 5, got {players!r}")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PositionError("settings.seed", "must be an integer")
        boards = data.get("boards")
        if boards is not None:
            if not isinstance(boards, list) or not boards:
                raise PositionError("settings.boards", "must be a non-empty list of side ids or side objects")
            for i, b in enumerate(boards):
                if not isinstance(b, str | dict):
                    raise PositionError(f"settings.boards[{i}]", "must be a side id or a side object")
            boards = tuple(boards)
        variant = data.get("variant", "standard")
        if not isinstance(variant, str):
            raise PositionError("settings.variant", "must be a string")
        values = data.get("values", {})
        if not isinstance(values, dict) or any(k not in ("races", "powers") for k in values):
            raise PositionError("settings.values", "must be an object with keys 'races' and/or 'powers'")
        pools = {}
        for key in ("races", "powers"):
            pool = data.get(key)
            if pool is not None and (not isinstance(pool, list) or not all(isinstance(x, str) for x in pool)):
                raise PositionError(f"settings.{key}", "must be a list of ids")
            pools[key] = tuple(pool) if pool is not None else None
        unknown = set(data) - {"players", "seed", "boards", "variant", "options", "values", "races", "powers"}
        if unknown:
            raise PositionError(f"settings.{sorted(unknown)[0]}", "unknown field")
        return cls(
            players=players,
            seed=seed,
            boards=boards,
            variant=variant,
            options=RuleOptions.from_json(data.get("options")),
            values=values,
            races=pools["races"],
            powers=pools["powers"],
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "seed": self.seed}
        if self.boards is not None:
            out["boards"] = list(self.boards)
        if self.variant != "standard":
            out["variant"] = self.variant
        opts = self.options.changed()
        if opts:
            out["options"] = opts
        if self.values:
            out["values"] = self.values
        if self.races is not None:
            out["races"] = list(self.races)
        if self.powers is not None:
            out["powers"] = list(self.powers)
        return out


OVERRIDE_KEYS = ("options", "values", "races", "powers", "boards")


def load_options_file(path: str) -> dict[str, Any]:
    """Read an options file (docs/options.md): rule options, content values and pools that every
    game a command creates will use. Checked at once, so a bad file is refused naming its field."""
    import json
    from pathlib import Path

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise PositionError("options file", f"cannot read {path}: {e}") from None
    if not isinstance(data, dict):
        raise PositionError("options file", "must hold one JSON object")
    unknown = sorted(set(data) - set(OVERRIDE_KEYS) - {"about"})
    if unknown:
        raise PositionError(unknown[0], f"unknown key; an options file may give {OVERRIDE_KEYS}")
    overrides = {k: data[k] for k in OVERRIDE_KEYS if k in data}
    from smallworld.engine.game import Game

    Game(make_settings(2, 0, "standard", overrides))  # checks every field now, not mid-simulation
    return overrides


def make_settings(players: int, seed: int, variant: str, overrides: dict[str, Any] | None) -> Settings:
    """Settings for a new game from a command's arguments and an options file's overrides."""
    data: dict[str, Any] = {"players": players, "seed": seed, "variant": variant, **(overrides or {})}
    return Settings.from_json(data)
