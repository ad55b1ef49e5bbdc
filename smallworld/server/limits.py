"""The limits per client (docs/server.md, "Limits"): requests per client address, requests and socket
messages per seat or player token, the size of a body. Hand-written token buckets: the per-token
budget is counted over HTTP and sockets together, which no rate-limiting library covers."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping

from fastapi import FastAPI, Request, Response

from smallworld.server.errors import ServerError
from smallworld.server.refusals import answer
from smallworld.server.sockets import PerAddress
from smallworld.server.tokens import token_hash

MAX_BODY = 64 * 1024  # bytes: the largest action (a whole plan) is a few kilobytes
# Sockets open at once per client address (a person's tabs and devices behind one address), and the
# messages that may wait for a socket whose client does not read (each a view, a few kilobytes).
SOCKETS_PER_ADDRESS = 32
SOCKET_QUEUE = 64
# Requests and socket messages per second per seat or player token, and the burst allowed: far
# above what a person's page sends (a few requests a decision), so only scripts meet it.
TOKEN_RATE = 50.0
TOKEN_BURST = 200.0


class Bucket:
    """A token bucket: `rate` per second, up to `burst` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.t = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Limiter:
    """A token bucket per key (a client address, a token's hash). A flood of new keys (more than
    `cap` held) empties the table rather than growing it without end."""

    def __init__(self, rate: float, burst: float, cap: int = 100_000) -> None:
        self.rate, self.burst, self.cap = rate, burst, cap
        self.buckets: dict[str, Bucket] = {}

    def take(self, key: str) -> bool:
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= self.cap:
                self.buckets.clear()
            b = self.buckets[key] = Bucket(self.rate, self.burst)
        return b.take()


def bearer(headers: Mapping[str, str]) -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header (None: none)."""
    auth = headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return None


class Limits:
    """One app's limits (`create_app`'s arguments; 0: none) and what they count."""

    def __init__(
        self,
        rate: float,
        burst: float,
        socket_rate: float,
        max_body: int,
        token_rate: float,
        token_burst: float,
        sockets_per_address: int,
        socket_queue: int,
    ) -> None:
        self.rate, self.socket_rate, self.token_rate = rate, socket_rate, token_rate
        self.max_body, self.socket_queue = max_body, socket_queue
        self.sockets_per_address = sockets_per_address
        self.by_address = Limiter(rate, burst)
        self.by_token = Limiter(token_rate, token_burst)
        self.per_address = PerAddress(sockets_per_address)

    def token_allowed(self, token: str | None) -> None:
        """Count one use of `token` (by its hash: the table holds no token); `rate_limited`, with
        `field: "token"`, once it is over its rate."""
        if self.token_rate > 0 and token and not self.by_token.take(token_hash(token)):
            raise ServerError(
                "rate_limited",
                f"over {self.token_rate:g} requests and messages per second for this token",
                "token",
            )

    def too_large(self, length: str | None) -> ServerError | None:
        """The refusal of a body whose `Content-Length` is over the limit (None: not over)."""
        if length is not None and length.isdigit() and int(length) > self.max_body:
            return ServerError("too_large", f"the request is over {self.max_body} bytes")
        return None

    def socket_bucket(self) -> Bucket | None:
        """A new socket's own budget of messages (None: no limit)."""
        return Bucket(self.socket_rate, self.socket_rate * 2) if self.socket_rate > 0 else None

    async def check(self, request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        """Every HTTP request, before its route: its address's rate, its token's, its size."""
        if self.rate > 0 and not self.by_address.take(request.client.host if request.client else "?"):
            return answer(ServerError("rate_limited", f"over {self.rate:g} requests per second; slow down"))
        try:
            self.token_allowed(bearer(request.headers))
        except ServerError as e:
            return answer(e)
        refused = self.too_large(request.headers.get("content-length"))
        if refused is not None:
            return answer(refused)
        return await call_next(request)

    def install(self, app: FastAPI) -> None:
        app.state.limits = self
        app.middleware("http")(self.check)
