"""`smallworld bench`: complete games by uniformly random legal moves, on one core."""

from __future__ import annotations

import random
import time
from typing import Any

from smallworld.bench_costs import state_costs
from smallworld.engine.actions import Action
from smallworld.engine.flow import apply_unchecked, legal_actions
from smallworld.engine.game import Game
from smallworld.engine.settings import DEFAULT_EDITION, Settings, make_settings


def bench(
    players: int,
    games: int,
    seed: int = 0,
    variant: str = "standard",
    overrides: dict[str, Any] | None = None,
    edition: str = DEFAULT_EDITION,
    costs: bool = True,
) -> dict[str, Any]:
    decisions = listings = 0
    # The edition's modules load before the clock starts: the figure is the games' own speed.
    Game(make_settings(players, seed, variant, overrides, edition)).new_initial_state()
    t0 = time.perf_counter()
    for g in range(games):
        n = _random_game(make_settings(players, seed + g, variant, overrides, edition))
        listings += n
        decisions += n
    elapsed = time.perf_counter() - t0
    out: dict[str, Any] = {
        "players": players,
        "variant": variant,
        "games": games,
        "seed": seed,
        "seconds": round(elapsed, 3),
        "decisions": decisions,
        "games_per_second": round(games / elapsed, 2),
        "decisions_per_second": round(decisions / elapsed, 1),
        "listings_per_second": round(listings / elapsed, 1),
    }
    if edition != DEFAULT_EDITION:
        out["edition"] = edition  # the Warcraft report keeps its shape
    if costs:
        out.update(_costs(make_settings(players, seed, variant, overrides, edition)))
    return out


def _random_game(settings: Settings) -> int:
    """One complete game by uniformly random legal moves (seeded by the settings' seed): its decisions."""
    st = Game(settings).new_initial_state()
    rnd = random.Random(settings.seed)
    decisions = 0
    while st.phase != "over":
        la = legal_actions(st)
        apply_unchecked(st, la[rnd.randrange(len(la))])
        decisions += 1
    return decisions


def engine_cost(
    players: int, seconds: float, seed: int = 0, overrides: dict[str, Any] | None = None
) -> tuple[int, float]:
    """The benchmark's random games, one after another until `seconds` of this process's CPU time
    are spent (at least one game): (decisions, CPU seconds). CPU time, not wall time, so that a
    busy machine's waits for a core do not count: what `bench server` divides the server's CPU by."""
    Game(make_settings(players, seed, "standard", overrides)).new_initial_state()  # modules loaded
    decisions = 0
    t0 = time.process_time()
    g = seed
    while True:
        decisions += _random_game(make_settings(players, g, "standard", overrides))
        g += 1
        spent = time.process_time() - t0
        if spent >= seconds:
            return decisions, spent


def _costs(settings: Settings) -> dict[str, Any]:
    """Replays the benchmark's first game to measure a mid-game state and the whole game's replay."""
    st = Game(settings).new_initial_state()
    rnd = random.Random(settings.seed)
    log: list[Action] = []
    while st.phase != "over":
        la = legal_actions(st)
        a = la[rnd.randrange(len(la))]
        apply_unchecked(st, a)
        log.append(a)
    mid = Game(settings).new_initial_state()
    for a in log[: len(log) // 2]:
        apply_unchecked(mid, a)
    return state_costs(settings, log, mid)
