"""Game records: settings + the action log. Replaying a record gives the identical state, so a
save file is a record plus a hash of the state it should reach (checked on load).

Actions are written in their protocol JSON form (`{"kind", "region", "arg"}`, regions "SIDE:ID");
saves of the first format (`[kind, flat index, arg]` lists) still load.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from smallworld.engine.api.game import Game
from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import PositionError, SmallworldError
from smallworld.engine.model.jsonio import read_json
from smallworld.engine.model.protocol import action_to_json, check_action
from smallworld.engine.model.settings import Settings
from smallworld.engine.model.state import State

SAVE_FORMAT = "smallworld-save/2"
OLD_FORMATS = ("smallworld-save/1",)


def state_hash(st: State) -> str:
    text = json.dumps(st.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Record:
    settings: Settings
    actions: list[Action] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # free-form: the human's seat, bots, names, ...

    def replay(self, game: Game | None = None) -> State:
        st = (game or Game(self.settings)).new_initial_state()
        for i, a in enumerate(self.actions):
            try:
                st.apply(a)
            except SmallworldError as e:
                raise PositionError(f"actions[{i}]", f"{list(a)} cannot be replayed: {e}") from None
        return st

    def to_json(self, final: State | None = None, game: Game | None = None) -> dict[str, Any]:
        game = game or (final.game if final is not None else Game(self.settings))
        out: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "settings": self.settings.to_json(),
            "actions": [action_to_json(game, a) for a in self.actions],
        }
        if self.meta:
            out["meta"] = self.meta
        if final is not None:
            out["state_hash"] = state_hash(final)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise PositionError("save", "must be a JSON object")
        fmt = data.get("format")
        if fmt != SAVE_FORMAT and fmt not in OLD_FORMATS:
            raise PositionError("format", f"expected {SAVE_FORMAT!r}, got {fmt!r}"[:200])
        settings = Settings.from_json(data.get("settings"))
        acts = data.get("actions")
        if not isinstance(acts, list):
            raise PositionError("actions", "must be a list")
        game = Game(settings)
        actions = []
        for i, a in enumerate(acts):
            try:
                actions.append(check_action(game, a))
            except SmallworldError as e:
                raise PositionError(f"actions[{i}]", str(e)) from None
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise PositionError("meta", "must be an object")
        return cls(settings, actions, meta)


def save(path: str | Path, record: Record, final: State) -> None:
    """Write atomically: a crash mid-write never leaves a half save behind (nor a stray temporary)."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    try:
        tmp.write_text(json.dumps(record.to_json(final), indent=1), encoding="utf-8")
        tmp.replace(p)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise PositionError("save", f"cannot write {path}: {e.strerror or e}") from None


def load(path: str | Path) -> tuple[Record, State]:
    """Load and replay a save; a corrupt file raises `PositionError` naming the field."""
    data = read_json(path, "save")
    rec = Record.from_json(data)
    st = rec.replay()
    want = data.get("state_hash")
    if want is not None and want != state_hash(st):
        raise PositionError("state_hash", "the replayed game does not match the saved state (corrupt save?)")
    return rec, st
