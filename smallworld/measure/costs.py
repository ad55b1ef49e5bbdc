"""What one state costs: the figures a server's cache and a search tree's budget are planned with.

`state_bytes` walks the objects one state holds (the shared, immutable `Game` and its hook tables left
out: every state of a game points at the same ones); `clone_bytes` is what `State.clone()` allocates,
measured by tracemalloc; `game_bytes` what building the `Game` itself allocates. `view_us` is the
mean time of one seat's view, `replay_ms` the time to rebuild the final state of a whole game from its
settings and action log through the checked `apply` (what a server does after a restart).
"""

from __future__ import annotations

import sys
import time
import tracemalloc
import types
from typing import Any

from smallworld.engine.api.game import Game, UnitsHooked
from smallworld.engine.api.views import view_for
from smallworld.engine.model.actions import Action
from smallworld.engine.model.settings import Settings
from smallworld.engine.model.state import State


def deep_size(obj: Any, stop: tuple[type, ...] = (Game, UnitsHooked)) -> int:
    """Bytes of every object reachable from `obj`, each counted once, not entering `stop` types."""
    seen: set[int] = set()
    todo = [obj]
    total = 0
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, (*stop, type)):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            todo.extend(o.keys())
            todo.extend(o.values())
        elif isinstance(o, list | tuple | set | frozenset):
            todo.extend(o)
        else:
            slots = getattr(type(o), "__slots__", None)
            if slots is None and type(o).__module__.startswith("smallworld."):
                # A class compiled by mypyc (tools/build-compiled) keeps no `__slots__`: its
                # attributes are the getset descriptors of its type.
                slots = [k for k, v in vars(type(o)).items()
                         if isinstance(v, types.GetSetDescriptorType) and not k.startswith("__")]
            todo.extend(getattr(o, s) for s in slots or () if hasattr(o, s))
            if hasattr(o, "__dict__"):
                todo.append(o.__dict__)
    return total


def _allocated(fn: Any) -> tuple[int, Any]:
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    out = fn()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return after - before, out


def state_costs(settings: Settings, log: list[Action], mid: State, views: int = 200) -> dict[str, Any]:
    """Costs measured on `mid` (a state in the middle of the game) and on the whole game `log`."""
    game_bytes, _ = _allocated(lambda: Game(settings))
    clone_bytes, _ = _allocated(mid.clone)
    seats = len(mid.seats)
    t0 = time.perf_counter()
    for i in range(views):
        view_for(mid, i % seats)
    view_us = (time.perf_counter() - t0) / views * 1e6
    game = Game(settings)
    t0 = time.perf_counter()
    st = game.new_initial_state()
    for a in log:
        st.apply(a)
    replay_ms = (time.perf_counter() - t0) * 1e3
    return {
        "state_bytes": deep_size(mid),
        "clone_bytes": clone_bytes,
        "game_bytes": game_bytes,
        "view_us": round(view_us, 1),
        "replay_ms": round(replay_ms, 2),
        "replay_actions": len(log),
    }
