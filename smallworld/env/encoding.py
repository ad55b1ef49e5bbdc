"""A fixed integer encoding of actions for learning agents (docs/rl.md, "Actions").

The index space does not depend on the game being played, only on `max_regions`, so one policy
network serves every seating and board draw. It has three blocks:

- **global** slots: actions without a region, one slot per registered `(kind, arg)` verb
  (`pick 0`, `decline`, `buy 3`, ...), then `global_overflow` generic slots;
- **region** slots: for each region slot `r < max_regions`, one slot per registered
  `(kind, arg)` verb (`conquer`, `deploy all`, `conquer frostmourne`, ...), then
  `region_overflow` generic slots of that region;
- **pair** slots: actions whose `arg` is a second region (`portal a b`, `intimidate r d`): one
  `max_regions x max_regions` plane per registered kind, then `pair_overflow` generic planes.

Registered verbs come from fixed tuples below, in a fixed order; adding a verb to the end of a
tuple moves the later blocks, so a trained policy needs the same `ActionEncoder.version`.

Overflow: content units add action kinds and args the tables cannot list in advance. A legal action
not in the tables is *overflow*: at each decision, the overflow actions anchored at the same place
(the global block, one region, or one region pair) are sorted by kind, then arg (none first, then
integers ascending, then strings), and the k-th one takes that anchor's k-th generic slot. Overflow
slots therefore mean something only together with the legal list, which is why `decode` takes it;
they never collide with each other or with registered slots. More overflow actions at one anchor
than generic slots raises `EncodingOverflowError` rather than merge two legal actions into one index.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import numpy as np

from smallworld.engine.actions import Action

# Actions with no region: (kind, arg). Picks cover the standard row (0..5) and the team columns
# (0..3); `buy` is the Forsaken purchase prompt, its larger answers fall into overflow slots.
GLOBAL_VERBS: tuple[tuple[str, int | str | None], ...] = (
    *(("pick", i) for i in range(6)),
    ("decline", None),
    ("expand", None),
    ("end", None),
    *(("buy", i) for i in range(10)),
    ("form", "human"),
    ("form", "worgen"),
    ("airborne_final", None),
    ("airborne_cancel", None),
    ("bomb_done", None),
    ("objective_done", None),
    ("faction", "Alliance"),
    ("faction", "Horde"),
    ("faction", "Neutral"),
)

# Named conquest options (`conquer r frostmourne`); joined options use "+" (relics/_common.py).
CONQUEST_OPTIONS: tuple[str | None, ...] = (
    None,
    "frostmourne",
    "doomhammer",
    "ethereals",
    "ethereals+frostmourne",
    "ethereals+doomhammer",
)
ARTIFACTS = ("aegis_of_aggramar", "ashes_of_alar", "doomhammer", "frostmourne", "heart_of_azeroth")
CONQUEST_KINDS = ("conquer", "final", "airborne", "ashes", "ashes_final")

# Actions on one region: (kind, arg) where arg is None or a string.
REGION_VERBS: tuple[tuple[str, int | str | None], ...] = (
    *((k, o) for k in CONQUEST_KINDS for o in CONQUEST_OPTIONS),
    ("abandon", None),
    ("deploy", None),
    ("deploy", "all"),
    ("deploy", "beast"),
    ("deploy", "champion"),
    ("champion", None),
    ("aegis", None),
    ("heart", None),
    ("bomb", None),
    ("objective", None),
    ("fort", None),
    ("tower", None),
    ("intimidate", "discard"),
    ("intimidate_beast", "discard"),
    ("intimidate_remove", "fort"),
    ("intimidate_remove", "wisp_wall"),
    ("intimidate_remove", "watch_tower"),
    *(("steal", m) for m in ARTIFACTS),
)

# Actions on a region whose arg is a second region.
PAIR_KINDS: tuple[str, ...] = ("portal", "intimidate", "intimidate_beast")

GLOBAL_OVERFLOW = 16
REGION_OVERFLOW = 12
PAIR_OVERFLOW = 1


class EncodingOverflowError(ValueError):
    """More unregistered legal actions at one anchor than it has generic slots."""


@cache
def max_regions_in_catalogue() -> int:
    """The most regions any standard board draw can have (the shipped sides, every player count)."""
    from smallworld.boards.loader import all_sides
    from smallworld.boards.setup import SIZES_BY_PLAYERS

    # size -> physical board -> most regions among its sides
    biggest: dict[str, dict[str, int]] = {}
    for s in all_sides():
        boards = biggest.setdefault(s.size, {})
        key = s.board or s.id
        boards[key] = max(boards.get(key, 0), len(s.regions))
    best = 0
    for sizes in SIZES_BY_PLAYERS.values():
        total = 0
        for size in set(sizes):
            ranked = sorted(biggest.get(size, {}).values(), reverse=True)
            total += sum(ranked[: sizes.count(size)])
        best = max(best, total)
    return best


def _sort_key(a: Action) -> tuple[str, int, int, str]:
    """Kind, then arg: none first, then integers ascending, then strings."""
    arg = a.arg
    if arg is None:
        return (a.kind, 0, 0, "")
    if isinstance(arg, int):
        return (a.kind, 1, arg, "")
    return (a.kind, 2, 0, str(arg))


def _is_region_arg(arg: Any) -> bool:
    return isinstance(arg, int) and not isinstance(arg, bool)


class ActionEncoder:
    """Maps legal actions to distinct ints in `range(num_actions)` and back (see module doc)."""

    version = 1

    def __init__(
        self,
        max_regions: int | None = None,
        global_overflow: int = GLOBAL_OVERFLOW,
        region_overflow: int = REGION_OVERFLOW,
        pair_overflow: int = PAIR_OVERFLOW,
    ) -> None:
        self.max_regions = max_regions if max_regions is not None else max_regions_in_catalogue()
        self.global_overflow = global_overflow
        self.region_overflow = region_overflow
        self.pair_overflow = pair_overflow
        self._global = {v: i for i, v in enumerate(GLOBAL_VERBS)}
        self._region = {v: i for i, v in enumerate(REGION_VERBS)}
        self._pair = {k: i for i, k in enumerate(PAIR_KINDS)}
        r = self.max_regions
        self.global_size = len(GLOBAL_VERBS) + global_overflow
        self.region_stride = len(REGION_VERBS) + region_overflow
        self.region_base = self.global_size
        self.pair_base = self.region_base + r * self.region_stride
        self.pair_planes = len(PAIR_KINDS) + pair_overflow
        self.num_actions = self.pair_base + self.pair_planes * r * r

    # --- the fixed part ------------------------------------------------------------------------
    def _anchor(self, a: Action) -> tuple[int, ...]:
        """Where an action lives: () global, (r,) one region, (r, d) a region pair."""
        if a.region is None:
            return ()
        r = a.region
        if not 0 <= r < self.max_regions:
            raise EncodingOverflowError(f"region {r} is beyond max_regions={self.max_regions}")
        if _is_region_arg(a.arg) and 0 <= int(a.arg) < self.max_regions:  # type: ignore[arg-type]
            return (r, int(a.arg))  # type: ignore[arg-type]
        return (r,)

    def slot(self, action: Action) -> int | None:
        """The registered index of an action, or None when it is an overflow action."""
        anchor = self._anchor(action)
        if not anchor:
            i = self._global.get((action.kind, action.arg))
            return i
        if len(anchor) == 1:
            j = self._region.get((action.kind, action.arg))
            return None if j is None else self.region_base + anchor[0] * self.region_stride + j
        p = self._pair.get(action.kind)
        return None if p is None else self._pair_index(p, anchor[0], anchor[1])

    def _pair_index(self, plane: int, r: int, d: int) -> int:
        n = self.max_regions
        return self.pair_base + plane * n * n + r * n + d

    def _overflow_index(self, anchor: tuple[int, ...], k: int, a: Action) -> int:
        if not anchor:
            if k >= self.global_overflow:
                raise EncodingOverflowError(f"more than {self.global_overflow} unregistered global actions")
            return len(GLOBAL_VERBS) + k
        if len(anchor) == 1:
            if k >= self.region_overflow:
                raise EncodingOverflowError(
                    f"more than {self.region_overflow} unregistered actions on region {anchor[0]} ({a})"
                )
            return self.region_base + anchor[0] * self.region_stride + len(REGION_VERBS) + k
        if k >= self.pair_overflow:
            raise EncodingOverflowError(f"more than {self.pair_overflow} unregistered pair kinds at {anchor}")
        return self._pair_index(len(PAIR_KINDS) + k, anchor[0], anchor[1])

    # --- whole decisions -------------------------------------------------------------------------
    def encode_all(self, legal: Sequence[Action]) -> dict[Action, int]:
        """Every legal action's index; distinct actions always get distinct indices."""
        out: dict[Action, int] = {}
        spill: dict[tuple[int, ...], list[Action]] = {}
        for a in legal:
            if a in out:
                continue
            i = self.slot(a)
            if i is None:
                spill.setdefault(self._anchor(a), []).append(a)
                out[a] = -1
            else:
                out[a] = i
        for anchor, group in spill.items():
            for k, a in enumerate(sorted(set(group), key=_sort_key)):
                out[a] = self._overflow_index(anchor, k, a)
        return out

    def encode(self, action: Action, legal: Sequence[Action] | None = None) -> int:
        """The index of `action`; `legal` (the decision's legal list) is needed for overflow ones."""
        i = self.slot(action)
        if i is not None:
            return i
        if legal is None:
            raise ValueError(f"{action} is an overflow action: encoding it needs the legal list")
        codes = self.encode_all(legal)
        if action not in codes:
            raise ValueError(f"{action} is not in the legal list")
        return codes[action]

    def decode(self, index: int, legal: Sequence[Action]) -> Action:
        """The legal action with this index (ValueError if none)."""
        for a, i in self.encode_all(legal).items():
            if i == index:
                return a
        raise ValueError(f"no legal action has index {index}")

    def mask(self, legal: Iterable[Action]) -> np.ndarray:
        """Boolean array of length `num_actions`, True at the index of every legal action."""
        m = np.zeros(self.num_actions, dtype=bool)
        codes = self.encode_all(list(legal))
        if codes:
            m[np.fromiter(codes.values(), dtype=np.int64, count=len(codes))] = True
        return m

    # --- documentation -----------------------------------------------------------------------------
    def describe(self, index: int) -> str:
        """What an index stands for, in words (for docs and debugging)."""
        if not 0 <= index < self.num_actions:
            raise ValueError(f"index {index} outside 0..{self.num_actions - 1}")
        if index < self.global_size:
            if index < len(GLOBAL_VERBS):
                return _verb_text(GLOBAL_VERBS[index])
            return f"global overflow #{index - len(GLOBAL_VERBS)}"
        if index < self.pair_base:
            r, j = divmod(index - self.region_base, self.region_stride)
            if j < len(REGION_VERBS):
                return f"{_verb_text(REGION_VERBS[j])} @ region {r}"
            return f"region {r} overflow #{j - len(REGION_VERBS)}"
        n = self.max_regions
        plane, rest = divmod(index - self.pair_base, n * n)
        r, d = divmod(rest, n)
        what = PAIR_KINDS[plane] if plane < len(PAIR_KINDS) else f"pair overflow #{plane - len(PAIR_KINDS)}"
        return f"{what} @ regions ({r}, {d})"

    def blocks(self) -> list[tuple[str, int, int, str]]:
        """(name, offset, size, meaning) of each block, the table of docs/rl.md."""
        n = self.max_regions
        out: list[tuple[str, int, int, str]] = [
            ("global verbs", 0, len(GLOBAL_VERBS), "offset + i: GLOBAL_VERBS[i]"),
            ("global overflow", len(GLOBAL_VERBS), self.global_overflow, "k-th unregistered global action"),
            (
                "region verbs",
                self.region_base,
                n * self.region_stride,
                f"offset + r*{self.region_stride} + j: REGION_VERBS[j] on region r "
                f"(j >= {len(REGION_VERBS)}: region r's k-th overflow action)",
            ),
        ]
        for p, kind in enumerate(PAIR_KINDS):
            out.append(
                (f"pair `{kind}`", self._pair_index(p, 0, 0), n * n, f"offset + r*{n} + d: `{kind} r d`")
            )
        for k in range(self.pair_overflow):
            out.append(
                (
                    f"pair overflow #{k}",
                    self._pair_index(len(PAIR_KINDS) + k, 0, 0),
                    n * n,
                    f"offset + r*{n} + d: k-th unregistered kind on (r, d)",
                )
            )
        return out


def _verb_text(verb: tuple[str, int | str | None]) -> str:
    kind, arg = verb
    return kind if arg is None else f"{kind} {arg}"
