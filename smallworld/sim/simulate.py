"""`smallworld simulate`: the pieces put together (jobs, runner, summary, plots)."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from smallworld.bots import is_search_bot
from smallworld.compiled import running
from smallworld.sim.runner import SimulationError, check_bots, make_jobs, run_jobs
from smallworld.sim.stats import summarise


def simulate(
    players: int,
    games: int,
    bots: list[str],
    seed: int = 0,
    variant: str = "standard",
    workers: int = 1,
    mcts_seconds: float | None = None,
    mcts_playouts: int | None = None,
    ray_address: str | None = None,
    plots: Path | None = None,
    progress: bool = True,
    overrides: dict[str, Any] | None = None,
    edition: str = "warcraft",
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play `games` games and return (summary, per-game results). The summary's `timing` is the only
    part that changes between runs with the same arguments (with a playout budget)."""
    check_bots(bots)
    if games < 1:
        raise SimulationError("--games must be at least 1")
    if workers < 1:
        raise SimulationError("--workers must be at least 1")
    if mcts_seconds is not None and not 0 < mcts_seconds < math.inf:
        raise SimulationError("--mcts-seconds must be a number of seconds above 0")
    if mcts_playouts is not None and mcts_playouts < 1:
        raise SimulationError("--mcts-playouts must be at least 1")
    options: dict[str, Any] = {}
    if mcts_seconds is not None:
        options = {"seconds": mcts_seconds, "playouts": None}
    elif mcts_playouts is not None:
        options = {"playouts": mcts_playouts}
    if plots is not None:
        from smallworld.sim.plots import prepare

        prepare(plots)  # before the games, so a bad folder fails fast
    jobs = make_jobs(players, games, bots, seed, variant, options, overrides, edition)
    t0 = time.perf_counter()
    results = run_jobs(jobs, workers=workers, ray_address=ray_address, progress=progress)
    elapsed = time.perf_counter() - t0
    budget = (
        {"mcts_seconds": mcts_seconds}
        if mcts_seconds is not None
        else {"mcts_playouts": options.get("playouts", 200)}
        if any(is_search_bot(b) for b in bots)
        else {}
    )
    meta = {"players": players, "variant": variant, "seed": seed, "bot_list": list(bots), **budget}
    if edition != "warcraft":
        meta["edition"] = edition  # the Warcraft summary keeps its shape
    summary = summarise(results, meta)
    summary["timing"] = {
        "seconds": round(elapsed, 3),
        "workers": workers,
        "ray": ray_address,
        "build": running(),  # this process's: pure Python or the compiled build (smallworld/compiled.py)
        "game_seconds_mean": round(sum(r["seconds"] for r in results) / len(results), 4),
    }
    if plots is not None:
        from smallworld.sim.plots import write_plots

        summary["plots"] = [str(p) for p in write_plots(summary, results, plots)]
    return summary, results
