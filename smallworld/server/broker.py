"""How a game's updates reach every process that holds one of its sockets.

One process: a direct call. Several processes: Redis pub/sub on one channel; a message only says
"game G changed" (its new ply, or that its seats changed), and each process reads the actions it
lacks from the store, so the store stays the one source of truth and nothing secret crosses Redis."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("smallworld.server")
CHANNEL = "smallworld:games"
Handler = Callable[[dict[str, Any]], Awaitable[None]]


class LocalBroker:
    def __init__(self) -> None:
        self.handler: Handler | None = None

    async def start(self, handler: Handler) -> None:
        self.handler = handler

    async def publish(self, message: dict[str, Any]) -> None:
        # The process that changed the game has already fanned it out; nobody else to tell.
        return None

    async def close(self) -> None:
        return None


class RedisBroker:
    def __init__(self, url: str, node: str) -> None:
        import redis.asyncio as redis

        self.node = node
        self.redis = redis.from_url(url)
        self.handler: Handler | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, handler: Handler) -> None:
        self.handler = handler
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        ready = asyncio.Event()
        self._task = asyncio.create_task(self._listen(pubsub, ready))
        await ready.wait()

    async def _listen(self, pubsub: Any, ready: asyncio.Event) -> None:
        ready.set()
        async for msg in pubsub.listen():
            if msg.get("type") != "message":
                continue
            try:
                data = json.loads(msg["data"])
            except (ValueError, TypeError):
                continue
            if data.get("node") == self.node or self.handler is None:
                continue
            try:
                await self.handler(data)
            except Exception:  # one bad update must not stop the listener
                log.exception("broker handler failed")

    async def publish(self, message: dict[str, Any]) -> None:
        await self.redis.publish(CHANNEL, json.dumps({**message, "node": self.node}))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.redis.aclose()
