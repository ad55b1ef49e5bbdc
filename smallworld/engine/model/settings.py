"""Game settings: what creates a game (edition, players, seed, boards, variant, options, values).

Settings are plain JSON; `Settings.from_json` checks every field against the edition it names and
refuses a bad one with `PositionError` naming the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from smallworld.engine.model.edition import get_edition
from smallworld.engine.model.errors import PositionError
from smallworld.engine.model.keyed_rng import GENERATORS, SPLITMIX
from smallworld.engine.model.keyed_rng import SEED_BITS as GENERATOR_SEED_BITS
from smallworld.engine.model.options import check_options, option_specs

DEFAULT_EDITION = "warcraft"
SEED_BITS = 64  # seeds are 0 .. 2**64 - 1: a server draws 64-bit seeds


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


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
    rng: str = SPLITMIX  # the generator: "splitmix64" (seeds below 2**64) or "blake2b" (keyed, 128-bit)

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        if not isinstance(data, dict):
            raise PositionError("settings", "must be an object")
        known: tuple[str, ...] = ("edition", "players", "seed", "boards", "variant", "options", "values")
        known += ("races", "powers", "rng")
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise PositionError(f"settings.{unknown[0]}", f"unknown field; known: {list(known)}")
        edition = get_edition(data.get("edition", DEFAULT_EDITION))
        players = data.get("players")
        if not _is_int(players) or players not in edition.rounds:
            counts = sorted(edition.rounds)
            raise PositionError("settings.players", f"must be one of {counts}, got {players!r}")
        generator = data.get("rng", SPLITMIX)
        if generator not in GENERATORS:
            raise PositionError("settings.rng", f"must be one of {list(GENERATORS)}, got {generator!r}")
        bits = GENERATOR_SEED_BITS[generator]
        seed = data.get("seed", 0)
        if not _is_int(seed) or not 0 <= seed < 2**bits:
            raise PositionError("settings.seed", f"must be an integer 0 .. 2**{bits} - 1")
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
        assert isinstance(players, int)
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
            rng=generator,
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
        if self.rng != SPLITMIX:
            out["rng"] = self.rng
        if self.races is not None:
            out["races"] = list(self.races)
        if self.powers is not None:
            out["powers"] = list(self.powers)
        return out


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
