"""Casual games from a position (issue 28): `POST /api/games` with a `position` document
(docs/positions.md) starts the game there instead of at the game's initial state.

The document is checked by the engine's position loader (`scenario.build`: its `PositionError`s
name the field), then kept in the game's `meta` (`meta["position"]`: the position and its scripted
rolls), so that every rebuild of the game (a restart, another process, the replay) starts from it
and replays the stored action log on top, as a game from the initial state does.

The dice stay secret: the document's `seed` and `rng` settings are replaced by the server's own
128-bit key and keyed generator, like any game's, so the shuffles the position leaves out and every
die after the document's scripted `rolls` are drawn from a key nobody sees until the game ends. The
scripted rolls are known to whoever wrote the document, so such a game is casual, never rated, and
its summary says so (`from_position: true`). Plies count from the position: ply 0 is the position.
"""

from __future__ import annotations

from typing import Any

from smallworld import scenario
from smallworld.engine.api.game import Game
from smallworld.engine.model.errors import PositionError
from smallworld.engine.model.state import State
from smallworld.server.errors import ServerError

# A position document's fields (docs/positions.md); `actions` and `expect` belong to test files.
FIELDS = ("format", "title", "rules", "settings", "position", "rolls")
# Settings the server decides: its secret key and its keyed generator.
SERVER_SETTINGS = ("seed", "rng")


def settings_of(doc: Any, given: dict[str, Any]) -> dict[str, Any]:
    """The settings of a game from the position document `doc`: the create body's (`given`: its
    `players` is one per seat) with the document's own `settings`; a setting in both must agree.
    The document's `seed` and `rng` are dropped (the server draws its own)."""
    if not isinstance(doc, dict):
        raise ServerError(
            "invalid_input", "position: a position document (docs/positions.md) is an object", "position"
        )
    unknown = sorted(str(k) for k in doc if k not in FIELDS)
    if unknown:
        raise ServerError(
            "invalid_input",
            f"position.{unknown[0]}: unknown field; known: {list(FIELDS)}",
            f"position.{unknown[0]}",
        )
    if doc.get("format", scenario.FORMAT) != scenario.FORMAT:
        raise ServerError(
            "invalid_input", f"position.format: expected {scenario.FORMAT!r}", "position.format"
        )
    own = doc.get("settings", {})
    if not isinstance(own, dict):
        raise PositionError("settings", "must be an object")
    out = dict(given)
    for key, value in own.items():
        if key in SERVER_SETTINGS:
            continue
        if key in given and given[key] != value:
            where = "seats" if key == "players" else key
            raise ServerError(
                "invalid_input",
                f"{where}: the position's settings.{key} is {value!r}, the request's {given[key]!r}",
                where,
            )
        out[key] = value
    return out


def stored(doc: dict[str, Any]) -> dict[str, Any]:
    """What `meta["position"]` keeps of the document: the position and its scripted rolls."""
    position = doc.get("position", {})
    out: dict[str, Any] = {"position": {**position, "ply": 0} if isinstance(position, dict) else position}
    if "title" in doc:
        out["title"] = doc["title"]
    if "rolls" in doc:
        out["rolls"] = doc["rolls"]
    return out


def start(game: Game, kept: dict[str, Any]) -> State:
    """The game's state at the position (`kept`: `meta["position"]`), with the game's own
    generator (its secret key): the loader's checks, the state's invariants included."""
    st = scenario.build_on(game, kept)
    if st.result is not None:
        raise PositionError("position.result", "the game is over at this position: nothing to play")
    return st


def first_state(game: Game, meta: dict[str, Any]) -> State:
    """Where a stored game starts: its position when it has one, else the initial state."""
    kept = meta.get("position")
    return start(game, kept) if kept else game.new_initial_state()
