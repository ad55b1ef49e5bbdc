"""A fixed integer encoding of actions for learning agents (docs/rl.md, "Actions").

The index space depends only on the edition's action declarations and on `max_regions`, so one
policy network serves every seating and board draw. It has three blocks:

- **global** slots: actions without a region, one slot per `(kind, arg)` verb of the declarations
  (`pick 0`, `decline`, `buy 3`, ...), then `global_overflow` generic slots;
- **region** slots: for each region slot `r < max_regions`, one slot per declared `(kind, arg)`
  verb on a region (`conquer`, `deploy all`, `conquer frostmourne`, ...), then `region_overflow`
  generic slots of that region;
- **pair** slots: actions whose argument is a second region (`portal a b`, `intimidate r d`): one
  `max_regions x max_regions` plane per declared kind, then `pair_overflow` generic planes.

The verbs come from the declarations (`engine/model/protocol.py`), in declaration order: the engine's
kinds, then each unit's. An argument that is a count gives one verb per value (0..`most`), a choice
one per choice, a piece kind one per piece of the edition, a marker one per marker, a named conquest
option one per unit that offers conquest options (and none, the plain conquest); an argument that is
a second region puts the kind on a pair plane. `ActionEncoder.version` is a digest of the tables,
so a trained policy can check that it still reads the same slots.

Overflow: an action the tables cannot list in advance (two conquest options joined, `ethereals+
frostmourne`) is *overflow*: at each decision, the overflow actions anchored at the same place
(the global block, one region, or one region pair) are sorted by kind, then arg (none first, then
integers ascending, then strings), and the k-th one takes that anchor's k-th generic slot. Overflow
slots therefore mean something only together with the legal list, which is why `decode` takes it;
they never collide with each other or with registered slots. More overflow actions at one anchor
than generic slots raises `EncodingOverflowError` rather than merge two legal actions into one index.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import numpy as np

from smallworld.engine.model.actions import Action
from smallworld.engine.model.edition import Edition, get_edition
from smallworld.engine.model.protocol import Arg

Verb = tuple[str, int | str | None]

GLOBAL_OVERFLOW = 16
REGION_OVERFLOW = 12
PAIR_OVERFLOW = 1


@cache
def verb_tables(edition: Edition) -> tuple[tuple[Verb, ...], tuple[Verb, ...], tuple[str, ...]]:
    """(global verbs, region verbs, pair kinds) of an edition, from its action declarations."""
    options = [u.id for u in edition.units.values() if edition.hooked["conquest_options"] & {u.id}]
    pieces = sorted(edition.pieces)
    relics = list(edition.relics)
    glob: list[Verb] = []
    region: list[Verb] = []
    pairs: list[str] = []
    for spec in edition.action_specs.values():
        if spec.takes(Arg.PLAN):
            continue  # whole plans are never in a list of legal actions
        verbs: list[int | str | None] = []
        if spec.takes(Arg.NONE):
            verbs.append(None)
        if spec.takes(Arg.COUNT):
            verbs.extend(range(spec.most + 1))
        if spec.takes(Arg.CHOICE):
            verbs.extend(spec.choices)
        if spec.takes(Arg.OPTION):
            verbs.extend(options)
        if spec.takes(Arg.PIECE):
            verbs.extend(pieces)
        if spec.takes(Arg.RELIC):
            verbs.extend(relics)
        if spec.takes(Arg.REGION):
            pairs.append(spec.kind)
        (region if spec.region else glob).extend((spec.kind, v) for v in verbs)
    return tuple(glob), tuple(region), tuple(pairs)


def _default() -> Edition:
    return get_edition("warcraft")


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

    def __init__(
        self,
        max_regions: int | None = None,
        global_overflow: int = GLOBAL_OVERFLOW,
        region_overflow: int = REGION_OVERFLOW,
        pair_overflow: int = PAIR_OVERFLOW,
        edition: Edition | None = None,
    ) -> None:
        self.edition = edition or _default()
        self.global_verbs, self.region_verbs, self.pair_kinds = verb_tables(self.edition)
        self.max_regions = max_regions if max_regions is not None else max_regions_in_catalogue()
        self.global_overflow = global_overflow
        self.region_overflow = region_overflow
        self.pair_overflow = pair_overflow
        self._global = {v: i for i, v in enumerate(self.global_verbs)}
        self._region = {v: i for i, v in enumerate(self.region_verbs)}
        self._pair = {k: i for i, k in enumerate(self.pair_kinds)}
        r = self.max_regions
        self.global_size = len(self.global_verbs) + global_overflow
        self.region_stride = len(self.region_verbs) + region_overflow
        self.region_base = self.global_size
        self.pair_base = self.region_base + r * self.region_stride
        self.pair_planes = len(self.pair_kinds) + pair_overflow
        self.num_actions = self.pair_base + self.pair_planes * r * r
        tables = repr((self.global_verbs, self.region_verbs, self.pair_kinds, r, self.num_actions))
        # A digest of the slot tables: a policy trained on other tables reads other slots.
        self.version = hashlib.sha256(tables.encode()).hexdigest()[:12]

    # --- the fixed part ------------------------------------------------------------------------
    def _anchor(self, a: Action) -> tuple[int, ...]:
        """Where an action lives: () global, (r,) one region, (r, d) a region pair."""
        if a.region is None:
            return ()
        r = a.region
        if not 0 <= r < self.max_regions:
            raise EncodingOverflowError(f"region {r} is beyond max_regions={self.max_regions}")
        if _is_region_arg(a.arg) and 0 <= int(a.arg) < self.max_regions:
            return (r, int(a.arg))
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
            return len(self.global_verbs) + k
        if len(anchor) == 1:
            if k >= self.region_overflow:
                raise EncodingOverflowError(
                    f"more than {self.region_overflow} unregistered actions on region {anchor[0]} ({a})"
                )
            return self.region_base + anchor[0] * self.region_stride + len(self.region_verbs) + k
        if k >= self.pair_overflow:
            raise EncodingOverflowError(f"more than {self.pair_overflow} unregistered pair kinds at {anchor}")
        return self._pair_index(len(self.pair_kinds) + k, anchor[0], anchor[1])

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
            if index < len(self.global_verbs):
                return _verb_text(self.global_verbs[index])
            return f"global overflow #{index - len(self.global_verbs)}"
        if index < self.pair_base:
            r, j = divmod(index - self.region_base, self.region_stride)
            if j < len(self.region_verbs):
                return f"{_verb_text(self.region_verbs[j])} @ region {r}"
            return f"region {r} overflow #{j - len(self.region_verbs)}"
        n = self.max_regions
        plane, rest = divmod(index - self.pair_base, n * n)
        r, d = divmod(rest, n)
        what = (
            self.pair_kinds[plane]
            if plane < len(self.pair_kinds)
            else f"pair overflow #{plane - len(self.pair_kinds)}"
        )
        return f"{what} @ regions ({r}, {d})"

    def blocks(self) -> list[tuple[str, int, int, str]]:
        """(name, offset, size, meaning) of each block, the table of docs/rl.md."""
        n = self.max_regions
        out: list[tuple[str, int, int, str]] = [
            ("global verbs", 0, len(self.global_verbs), "offset + i: global verb i"),
            (
                "global overflow",
                len(self.global_verbs),
                self.global_overflow,
                "k-th unregistered global action",
            ),
            (
                "region verbs",
                self.region_base,
                n * self.region_stride,
                f"offset + r*{self.region_stride} + j: self.region_verbs[j] on region r "
                f"(j >= {len(self.region_verbs)}: region r's k-th overflow action)",
            ),
        ]
        for p, kind in enumerate(self.pair_kinds):
            out.append(
                (f"pair `{kind}`", self._pair_index(p, 0, 0), n * n, f"offset + r*{n} + d: `{kind} r d`")
            )
        for k in range(self.pair_overflow):
            out.append(
                (
                    f"pair overflow #{k}",
                    self._pair_index(len(self.pair_kinds) + k, 0, 0),
                    n * n,
                    f"offset + r*{n} + d: k-th unregistered kind on (r, d)",
                )
            )
        return out


def _verb_text(verb: tuple[str, int | str | None]) -> str:
    kind, arg = verb
    return kind if arg is None else f"{kind} {arg}"
