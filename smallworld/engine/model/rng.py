"""The game's seeded generator: SplitMix64, whose whole state is one integer.

One integer is exact in JSON, cheap to copy with the state, and independent of Python's
`random` implementation, so a replay gives the same draws on every platform.
"""

from __future__ import annotations

from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def copy(self) -> Rng:
        return Rng(self.state)

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


def seed_state(seed: int) -> int:
    """Spread a small user seed over 64 bits so that seeds 1 and 2 start far apart."""
    return Rng(seed * 0x2545F4914F6CDD1D + 1).next64()


def board_draw_rng(seed: int) -> Rng:
    """The generator that draws a game's boards (§3.1): its own stream, so `smallworld boards render
    --seed S` shows the same table as a game with seed S without building the game."""
    return Rng(seed_state(seed) ^ 0xB0A2D)
