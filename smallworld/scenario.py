"""Position files: a position, the actions to play from it, and what should follow.

Format: docs/positions.md, schema: docs/position.schema.json. `run` loads a file, applies its
actions in order and stops at the first rejected one, reporting its rule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smallworld.engine.api.game import Game
from smallworld.engine.api.notation import parse
from smallworld.engine.api.serialize import state_from_json
from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import IllegalActionError, PositionError, SmallworldError
from smallworld.engine.model.jsonio import read_json
from smallworld.engine.model.protocol import check_action
from smallworld.engine.model.settings import Settings
from smallworld.engine.model.state import State
from smallworld.engine.rules import conquest

FORMAT = "smallworld-position/1"


@dataclass
class Outcome:
    state: State
    applied: list[str]
    error: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {"position": self.state.to_json(), "applied": self.applied, "error": self.error}


BOARDS_DIR = "_boards"  # shared test boards: `"boards": ["@name"]` names `_boards/name.json`


def load(path: str | Path) -> dict[str, Any]:
    """Read a position file; boards named "@name" are read from the nearest `_boards/` folder
    above the file (so hundreds of files can share one test island)."""
    data = read_json(path, "position file")
    if not isinstance(data, dict):
        raise PositionError("file", "a position file holds one JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise PositionError("format", f"expected {FORMAT!r}")
    settings = data.get("settings")
    if isinstance(settings, dict) and isinstance(settings.get("boards"), list):
        settings["boards"] = [
            _shared_board(Path(path), b, i) if isinstance(b, str) and b.startswith("@") else b
            for i, b in enumerate(settings["boards"])
        ]
    return data


def _shared_board(path: Path, ref: str, i: int) -> Any:
    name = ref[1:]
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise PositionError(f"settings.boards[{i}]", f"{ref!r} is not a shared board name")
    for folder in path.resolve().parents:
        candidate = folder / BOARDS_DIR / f"{name}.json"
        if candidate.exists():
            return read_json(candidate, f"settings.boards[{i}]")
    raise PositionError(
        f"settings.boards[{i}]", f"no shared board {name!r} in a {BOARDS_DIR}/ folder above the file"
    )


def build(data: dict[str, Any]) -> State:
    """The position of a position file (a test fragment, `"fragment": true`, need not keep every
    invariant of a real game)."""
    return build_on(Game(Settings.from_json(data.get("settings"))), data)


def build_on(game: Game, data: dict[str, Any]) -> State:
    """The position of `data` (its `position`, `fragment` and `rolls`) in `game`, whose settings
    are given apart (a server's game, with its own secret seed)."""
    fragment = data.get("fragment", False)
    if not isinstance(fragment, bool):
        raise PositionError("fragment", "must be true or false")
    st = state_from_json(game, data.get("position") or {}, fragment=fragment)
    rolls = data.get("rolls")
    if rolls is not None:
        faces = set(game.options.die_faces)
        if (
            not isinstance(rolls, list)
            or len(rolls) > 1000
            or any(isinstance(r, bool) or not isinstance(r, int) or r not in faces for r in rolls)
        ):
            raise PositionError("rolls", f"must be a list of die faces {sorted(faces)}")
        st.rolls = list(rolls) + st.rolls
    return st


def to_action(st: State, item: Any) -> Action:
    return parse(st, item) if isinstance(item, str) else check_action(st.game, item)


def run(data: dict[str, Any]) -> Outcome:
    st = build(data)
    applied: list[str] = []
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise PositionError("actions", "must be a list")
    for i, item in enumerate(actions):
        try:
            st.apply(to_action(st, item))
        except IllegalActionError as e:
            return Outcome(st, applied, {"index": i, "action": item, "rule": e.rule, "message": str(e)})
        except SmallworldError as e:
            return Outcome(st, applied, {"index": i, "action": item, "rule": None, "message": str(e)})
        applied.append(item if isinstance(item, str) else json.dumps(item))
    return Outcome(st, applied, None)


def cost_of(st: State, ref: str, option: str | None = None) -> int:
    """The conquest cost of a region for the seat to act (used by `expect.costs`)."""
    r = st.game.map.index(ref)
    return conquest.cost(st, conquest.Attack(st, st.acting_seat), r, option)
