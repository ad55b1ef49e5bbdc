"""Error types. Every error a caller can provoke derives from `SmallworldError` (a ValueError)."""

from __future__ import annotations


class SmallworldError(ValueError):
    """Base class of every error the engine raises on bad input."""


class IllegalActionError(SmallworldError):
    """An action that the rules forbid now. `rule` names the section, e.g. "§6.5"."""

    def __init__(self, rule: str, message: str, action: object = None) -> None:
        self.rule = rule
        self.action = action
        super().__init__(f"{rule}: {message}")


class PositionError(SmallworldError):
    """A position, save or settings file that cannot be loaded; names the field."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")
