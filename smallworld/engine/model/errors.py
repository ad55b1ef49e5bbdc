"""Error types. Every error a caller can provoke derives from `SmallworldError` (a ValueError).

Each error carries a stable machine `code` (what a server sends to its clients), a message in
English words, where it applies the `rule` it cites or the input `field` that is wrong, and a
`reason` with its `params`: the key of the sentence that the catalogues of `smallworld.words` hold
for it in every language (`why.<reason>` of the core, or `why.<key>` of the unit or edition for a
reason `<unit>.<key>` / `edition.<key>`), and the values it is filled with, as plain JSON (numbers,
region refs "SIDE:ID", unit ids, piece kinds, phase names). `smallworld.words.voice.Voice.error`
renders it for a person; the English message stays for programs and logs:

| code | class | when |
|---|---|---|
| `malformed_action` | `MalformedActionError` | not an action of this game (type, kind, region, argument) |
| `not_your_turn` | `NotYourTurnError` | a seat sends an action while another seat is to act |
| `illegal_action` | `IllegalActionError` | a well-formed action the rules forbid now (`rule` says which) |
| `game_over` | `GameOverError` | any action once the game has ended |
| `invalid_input` | `PositionError` | a file, settings or position that cannot be loaded (`field` names it) |
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

REFUSED = "refused"  # the reason of a refusal that names none (words: "not allowed now")


class Why(tuple[str, str]):
    """Why an action is refused: `(rule, message)` as before (it unpacks as a pair), plus the
    `reason` key of its words and their `params` (see the module docstring)."""

    reason: str
    params: dict[str, Any]

    def __new__(cls, rule: str, message: str, reason: str = REFUSED, **params: Any) -> Why:
        self = super().__new__(cls, (rule, message))
        self.reason = reason
        self.params = params
        return self

    @property
    def rule(self) -> str:
        return self[0]

    @property
    def message(self) -> str:
        return self[1]


def reason_of(why: tuple[Any, str]) -> tuple[str, dict[str, Any]]:
    """The reason and parameters of a (rule, message) answer: a `Why`'s own, else `refused`."""
    if isinstance(why, Why):
        return why.reason, dict(why.params)
    return REFUSED, {}


class SmallworldError(ValueError):
    """Base class of every error the engine raises on bad input."""

    code = "error"
    reason = ""
    params: Mapping[str, Any] = {}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": str(self)}
        for key in ("rule", "field"):
            value = getattr(self, key, None)
            if value is not None:
                out[key] = value
        out["reason"] = self.reason or self.code
        out["params"] = dict(self.params)
        return out


class IllegalActionError(SmallworldError):
    """An action that the rules forbid now. `rule` names the section, e.g. "§6.5"."""

    code = "illegal_action"

    def __init__(
        self,
        rule: str,
        message: str,
        action: object = None,
        reason: str = REFUSED,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.rule = rule
        self.action = action
        self.reason = reason
        self.params = dict(params or {})
        super().__init__(f"{rule}: {message}")

    @classmethod
    def of(cls, why: tuple[str, str], action: object = None) -> IllegalActionError:
        """The error of a `Why` (or of a plain (rule, message) pair)."""
        reason, params = reason_of(why)
        return cls(why[0], why[1], action, reason, params)


class GameOverError(IllegalActionError):
    """Any action after the end of the game."""

    code = "game_over"


class NotYourTurnError(SmallworldError):
    """An action sent for a seat that is not the one to act."""

    code = "not_your_turn"
    reason = "not_your_turn"

    def __init__(self, seat: int, acting: int) -> None:
        self.seat = seat
        self.acting = acting
        self.params = {"seat": seat, "acting_seat": acting}
        super().__init__(f"seat {seat} may not act now: seat {acting} is to act")


class MalformedActionError(SmallworldError):
    """An input that is not an action of this game; `field` names the part that is wrong."""

    code = "malformed_action"

    def __init__(
        self, field: str, message: str, reason: str = "malformed", params: Mapping[str, Any] | None = None
    ) -> None:
        self.field = field
        self.reason = reason
        self.params = {"field": field, **(params or {})}
        super().__init__(f"{field}: {message}")


class PositionError(SmallworldError):
    """A position, save, settings or options file that cannot be loaded; names the field."""

    code = "invalid_input"

    def __init__(
        self, field: str, message: str, reason: str = "invalid_input", params: Mapping[str, Any] | None = None
    ) -> None:
        self.field = field
        self.reason = reason
        self.params = {"field": field, **(params or {})}
        super().__init__(f"{field}: {message}")
