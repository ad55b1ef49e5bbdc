"""`smallworld bench`: complete games by uniformly random legal moves, on one core."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

from smallworld.compiled import running
from smallworld.engine.api.game import Game
from smallworld.engine.flow.turn import apply_unchecked, legal_actions
from smallworld.engine.model.actions import Action
from smallworld.engine.model.settings import DEFAULT_EDITION, Settings, make_settings
from smallworld.measure.costs import state_costs


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
        n = sum(1 for _ in random_game(make_settings(players, seed + g, variant, overrides, edition)))
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
        "build": running(),
    }
    if edition != DEFAULT_EDITION:
        out["edition"] = edition  # the Warcraft report keeps its shape
    if costs:
        out.update(_costs(make_settings(players, seed, variant, overrides, edition)))
    return out


def random_game(settings: Settings) -> Iterator[None]:
    """One complete game by uniformly random legal moves (seeded by the settings' seed), a step per
    decision: a listing and an unchecked apply."""
    st = Game(settings).new_initial_state()
    rnd = random.Random(settings.seed)
    while st.phase != "over":
        la = legal_actions(st)
        apply_unchecked(st, la[rnd.randrange(len(la))])
        yield


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


# --- the yardstick of `bench server` -----------------------------------------------------------------
SLICE = 0.01  # seconds of engine work at a time


def _sample(players: int, share: float, seed: int, stop: Any, out: Any) -> None:
    """In a process of its own: random games (the server's settings) in slices of `SLICE` seconds,
    `share` of the time, until `stop` is set; sends "ready" once loaded, then (decisions, CPU seconds)."""
    from smallworld.engine.model.keyed_rng import KEYED

    def steps() -> Iterator[None]:
        g = seed
        while True:
            yield from random_game(make_settings(players, g, "standard", {"rng": KEYED}))
            g += 1

    decisions, cpu = 0, 0.0
    it = steps()
    next(it)  # the edition's modules loaded before any slice
    out.send("ready")
    while True:  # one slice at least, however soon the result is asked for
        w0, c0 = time.perf_counter(), time.process_time()
        while time.perf_counter() - w0 < SLICE:
            next(it)
            decisions += 1
        cpu += time.process_time() - c0
        if stop.wait(SLICE * (1 - share) / share):
            break
    out.send((decisions, cpu))


class EngineSampler:
    """The engine's CPU per decision, measured while something else runs (`bench server`'s load):
    a process plays the engine benchmark's random games of the server's settings (the default
    edition, the server's keyed generator) in short slices, `share` of one core, from `__init__`
    to `result()`. Measured through the whole load, it sees the same busy machine as the server
    does: a ratio of the two moves much less than either figure alone."""

    def __init__(self, players: int, share: float = 0.1, seed: int = 0) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        self._stop = ctx.Event()
        self._conn, child = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=_sample, args=(players, share, seed, self._stop, child), daemon=True)
        self._proc.start()
        if not self._conn.poll(120):
            self.close()
            raise RuntimeError("the engine sampler did not start")
        self._conn.recv()

    def result(self) -> tuple[int, float]:
        """Stop sampling: (decisions, CPU seconds they took)."""
        self._stop.set()
        got: tuple[int, float] = self._conn.recv() if self._conn.poll(60) else (0, 0.0)
        self.close()
        return got

    def close(self) -> None:
        self._stop.set()
        self._proc.join(10)
        if self._proc.is_alive():
            self._proc.kill()
            self._proc.join()
