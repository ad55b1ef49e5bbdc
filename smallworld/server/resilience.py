"""What the server does when what it depends on fails: which errors are outages (the database or
Redis gone for a while, not a bug nor a refusal), and retrying with backoff until they pass."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

from redis.exceptions import ConnectionError as RedisDown
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisSlow
from sqlalchemy.exc import (
    DBAPIError,
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    ResourceClosedError,
    SQLAlchemyError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

from smallworld.server.errors import ServerError

log = logging.getLogger("smallworld.server")
T = TypeVar("T")
# Seconds between tries of a task that met an outage: from the first, doubling, up to the last.
RETRY = (0.2, 10.0)


def backoff(attempt: int, first: float, last: float) -> float:
    """Seconds to wait before try `attempt` (0-based) after a failure: doubling from `first`, at most
    `last`, with jitter so that many waiters do not all knock at once."""
    return min(last, first * 2**attempt) * random.uniform(0.5, 1.0)


# The exception classes among which outages are found (`is_outage` tells which): the app answers
# them `unavailable`.
OUTAGES: tuple[type[Exception], ...] = (SQLAlchemyError, OSError, RedisError)


def is_outage(e: BaseException) -> bool:
    """True for an error that says the store (or Redis) cannot be reached now: a lost or refused
    connection, a pool with no connection to give, a server shutting down. A constraint the data
    broke (`IntegrityError`) is no outage: it is an answer."""
    if isinstance(e, IntegrityError):
        return False
    lost = OperationalError | InterfaceError | DisconnectionError | PoolTimeout | ResourceClosedError
    if isinstance(e, lost | OSError | RedisDown | RedisSlow):
        return True
    return isinstance(e, DBAPIError) and e.connection_invalidated


def unavailable(e: BaseException) -> ServerError:
    """The refusal a client gets while the store is down: `unavailable` (503), try again."""
    return ServerError("unavailable", f"the game store cannot be reached now ({type(e).__name__}); try again")


async def retrying(
    what: str, attempt: Callable[[], Awaitable[T]], still_wanted: Callable[[], bool]
) -> T | None:
    """`attempt()` until it returns, retrying after each outage with backoff; None once
    `still_wanted()` turns false (the game moved on, the server is closing). Other errors pass."""
    tries = 0
    while True:
        try:
            return await attempt()
        except Exception as e:
            if not is_outage(e):
                raise
            log.warning(json.dumps({"event": "retry", "what": what, "try": tries + 1, "error": repr(e)}))
        await asyncio.sleep(backoff(tries, *RETRY))
        tries += 1
        if not still_wanted():
            return None
