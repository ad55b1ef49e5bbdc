"""The unpredictable generator: BLAKE2b keyed with a 128-bit secret, in counter mode.

With the default SplitMix64 (`rng.py`) every output is an invertible function of the state, and a
small seed is found from the opening position by search, which reveals every shuffle and die roll
to come. Here draw i is `BLAKE2b(key=seed, person=stream, data=i)`: outputs reveal nothing of the
key (a PRF), so seeing any number of draws says nothing about the next. The state is only the
counter (the key stays in the settings, which clients never see before the end), so it serializes
as the same 16-digit `rng` field.

`Settings(rng="blake2b")` chooses it per game; `rng="splitmix64"` (the default) keeps every old save,
seed and benchmark exactly as it was.
"""

from __future__ import annotations

import hashlib

from smallworld.engine.model.rng import Rng, board_draw_rng, seed_state

SPLITMIX = "splitmix64"
KEYED = "blake2b"
GENERATORS = (SPLITMIX, KEYED)
SEED_BITS = {SPLITMIX: 64, KEYED: 128}
_GAME = b"smallworld-game"  # BLAKE2b personalisation (up to 16 bytes): one stream per use
_BOARDS = b"smallworld-board"


class KeyedRng(Rng):
    """Same interface as `Rng`; `state` is the counter of the next draw."""

    __slots__ = ("key", "person")

    def __init__(self, key: int, state: int = 0, person: bytes = _GAME) -> None:
        super().__init__(state)
        self.key = key.to_bytes(16, "big")
        self.person = person

    def next64(self) -> int:
        data = self.state.to_bytes(8, "big")
        self.state = (self.state + 1) & ((1 << 64) - 1)
        h = hashlib.blake2b(data, digest_size=8, key=self.key, person=self.person)
        return int.from_bytes(h.digest(), "big")

    def copy(self) -> KeyedRng:
        return KeyedRng(int.from_bytes(self.key, "big"), self.state, self.person)


def game_rng(generator: str, seed: int, state: int | None = None) -> Rng:
    """The game's generator at the start (`state=None`) or at a saved `state`."""
    if generator == KEYED:
        return KeyedRng(seed, 0 if state is None else state)
    return Rng(seed_state(seed) if state is None else state)


def board_rng(generator: str, seed: int) -> Rng:
    """The generator that draws the boards (§3.1), a stream of its own."""
    if generator == KEYED:
        return KeyedRng(seed, 0, _BOARDS)
    return board_draw_rng(seed)
