"""A logged-in browser's session, read once for a moment rather than at every action.

A session (the cookie `sw_session`, accounts.py) is a token that is looked up in the store: a rated
game's seats are played with it (a quick game's players have no seat token), so every `act` of such
a seat read the `players` and `sessions` tables, in a thread, before this: 2.5 times the server's CPU
per action of a game played with seat tokens (`bench server --ratings both`, docs/players.md,
"Load check"). The row read is now kept for `HOLD_S` seconds in the process that read it, for
deciding who may act for a seat (`Service.authorize`, `Service.seat_of`); everything else (the
account's own page, its e-mail, a password change) reads the store as before.

What a session may do stays what the store says, with this much delay and no more:
- an ending in this process (log-out, a password change) drops the player's rows at once, and a
  read already under way when it happened is not kept (`epoch`);
- an ending through another process is seen here at the latest `HOLD_S` seconds later;
- expiry (unused for the idle time) is checked on the kept row at each use, as on a fresh one.
Player tokens are not kept: they are read as before."""

from __future__ import annotations

import time
from typing import Any

HOLD_S = 2.0
_PRUNE_AT = 4096  # rows kept before the stale ones are dropped


class SessionCache:
    def __init__(self, hold: float = HOLD_S) -> None:
        self.hold = hold
        self.epoch = 0  # changes at every ending: a read that started before one is not kept
        self._rows: dict[str, tuple[float, dict[str, Any]]] = {}

    def get(self, token_hash: str) -> dict[str, Any] | None:
        """The session's row read less than `hold` seconds ago (a copy), else None."""
        kept = self._rows.get(token_hash)
        if kept is None:
            return None
        if time.monotonic() - kept[0] >= self.hold:
            del self._rows[token_hash]
            return None
        return dict(kept[1])

    def used(self, token_hash: str, at: float) -> None:
        """The session's use was just stored: the kept row says so too (no second write)."""
        kept = self._rows.get(token_hash)
        if kept is not None:
            kept[1]["used"] = at

    def keep(self, token_hash: str, row: dict[str, Any], epoch: int) -> None:
        """Keep a session's row read when the epoch was `epoch` (not kept if an ending came since)."""
        if epoch != self.epoch or not row.get("session"):
            return
        now = time.monotonic()
        if len(self._rows) >= _PRUNE_AT:
            self._rows = {h: v for h, v in self._rows.items() if now - v[0] < self.hold}
        self._rows[token_hash] = (now, dict(row))

    def forget(self, player_id: str | None = None) -> None:
        """A session of `player_id` (None: of anyone) ended here: read its rows again."""
        self.epoch += 1
        if player_id is None:
            self._rows.clear()
        else:
            self._rows = {h: v for h, v in self._rows.items() if v[1].get("id") != player_id}
