"""The opponent's coin total in a 2-player game, followed from what one seat sees at its decisions.

A view hides the other seat's coins (§1.3), and `determinize.estimate_coins` guesses them from the
board: late in a game that guess is off by about 14 coins on average (and low by about 10), which
matters to a search that values a win. Yet what changes a total is mostly public: both seats start
with the same coins, a pick costs its place in the row and gains the coins lying on it, and the end
of a turn's `score` event names the turn's total. A bot is asked at every one of its decisions, and
the first of its turn comes right after the opponent's last action, whose events hold that turn's
score; so the ledger follows the opponent's total from turn to turn and hands it to the
`Determinizer`.

With more seats the scores of all but one other seat happen out of sight, so the ledger follows
nothing there (the estimate stays). It stops following (for the rest of the game) when a turn of the
opponent ended unseen or its pick cannot be placed in the row seen before. Coins that a power moves
between the seats (dues) are not seen and make the total a little off.
"""

from __future__ import annotations

from typing import Any


class CoinLedger:
    def __init__(self, seat: int, players: int, start: int) -> None:
        self.seat = seat
        # The totals followed: the opponent's in a 2-player game (none with more seats).
        self.coins: dict[int, int] = {1 - seat: start} if players == 2 else {}
        self._ply = -1
        self._row: list[tuple[str, str, int]] | None = None
        self._active: list[str | None] = [None] * players
        self._turn: tuple[int, int] | None = None

    def update(self, view: dict[str, Any]) -> dict[int, int]:
        """Take in one view (the seat's own, in the order of the game); the totals followed."""
        ply = int(view.get("ply", 0))
        if ply <= self._ply or not self.coins:
            return dict(self.coins)
        seats = view["seats"]
        row = _row(view)
        turn = (int(view.get("round", 1)), int(view.get("turn_seat", 0)))
        scored = {
            int(e["seat"]): int(e["total"])
            for e in view.get("events", [])
            if e.get("type") == "score" and isinstance(e.get("total"), int) and isinstance(e.get("seat"), int)
        }
        for i in list(self.coins):
            if seats[i].get("coins") is not None:  # a total shown (the game is over): take it
                self.coins[i] = int(seats[i]["coins"])
            elif not self._follow(i, seats[i], self._ply < 0, turn, scored, row):
                del self.coins[i]
        self._ply = ply
        self._row = row
        self._active = [s.get("active") for s in seats]
        self._turn = turn
        return dict(self.coins)

    def _follow(
        self,
        i: int,
        s: dict[str, Any],
        first: bool,
        turn: tuple[int, int],
        scored: dict[int, int],
        row: list[tuple[str, str, int]],
    ) -> bool:
        if first:
            if turn[0] != 1:
                return False  # started in the middle of a game: nothing seen to follow from
            if s.get("active") is not None:
                # Its first pick, from the opening row where no combo held coins: each combo it
                # skipped now holds the coin it paid.
                self.coins[i] -= sum(1 for _, _, c in row if c > 0)
                if turn[1] == self.seat:  # and its first turn is over
                    if i not in scored:
                        return False
                    self.coins[i] += scored[i]
            return True
        if s.get("active") is not None and s.get("active") != self._active[i]:
            placed = self._pick(s)
            if placed is None:
                return False
            self.coins[i] += placed
        # The opponent's turn ended since the last view: its last action, just before this view,
        # scored it. (A view in the middle of its turn, a prompt to this seat, is no end.)
        if turn != self._turn and turn[1] == self.seat:
            if i not in scored:
                return False
            self.coins[i] += scored[i]
        return True

    def _pick(self, s: dict[str, Any]) -> int | None:
        """What the pick since the last view gave seat `s`: the coins on the combo less its place."""
        for k, (race, power, coins) in enumerate(self._row or []):
            if race == s.get("active") and power == s.get("power"):
                return coins - k
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "coins": {str(i): c for i, c in self.coins.items()},
            "ply": self._ply,
            "row": [list(c) for c in self._row] if self._row is not None else None,
            "active": self._active,
            "turn": list(self._turn) if self._turn else None,
        }

    def load(self, data: dict[str, Any]) -> None:
        self.coins = {int(i): int(c) for i, c in data.get("coins", {}).items()}
        self._ply = int(data.get("ply", -1))
        row = data.get("row")
        self._row = [(str(r), str(p), int(c)) for r, p, c in row] if isinstance(row, list) else None
        self._active = list(data.get("active", self._active))
        turn = data.get("turn")
        self._turn = (int(turn[0]), int(turn[1])) if isinstance(turn, list) and len(turn) == 2 else None


def _row(view: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(str(c.get("race")), str(c.get("power")), int(c.get("coins", 0))) for c in view.get("row", [])]
