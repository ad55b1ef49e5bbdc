"""Playing bot games: one game per job, in this process, in worker processes or as Ray tasks.

A job carries everything its game depends on (settings, the bot of each seat, seeds), so results
do not depend on where or in which order jobs run; they are gathered back in job order.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from smallworld.bots import is_search_bot, make_bot, parse_bot, public_game
from smallworld.compiled import running
from smallworld.engine.api.game import Game
from smallworld.engine.api.views import view_for
from smallworld.engine.flow.turn import apply_unchecked, legal_actions
from smallworld.engine.model.actions import PICK
from smallworld.engine.model.settings import DEFAULT_EDITION, make_settings


class SimulationError(RuntimeError):
    """A simulation that cannot run (a bad option, a missing optional dependency)."""


def check_bots(specs: Sequence[str]) -> None:
    """SimulationError unless every bot spec (`bots.parse_bot`) names a known bot with options it
    takes and the packages it needs: said before any game starts, not in a worker mid-run."""
    for spec in specs:
        try:
            name, own = parse_bot(spec)
        except ValueError as e:
            raise SimulationError(str(e)) from None
        if name == "openspiel-mcts":
            try:
                import pyspiel  # noqa: F401
            except ImportError:
                raise SimulationError(
                    "bot openspiel-mcts needs the optional dependency open-spiel: "
                    "pip install 'smallworld[rl]'"
                ) from None
        if own:
            try:
                make_bot(spec)
            except (TypeError, ValueError) as e:
                raise SimulationError(f"bot {spec!r}: {e}") from None


@dataclass(frozen=True)
class GameJob:
    index: int
    players: int
    seed: int  # the game's seed (boards, shuffles, dice)
    bots: tuple[str, ...]  # bot name of each seat (repeated cyclically when shorter)
    variant: str = "standard"
    bot_options: dict[str, Any] = field(default_factory=dict)  # search bots: seconds / playouts
    overrides: dict[str, Any] = field(default_factory=dict)  # an options file (docs/options.md)
    edition: str = DEFAULT_EDITION


def make_jobs(
    players: int,
    games: int,
    bots: Sequence[str],
    seed: int = 0,
    variant: str = "standard",
    bot_options: dict[str, Any] | None = None,
    overrides: dict[str, Any] | None = None,
    edition: str = DEFAULT_EDITION,
) -> list[GameJob]:
    """Game i has seed `seed + i` and seats the bot list rotated by i, so every bot plays every seat."""
    if not bots:
        raise SimulationError("--bots needs at least one bot")
    k = len(bots)
    return [
        GameJob(
            index=i,
            players=players,
            seed=seed + i,
            bots=tuple(bots[(i + s) % k] for s in range(players)),
            variant=variant,
            bot_options=dict(bot_options or {}),
            overrides=dict(overrides or {}),
            edition=edition,
        )
        for i in range(games)
    ]


def bot_rng(game_seed: int, seat: int) -> random.Random:
    # Integer seeds hash the same in every process (str hashing is salted per interpreter).
    return random.Random(game_seed * 1_000_003 + seat * 7919 + 17)


@dataclass
class SearchSpend:
    """What one seat's searches spent in a game: a time budget buys more or fewer playouts on each
    machine, and a bot that saves time at some decisions for others (`mcts:pick_bank`) is seen to
    keep to its budget on average."""

    decisions: int = 0
    playouts: int = 0
    seconds: float = 0.0

    def record(self) -> dict[str, Any] | None:
        """The result line's entry: None for a seat that searched nothing."""
        if not self.decisions:
            return None
        return {"decisions": self.decisions, "playouts": self.playouts, "seconds": round(self.seconds, 3)}


