"""Position files: a position, the actions to play from it, and what should follow.

Format: docs/positions.md, schema: docs/position.schema.json. `run` loads a file, applies its
actions in order and stops at the first rejected one, reporting its rule.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smallworld.engine import conquest
from smallworld.engine.actions import Action
from smallworld.engine.errors import IllegalActionError, PositionError, SmallworldError
from smallworld.engine.game import Game
from smallworld.engine.notation import parse
from smallworld.engine.options import Settings
from smallworld.engine.serialize import state_from_json
from smallworld.engine.state import State

FORMAT = "smallworld-position/1"


@dataclass
class Outcome:
    state: State
    applied: list[str]
    error: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {"position": self.state.to_json(), "applied": self.applied, "error": self.error}


def load(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise PositionError("file", f"cannot read {path}: {e}") from None
    if not isinstance(data, dict):
        raise PositionError("file", "a position file holds one JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise PositionError("format", f"expected {FORMAT!r}")
    return data


def build(data: dict[str, Any]) -> State:
    game = Game(Settings.from_json(data.get("settings")))
    st = state_from_json(game, data.get("position") or {})
    rolls = data.get("rolls")
    if rolls is not None:
        if not isinstance(rolls, list) or any(r not in game.options.die_faces for r in rolls):
            raise PositionError("rolls", f"must be a list of die faces {sorted(set(game.options.die_faces))}")
        st.rolls = list(rolls) + st.rolls
    return st


def to_action(st: State, item: Any) -> Action:
    return parse(st, item) if isinstance(item, str) else Action.from_json(item)


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
