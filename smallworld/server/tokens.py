"""Seat and player tokens: 128 bits from the OS generator, stored only as their SHA-256, compared in
constant time (a stolen database gives no usable token; timing gives no prefix)."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str | None, stored_hash: str | None) -> bool:
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)
