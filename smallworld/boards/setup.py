"""Which board sides go on the table for a game (rules §3.1 and §3.2 step 1)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from smallworld.boards.model import BoardSide

# One letter per island, largest first; the order of `draw_sides`' result follows it.
SIZES_BY_PLAYERS: dict[int, str] = {2: "LS", 3: "LMS", 4: "LMMS", 5: "LLMSS"}


def boards_by_size(sides: Iterable[BoardSide]) -> dict[str, dict[str, list[str]]]:
    """size -> physical board -> its side ids, all sorted so draws do not depend on file order."""
    out: dict[str, dict[str, list[str]]] = {}
    for s in sides:
        out.setdefault(s.size, {}).setdefault(s.board or s.id, []).append(s.id)
    return {
        size: {board: sorted(ids) for board, ids in sorted(boards.items())}
        for size, boards in sorted(out.items())
    }


def draw_sides(
    players: int,
    randbelow: Callable[[int], int],
    sides: Iterable[BoardSide] | None = None,
) -> list[str]:
    """Pick distinct physical boards of the sizes the player count needs, and a random side of each.

    `randbelow(n)` must return an int in [0, n); it is the only source of randomness, so the engine's
    seeded generator makes the draw reproducible. Calls happen in a fixed order: for each letter of
    `SIZES_BY_PLAYERS[players]`, one call to choose among the boards of that size not yet taken, then
    one call to choose the side. `sides` defaults to the shipped set.
    """
    if players not in SIZES_BY_PLAYERS:
        raise ValueError(f"no board setup for {players} players; known: {sorted(SIZES_BY_PLAYERS)}")
    pool = _shipped_pool() if sides is None else boards_by_size(sides)
    taken: set[str] = set()
    out: list[str] = []
    for size in SIZES_BY_PLAYERS[players]:
        free = [b for b in pool.get(size, {}) if b not in taken]
        if not free:
            raise ValueError(f"not enough {size} boards for {players} players")
        board = free[_pick(randbelow, len(free))]
        taken.add(board)
        faces = pool[size][board]
        out.append(faces[_pick(randbelow, len(faces))])
    return out


@cache
def _shipped_pool() -> dict[str, dict[str, list[str]]]:
    """`boards_by_size` of the shipped sides, worked out once per process: every new game draws
    from it, and listing the side files each time cost more than the rest of the draw. Callers
    must not change it."""
    from smallworld.boards.loader import all_sides

    return boards_by_size(all_sides())


def _pick(randbelow: Callable[[int], int], n: int) -> int:
    i = randbelow(n)
    if not 0 <= i < n:
        raise ValueError(f"randbelow({n}) returned {i}, outside [0, {n})")
    return i
