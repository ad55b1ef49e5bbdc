"""Bot-versus-bot simulation: parallel games, statistics and plots (docs/bots.md)."""

from __future__ import annotations

from smallworld.sim.runner import GameJob, SimulationError, make_jobs, play_game, run_jobs
from smallworld.sim.simulate import simulate
from smallworld.sim.stats import format_table, summarise, wilson

__all__ = [
    "GameJob",
    "SimulationError",
    "format_table",
    "make_jobs",
    "play_game",
    "run_jobs",
    "simulate",
    "summarise",
    "wilson",
]
