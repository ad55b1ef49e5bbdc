"""Error types. Every error a caller can provoke derives from `SmallworldError` (a ValueError).

Each error carries a stable machine `code` (what a server sends to its clients), a message in
words, and where it applies the `rule` it cites or the input `field` that is wrong:

| code | class | when |
|---|---|---|
| `malformed_action` | `MalformedActionError` | not an action of this game (type, kind, region, argument) |
| `not_your_turn` | `NotYourTurnError` | a seat sends an action while another seat is to act |
| `illegal_action` | `IllegalActionError` | a well-formed action the rules forbid now (`rule` says which) |
| `game_over` | `GameOverError` | any action once the game has ended |
| `invalid_input` | `PositionError` | a file, settings or position that cannot be loaded (`field` names it) |
"""

from __future__ import annotations

from typing import Any


class SmallworldError(ValueError):
    """Base class of every error the engine raises on bad input."""

    code = "error"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": str(self)}
        for key in ("rule", "field"):
            value = getattr(self, key, None)
            if value is not None:
                out[key] = value
        return out


class IllegalActionError(SmallworldError):
    """An action that the rules forbid now. `rule` names the section, e.g. "§6.5"."""

    code = "illegal_action"

    def __init__(self, rule: str, message: str, action: object = None) -> None:
        self.rule = rule
        self.action = action
        super().__init__(f"{rule}: {message}")


class GameOverError(IllegalActionError):
    """Any action after the end of the game."""

    code = "game_over"


class NotYourTurnError(SmallworldError):
    """An action sent for a seat that is not the one to act."""

    code = "not_your_turn"

    def __init__(self, seat: int, acting: int) -> None:
        self.seat = seat
        self.acting = acting
        super().__init__(f"seat {seat} may not act now: seat {acting} is to act")


class MalformedActionError(SmallworldError):
    """An input that is not an action of this game; `field` names the part that is wrong."""

    code = "malformed_action"

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


class PositionError(SmallworldError):
    """A position, save, settings or options file that cannot be loaded; names the field."""

    code = "invalid_input"

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")
