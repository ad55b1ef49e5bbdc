"""How a game's updates reach every process that holds one of its sockets.

One process: a direct call. Several processes: Redis pub/sub on one channel; a message only says
"game G changed" (its new ply, or that its seats changed), and each process reads the actions it
lacks from the store, so the store stays the one source of truth and nothing secret crosses Redis.

Redis is only a signal, so its outages cost latency, never a move. Publishing never waits on Redis
(a background task sends; while Redis is down messages are dropped). The listener reconnects by
itself with backoff, and every (re)connection after a failure calls `on_resync`: the process reads
again, from the store, every game it serves. A publisher that was cut off says `{"resync": true}`
once it is back, so processes whose own link never broke catch up too."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from smallworld.server.resilience import backoff, is_outage

log = logging.getLogger("smallworld.server")
CHANNEL = "smallworld:games"
Handler = Callable[[dict[str, Any]], Awaitable[None]]
Resync = Callable[[], Awaitable[None]]
# Seconds between reconnection attempts: doubling from the first to the last, with jitter so that
# many processes do not all knock at once when Redis comes back.
BACKOFF = (0.1, 5.0)
# Seconds a command to Redis may take before Redis counts as down (a hung server, not only a dead one).
COMMAND_TIMEOUT = 2.0
# Messages waiting to be published; beyond this they are dropped (the store has every move, and the
# other processes resynchronise after the outage that let them pile up).
PUBLISH_QUEUE = 10_000


class LocalBroker:
    """One process: nobody else to tell, nothing that can fail."""

    def __init__(self) -> None:
        self.handler: Handler | None = None

    async def start(self, handler: Handler, on_resync: Resync | None = None) -> None:
        self.handler = handler

    def publish(self, message: dict[str, Any]) -> None:
        # The process that changed the game has already fanned it out; nobody else to tell.
        return None

    def health(self) -> dict[str, Any]:
        return {"redis": "none"}

    async def close(self) -> None:
        return None


class RedisBroker:
    def __init__(self, url: str, node: str) -> None:
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.node = node
        # No retries inside redis-py: every broken link must reach this class, which then knows to
        # resynchronise (a reconnection hidden inside the client would lose messages unnoticed).
        opts: dict[str, Any] = {
            "socket_connect_timeout": COMMAND_TIMEOUT,
            "retry": Retry(NoBackoff(), 0),
            "retry_on_error": [],
        }
        self.redis = redis.from_url(url, socket_timeout=COMMAND_TIMEOUT, **opts)
        # The listener's link: idle for long stretches, so no read timeout; a PING every few seconds
        # finds a Redis that is gone without closing the connection.
        self.listen_redis = redis.from_url(url, health_check_interval=3, **opts)
        self.handler: Handler | None = None
        self.on_resync: Resync | None = None
        self.listening = False
        self.publishing = True
        self.down_since: float | None = None
        self.last_error: str | None = None
        self.reconnects = 0
        self._outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(PUBLISH_QUEUE)
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self, handler: Handler, on_resync: Resync | None = None) -> None:
        """Start listening and publishing. Waits a little for the first subscription (so that a
        message published right after start-up is heard), but a Redis that is down does not stop
        the server: it starts degraded and catches up when Redis is back."""
        self.handler, self.on_resync = handler, on_resync
        ready = asyncio.Event()
        self._tasks = [
            asyncio.create_task(self._listen(ready), name="broker-listen"),
            asyncio.create_task(self._publisher(), name="broker-publish"),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 2 * COMMAND_TIMEOUT)

    # --- state -----------------------------------------------------------------------------------
    def _down(self, where: str, e: BaseException) -> None:
        first = self.down_since is None
        if first:
            self.down_since = time.time()
        self.last_error = f"{where}: {type(e).__name__}: {e}"
        if first:
            log.warning(json.dumps({"event": "redis_down", "where": where, "error": self.last_error}))

    def _maybe_up(self) -> None:
        if self.down_since is not None and self.listening and self.publishing:
            log.warning(json.dumps({"event": "redis_up", "down_s": round(time.time() - self.down_since, 3)}))
            self.down_since = None

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = {"redis": "up" if self.down_since is None else "down"}
        if self.down_since is not None:
            out["redis_down_since"] = self.down_since
            out["redis_error"] = self.last_error
        return out

    # --- listening -------------------------------------------------------------------------------
    async def _listen(self, ready: asyncio.Event) -> None:
        attempt = 0
        failed = False
        while True:
            pubsub = self.listen_redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self.listening = True
                ready.set()
                attempt = 0
                if failed:
                    self.reconnects += 1
                    await self._resync()
                self._maybe_up()
                while True:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is not None and msg.get("type") == "message":
                        await self._deliver(msg["data"])
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the link broke, or Redis is down: try again after a pause
                self.listening = False
                failed = True
                self._down("listen", e)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            ready.set()  # start-up goes on without Redis
            await asyncio.sleep(backoff(attempt, *BACKOFF))
            attempt += 1

    async def _deliver(self, raw: Any) -> None:
        try:
            data = json.loads(raw)
        except (ValueError, TypeError):
            return
        if not isinstance(data, dict) or data.get("node") == self.node or self.handler is None:
            return
        try:
            if data.get("resync"):
                await self._resync()
            else:
                await self.handler(data)
        except Exception as e:  # one bad update must not stop the listener
            if not is_outage(e):
                log.exception("broker handler failed")
            else:  # the store is out: the watchdog catches the game up once it is back
                line = {"event": "update_deferred", "game": data.get("game"), "error": repr(e)}
                log.warning(json.dumps(line))

    async def _resync(self) -> None:
        if self.on_resync is None:
            return
        try:
            await self.on_resync()
        except Exception as e:  # the store may be down too: the service's watchdog catches up later
            if not is_outage(e):
                log.exception("resync after a Redis outage failed")
            else:
                log.warning(json.dumps({"event": "resync_deferred", "error": repr(e)}))

    # --- publishing ------------------------------------------------------------------------------
    def publish(self, message: dict[str, Any]) -> None:
        """Queue `message` for every other process; never waits, never raises."""
        with contextlib.suppress(asyncio.QueueFull):
            self._outbox.put_nowait(message)

    async def _publisher(self) -> None:
        while True:
            msg = await self._outbox.get()
            try:
                await self.redis.publish(CHANNEL, json.dumps({**msg, "node": self.node}))
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.publishing = False
                self._down("publish", e)
                await self._until_back()

    async def _until_back(self) -> None:
        """After a failed publish: try again with backoff until Redis takes a message, and make that
        message `resync`. What was queued meanwhile is dropped first: those moves are in the store,
        and every process reads the store again when the `resync` arrives."""
        attempt = 0
        while True:
            await asyncio.sleep(backoff(attempt, *BACKOFF))
            attempt += 1
            self._drop_queued()
            try:
                await self.redis.publish(CHANNEL, json.dumps({"resync": True, "node": self.node}))
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self._down("publish", e)
                continue
            self.publishing = True
            self._maybe_up()
            return

    def _drop_queued(self) -> None:
        while not self._outbox.empty():
            self._outbox.get_nowait()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for r in (self.redis, self.listen_redis):
            with contextlib.suppress(Exception):
                await r.aclose()
