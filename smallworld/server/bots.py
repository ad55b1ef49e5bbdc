"""Bots in worker processes: a thinking bot (MCTS can take seconds) never blocks the event loop or
the other games. A worker gets only what a bot may know — the public settings (no seed), the seat's
view and its legal actions — and answers one action in protocol JSON."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from smallworld.bots import BOT_NAMES, Bot, make_bot
from smallworld.engine.api.game import Game
from smallworld.engine.model.protocol import action_to_json, check_action
from smallworld.engine.model.settings import Settings

# random, greedy, mcts (and openspiel-mcts): the learned bot is not offered in the lobby while the
# ladder rates it below the MCTS (docs/bots.md, the bots: learned).
LEVELS = tuple(b for b in BOT_NAMES if b != "learned")
# The levels given a difficulty from the ladder (`smallworld ladder --levels`): the bots every server
# runs. openspiel-mcts needs the optional open-spiel package (the rl extra), so it is offered after
# them, unrated (routes/levels.py), though the ladder rates it (docs/ladder.md).
RATED_LEVELS = ("random", "greedy", "mcts")

# Per worker process: the public game of each settings text, and each (game, seat)'s bot, so a bot
# keeps its memory across the decisions of a turn when the same worker serves them.
_games: dict[str, Game] = {}
_bots: dict[tuple[str, int, str], Bot] = {}


def choose(
    game_id: str,
    settings_text: str,
    settings: dict[str, Any],
    seat: int,
    level: str,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    seed: int,
) -> tuple[dict[str, Any], float]:
    """Run in a worker: the bot's action for `seat` and the seconds it thought."""
    t0 = time.perf_counter()
    game = _games.get(settings_text)
    if game is None:
        if len(_games) > 256:
            _games.clear()
        game = _games[settings_text] = Game(Settings.from_json(settings))
    key = (game_id, seat, level)
    bot = _bots.get(key)
    if bot is None:
        if len(_bots) > 4096:
            _bots.clear()
        bot = _bots[key] = make_bot(level, seconds=1.0) if level in ("mcts", "learned") else make_bot(level)
        bot.start(game, seat)
    actions = [check_action(game, a) for a in legal]
    a = bot.choose(view, actions, random.Random(seed))
    return action_to_json(game, a), time.perf_counter() - t0


def _watch_parent(parent: int) -> None:
    """Worker initializer: exit when the server is gone (a SIGKILLed server runs no shutdown code,
    and an orphaned worker would live on)."""
    import os
    import threading

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def choose_here(
    game_id: str,
    settings: dict[str, Any],
    seat: int,
    level: str,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    seed: int,
) -> tuple[dict[str, Any], float]:
    """`choose` in the calling process (the server's stand-in when a worker fails)."""
    return choose(game_id, json.dumps(settings, sort_keys=True), settings, seat, level, view, legal, seed)


@dataclass(eq=False)
class _Job:
    args: tuple[Any, ...]
    fut: asyncio.Future[tuple[dict[str, Any], float]]
    timeout: float | None


class BotPool:
    """A pool of worker processes (spawned: a forked copy of a running server is not safe), fed by a
    fair queue. Each worker takes one decision at a time; of the decisions waiting, the next is
    that of the owner (the player who created the game) served least recently, first come first
    served within one owner: a player who starts many bot games slows their own games, not everyone's. A
    decision's time limit runs from the moment a worker takes it, not while it waits its turn."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None
        self._waiting: dict[str, deque[_Job]] = {}  # by owner
        self._served: dict[str, int] = {}  # each owner's last turn served
        self._turn = 0
        self._running: set[asyncio.Task[None]] = set()

    def _get(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=ctx, initializer=_watch_parent, initargs=(os.getpid(),)
            )
        return self._pool

    def waiting(self) -> int:
        """Decisions queued for a worker."""
        return sum(len(q) for q in self._waiting.values())

    async def choose(
        self,
        game_id: str,
        settings: dict[str, Any],
        seat: int,
        level: str,
        view: dict[str, Any],
        legal: list[dict[str, Any]],
        seed: int,
        owner: str = "",
        timeout: float | None = None,
    ) -> tuple[dict[str, Any], float]:
        """The bot's action and its thinking time, once a worker has made the decision (raises
        `TimeoutError` when it takes longer than `timeout` seconds once started)."""
        text = json.dumps(settings, sort_keys=True)
        job = _Job(
            (game_id, text, settings, seat, level, view, legal, seed),
            asyncio.get_running_loop().create_future(),
            timeout,
        )
        self._waiting.setdefault(owner, deque()).append(job)
        self._dispatch()
        return await job.fut

    def _dispatch(self) -> None:
        while len(self._running) < self.workers and self._waiting:
            # The owner served least recently goes first (one never served before anyone).
            owner = min(self._waiting, key=lambda o: self._served.get(o, -1))
            queue = self._waiting[owner]
            job = queue.popleft()
            if not queue:
                del self._waiting[owner]
            if job.fut.done():  # its waiter gave up (the game moved on, the server is closing)
                continue
            self._served[owner] = self._turn
            self._turn += 1
            if len(self._served) > 10_000:  # forget owners long gone, never one that waits
                recent = self._turn - 1000
                self._served = {o: n for o, n in self._served.items() if o in self._waiting or n > recent}
            task = asyncio.ensure_future(self._run(job))
            self._running.add(task)
            task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        self._dispatch()

    async def _run(self, job: _Job) -> None:
        try:
            work = asyncio.get_running_loop().run_in_executor(self._get(), choose, *job.args)
            result = await (asyncio.wait_for(work, job.timeout) if job.timeout else work)
        except Exception as e:
            if not job.fut.done():
                job.fut.set_exception(e)
        else:
            if not job.fut.done():
                job.fut.set_result(result)

    def recover(self, error: BaseException) -> None:
        """After a failed decision: a pool whose worker died (broken) or that did not answer in
        time (a worker may be stuck) is replaced by a fresh one at the next decision; a bot that
        merely raised leaves the pool as it is."""
        if isinstance(error, BrokenProcessPool | TimeoutError):
            self.restart()

    def restart(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # Stop its workers too: a stuck one would otherwise live on (the executor has no way to
        # cancel a running call).
        processes = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            with contextlib.suppress(Exception):
                p.kill()

    def pids(self) -> list[int]:
        """The worker processes' ids (started on the first decision)."""
        return list(getattr(self._pool, "_processes", {}) or {}) if self._pool is not None else []

    def close(self) -> None:
        for queue in self._waiting.values():
            for job in queue:
                job.fut.cancel()
        self._waiting.clear()
        for task in self._running:
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
