"""The server's own error codes, next to the engine's (`SmallworldError.code`).

Every refusal is answered with the same JSON shape as the engine's errors, `{"code", "message",
"rule"?, "field"?, "reason", "params"}`, and an HTTP status that says which kind of refusal it is.
A server refusal's `reason` is its code (the words `why.<code>` of `smallworld/words/core.json`)
and its `params` name the field, if any."""

from __future__ import annotations

from typing import Any

from smallworld.engine.model.errors import SmallworldError

# code -> HTTP status. The engine's codes are here too, so every refusal has one table.
STATUS: dict[str, int] = {
    "malformed_json": 400,
    "malformed_action": 400,
    "invalid_input": 400,
    "bad_token": 401,
    "bad_login": 401,
    "csrf": 403,
    "account_required": 403,
    "wrong_seat": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "not_your_turn": 409,
    "illegal_action": 409,
    "game_over": 409,
    "stale_ply": 409,
    "not_started": 409,
    "seat_taken": 409,
    "seat_taken_back": 409,
    "not_over": 409,
    "name_taken": 409,
    "account_exists": 409,
    "undo_refused": 409,
    "too_large": 413,
    "rate_limited": 429,
    "limit_reached": 429,
    "unavailable": 503,
    "too_many_sockets": 429,
    # A fault of the server's own (a bug), answered in the same shape and logged with its traceback.
    "internal_error": 500,
}


class ServerError(Exception):
    """A refusal by the server itself (not by the rules)."""

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.field = field

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": str(self)}
        if self.field is not None:
            out["field"] = self.field
        out["reason"] = self.code
        out["params"] = {"field": self.field} if self.field is not None else {}
        return out


def status_of(e: ServerError | SmallworldError) -> int:
    return STATUS.get(e.code, 400)
