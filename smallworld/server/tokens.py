"""Seat and player tokens: 128 bits from the OS generator, stored only as their SHA-256, compared in
constant time (a stolen database gives no usable token; timing gives no prefix). A token unused for
longer than the idle time is refused (`serve --token-idle`); its uses are written down at most once
an hour (`USE_EVERY`), not at every action."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    if type(token) is Hashed:
        return token.sha
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Hashed(str):
    """A token that knows its hash, worked out once: a socket's, which every message it sends uses
    (the token's rate and the seat's check hashed it for each `act`)."""

    sha: str


def hashed(token: str | None) -> str | None:
    """`token` as a `Hashed` (None and the empty string as they are)."""
    if not token:
        return token
    out = Hashed(token)
    out.sha = hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
    return out


def matches(token: str | None, stored_hash: str | None) -> bool:
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


# A token unused this long is refused: longer than the longest turn deadline (30 days), so a
# player waiting for their turn is never locked out of it.
IDLE_DAYS = 90.0
LONGEST_DEADLINE_DAYS = 30.0
USE_EVERY = 3600.0  # seconds: a token's last use is stored once per hour at most


def expired(used: float | None, now: float, idle: float) -> bool:
    """Unused for longer than `idle` seconds (a token with no recorded use never was)."""
    return used is None or now - used > idle


def expired_message(kind: str, idle: float) -> str:
    return f"this {kind} token expired: unused for more than {idle / 86400:g} days"