def play_game(job: GameJob) -> dict[str, Any]:
    """Play one game; each bot gets only its view and the legal actions."""
    t0 = time.perf_counter()
    game = Game(make_settings(job.players, job.seed, job.variant, job.overrides, job.edition))
    seen = public_game(game)
    names = [job.bots[seat % len(job.bots)] for seat in range(job.players)]
    bots = [make_bot(name, **(job.bot_options if is_search_bot(name) else {})) for name in names]
    for seat, b in enumerate(bots):
        b.start(seen, seat)
    rngs = [bot_rng(job.seed, seat) for seat in range(job.players)]
    st = game.new_initial_state()
    picks: list[list[Any]] = []
    decisions = 0
    searched = [SearchSpend() for _ in names]
    while st.phase != "over":
        seat = st.acting_seat
        legal = legal_actions(st)
        began = time.perf_counter()
        action = bots[seat].choose(view_for(st, seat), list(legal), rngs[seat])
        spent = time.perf_counter() - began
        if action not in legal:
            raise SimulationError(f"game {job.index}: bot {names[seat]!r} chose an illegal {list(action)}")
        playouts = getattr(bots[seat], "last_iterations", 0)
        if playouts:
            spend = searched[seat]
            spend.decisions += 1
            spend.playouts += playouts
            spend.seconds += spent
        apply_unchecked(st, action)
        decisions += 1
        if action.kind == PICK:  # the seat's race and power are set as soon as the pick applies
            s = st.seats[seat]
            picks.append([seat, s.active, s.power])
    assert st.result is not None
    return {
        "index": job.index,
        "seed": job.seed,
        "bots": names,
        "scores": list(st.result["scores"]),
        "winners": list(st.result["winners"]),
        "picks": picks,
        "decisions": decisions,
        "rounds": st.round,
        "seconds": round(time.perf_counter() - t0, 3),
        "search": [spend.record() for spend in searched],
        "build": running(),  # the process that played it: a time budget buys about 2x in "compiled"
    }


def run_jobs(
    jobs: list[GameJob],
    workers: int = 1,
    ray_address: str | None = None,
    progress: bool = True,
) -> list[dict[str, Any]]:
    """Every job's result, in job order."""
    results = list(iter_jobs(jobs, workers, ray_address, progress))
    results.sort(key=lambda r: r["index"])
    return results


def iter_jobs(
    jobs: list[GameJob],
    workers: int = 1,
    ray_address: str | None = None,
    progress: bool = True,
) -> Iterator[dict[str, Any]]:
    """Each job's result as soon as its game ends (in the order they end): a caller that keeps each
    one at once loses only the games still in play when it is stopped."""
    bar = _progress(len(jobs), progress)
    try:
        if ray_address is not None:
            yield from _run_ray(jobs, ray_address, workers, bar)
        elif workers <= 1 or len(jobs) <= 1:
            for job in jobs:
                yield play_game(job)
                bar(1)
        else:
            import multiprocessing as mp

            # spawn: the same behaviour on every platform and no forked engine caches or locks.
            ctx = mp.get_context("spawn")
            with ctx.Pool(min(workers, len(jobs))) as pool:
                for res in pool.imap_unordered(play_game, jobs, chunksize=1):
                    yield res
                    bar(1)
    finally:
        bar(0, close=True)


def _run_ray(
    jobs: list[GameJob], address: str, workers: int, bar: Callable[..., None]
) -> Iterator[dict[str, Any]]:
    try:
        import ray
    except ImportError:
        raise SimulationError(
            "--ray needs the optional dependency ray: pip install 'smallworld[ray]'"
        ) from None
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(play_game)
        pending = [remote.remote(job) for job in jobs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done)
            bar(len(done))
    finally:
        if started:
            ray.shutdown()


def _progress(total: int, enabled: bool) -> Callable[..., None]:
    """A progress callback: tqdm on stderr when installed, else a plain counter line."""
    if not enabled:
        return lambda n, close=False: None
    try:
        from tqdm import tqdm
    except ImportError:
        done = [0]

        def simple(n: int, close: bool = False) -> None:
            done[0] += n
            end = "\n" if close else ""
            print(f"\rgames {done[0]}/{total}", end=end, file=sys.stderr, flush=True)

        return simple
    t = tqdm(total=total, unit="game", file=sys.stderr, leave=True)

    def update(n: int, close: bool = False) -> None:
        if n:
            t.update(n)
        if close:
            t.close()

    return update
