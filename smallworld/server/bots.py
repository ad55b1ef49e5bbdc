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
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from smallworld.bots import BOT_NAMES, Bot, make_bot
from smallworld.engine.game import Game
from smallworld.engine.protocol import action_to_json, check_action
from smallworld.engine.settings import Settings

LEVELS = BOT_NAMES  # random, greedy, mcts

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
        bot = _bots[key] = make_bot(level, seconds=1.0) if level == "mcts" else make_bot(level)
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


class BotPool:
    """A pool of worker processes (spawned: a forked copy of a running server is not safe)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def _get(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=ctx, initializer=_watch_parent, initargs=(os.getpid(),)
            )
        return self._pool

    async def choose(
        self,
        game_id: str,
        settings: dict[str, Any],
        seat: int,
        level: str,
        view: dict[str, Any],
        legal: list[dict[str, Any]],
        seed: int,
    ) -> tuple[dict[str, Any], float]:
        loop = asyncio.get_running_loop()
        text = json.dumps(settings, sort_keys=True)
        return await loop.run_in_executor(
            self._get(), choose, game_id, text, settings, seat, level, view, legal, seed
        )

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
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
