"""Test support: tiny inline boards and random complete games (import as `support`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from smallworld import scenario
from smallworld.engine import Action, Game, Settings, State
from smallworld.engine.api.invariants import check_invariants


def tiny_side(sid: str = "T", size: str = "S") -> dict[str, Any]:
    """An 8-region ring island with a Lake; regions 1, 3 and 5 are Entry regions."""
    terrains = ["Fields", "Forest", "Hill", "Mountain", "Swamp", "Fields", "Forest", "Lake"]
    feats: dict[int, list[str]] = {1: ["Entry"], 2: ["Murloc", "Magic"], 3: ["Entry"], 4: ["Size"],
                                   5: ["Entry"], 6: ["Murloc", "Cavern"]}
    regions = []
    for i in range(1, 9):
        adj = sorted({(i - 2) % 8 + 1, i % 8 + 1})
        regions.append({"id": i, "name": f"{sid}{i}", "terrain": terrains[i - 1],
                        "features": feats.get(i, []), "adjacent": adj})
    return {"id": sid, "size": size, "regions": regions}


def play_random(
    settings: Settings,
    choice_seed: int,
    check: bool = False,
    each: Callable[[State], None] | None = None,
) -> tuple[State, list[Action]]:
    """A complete game by uniformly random legal moves; `check` runs the engine's invariants and
    `each` a test's own checks after every action."""
    st = Game(settings).new_initial_state()
    rnd = random.Random(choice_seed)
    log: list[Action] = []
    while not st.is_over():
        la = st.legal_actions()
        a = la[rnd.randrange(len(la))]
        st.apply(a)
        log.append(a)
        if check:
            check_invariants(st)
        if each is not None:
            each(st)
    return st, log


def apply_texts(st: State, actions: list[str]) -> State:
    """Apply actions written as text (`conquer T:3`), as position files do."""
    for text in actions:
        st.apply(scenario.to_action(st, text))
    return st


def play_file(data: dict[str, Any], actions: list[str]) -> State:
    """Build a position file's position and apply text actions to it."""
    return apply_texts(scenario.build(data), actions)
