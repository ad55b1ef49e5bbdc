"""Actions: small, hashable, JSON-serialisable decision values.

An action is a `(kind, region, arg)` tuple. `region` is a flat region index of the game's map or
None; `arg` is a small int or str or None. `json.dumps(action)` gives `["conquer", 4, null]`.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Action(NamedTuple):
    kind: str
    region: int | None = None
    arg: int | str | None = None

    @classmethod
    def from_json(cls, data: Any) -> Action:
        from smallworld.engine.errors import SmallworldError

        if isinstance(data, dict):
            data = [data.get("kind"), data.get("region"), data.get("arg")]
        if not isinstance(data, list | tuple) or not 1 <= len(data) <= 3:
            raise SmallworldError(f"action: expected [kind, region, arg], got {data!r}")
        kind, region, arg = [*list(data), None, None][:3]
        if not isinstance(kind, str):
            raise SmallworldError(f"action.kind: expected a string, got {kind!r}")
        if region is not None and (not isinstance(region, int) or isinstance(region, bool)):
            raise SmallworldError(f"action.region: expected an integer or null, got {region!r}")
        if arg is not None and not isinstance(arg, int | str):
            raise SmallworldError(f"action.arg: expected an integer, string or null, got {arg!r}")
        return cls(kind, region, arg)


# Action kinds of the core rules. Content units add their own kinds.
PICK = "pick"  # arg = row position 0..5 (cost = position)
DECLINE = "decline"
EXPAND = "expand"
CONQUER = "conquer"  # region; arg = optional named option (e.g. an artifact) or None
FINAL = "final"  # final conquest attempt with the reinforcement die
ABANDON = "abandon"
END = "end"  # end conquests
DEPLOY = "deploy"  # region; arg None = one token, "all" = every token in hand
