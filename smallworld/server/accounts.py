"""Accounts (issue 29, item 1): a player with a name no other account's can be mistaken for and a
password, who logs in from any browser.

A logged-in browser holds a session: a random secret in the HttpOnly cookie `sw_session`, stored
hashed (`schema.sessions`). A session is the account's player token for that browser: wherever the
API takes a player token, the session cookie is read when no `Authorization` header is sent, so
"my games", creating and joining games and acting for one's seats work from a second device without
the seat tokens of the first. A session expires after the player tokens' idle time and ends at
log-out; a password change ends every other session of the account.

Cross-site requests: the cookie is `SameSite=Lax`, and a request that a session cookie
authenticates must also carry the session's CSRF token (`X-CSRF-Token`, given by sign-up, log-in and
`GET /api/account`, and in the readable cookie `sw_csrf`) unless it is a GET; sign-up and log-in
refuse a request that a browser marks as coming from another site (`Origin`, `Sec-Fetch-Site`).

Passwords are hashed with argon2id (`argon2-cffi`, its default parameters, rehashed when those
change); failed log-ins are limited per name and per address (`LOGIN_FAILURES` in `LOGIN_WINDOW`
seconds: `rate_limited` with the seconds to wait), counted in the store: the limit is one for every
server process on it (`Failures`)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import re
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, cast

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from smallworld.server import schema as t
from smallworld.server.errors import ServerError
from smallworld.server.inputs import name_of, text
from smallworld.server.namekey import name_key
from smallworld.server.store import Store
from smallworld.server.tokens import new_token, token_hash
from smallworld.words import LANGS

log = logging.getLogger("smallworld.server")

_EMAIL = re.compile(r"[^@\s\x00-\x1f]+@[^@\s\x00-\x1f]+\.[^@\s\x00-\x1f]+")
SESSION_COOKIE = "sw_session"
CSRF_COOKIE = "sw_csrf"
CSRF_HEADER = "x-csrf-token"
MIN_PASSWORD = 8
MAX_PASSWORD = 256
LOGIN_FAILURES = 5
LOGIN_WINDOW = 15 * 60.0

_hasher = PasswordHasher()


@functools.cache
def _dummy_hash() -> str:
    """Verifying against this hash takes as long as against a real one: an unknown name answers no
    sooner. Made at the first log-in, not at import: every `smallworld serve` and every test worker
    imports this module, and a hash costs a fifth of a second of CPU."""
    return _hasher.hash("not a password of anyone")


class SessionToken(str):
    """A session secret read from the cookie (not sent on purpose, as a bearer token is): where a
    request needs no identity, an ended session reads as none rather than as a refusal."""


def csrf_of(session: str) -> str:
    """The CSRF token of a session: derived from its secret, so nothing more is stored."""
    return hashlib.sha256(b"csrf:" + session.encode()).hexdigest()[:32]


def csrf_ok(session: str, sent: str | None) -> bool:
    return sent is not None and hmac.compare_digest(csrf_of(session), sent)


def password_of(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ServerError(
            "invalid_input", f"{where}: a string of {MIN_PASSWORD} to {MAX_PASSWORD} characters", where
        )
    if not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise ServerError(
            "invalid_input",
            f"{where}: {MIN_PASSWORD} to {MAX_PASSWORD} characters ({len(value)} given)",
            where,
        )
    try:
        text(value, MAX_PASSWORD)  # no NUL, no lone surrogate, no control character
    except Exception:
        raise ServerError("invalid_input", f"{where}: no control characters", where) from None
    return value


# --- the store -------------------------------------------------------------------------------------
def _account_by_key(store: Store, key: str) -> dict[str, Any] | None:
    with store.engine.connect() as c:
        r = c.execute(select(t.players).where(t.players.c.name_key == key)).first()
    return dict(r._mapping) if r else None


def _player_by_id(store: Store, pid: str) -> dict[str, Any] | None:
    with store.engine.connect() as c:
        r = c.execute(select(t.players).where(t.players.c.id == pid)).first()
    return dict(r._mapping) if r else None


def _make_account(
    store: Store, pid: str, name: str, key: str, pw_hash: str, token_hash_: str | None, session_hash: str
) -> None:
    """A new player with an account (`token_hash_` given) or an anonymous one made an account, and
    its first session, in one transaction: a name taken meanwhile changes nothing."""
    now = time.time()
    with store._begin() as c:
        account = {"name": name, "name_key": key, "password_hash": pw_hash, "account": now}
        if token_hash_ is not None:
            c.execute(
                insert(t.players).values(id=pid, token_hash=token_hash_, created=now, used=now, **account)
            )
        else:
            done = c.execute(
                update(t.players)
                .where(t.players.c.id == pid, t.players.c.name_key.is_(None))
                .values(**account)
            )
            if done.rowcount != 1:
                raise ServerError("account_exists", "this player has an account already: log in", "token")
        c.execute(insert(t.sessions).values(token_hash=session_hash, player_id=pid, created=now, used=now))


def _add_session(store: Store, pid: str, session_hash: str, new_password_hash: str | None = None) -> None:
    now = time.time()
    with store._begin() as c:
        c.execute(insert(t.sessions).values(token_hash=session_hash, player_id=pid, created=now, used=now))
        if new_password_hash is not None:
            c.execute(update(t.players).where(t.players.c.id == pid).values(password_hash=new_password_hash))


def player_by_session(store: Store, session_hash: str) -> dict[str, Any] | None:
    """The player a session opens, as `Store.player_by_hash` gives one, with the session's own
    `token_hash`, `used` and `revoked` (so it expires and ends as a player token does) and
    `session: True`."""
    with store.engine.connect() as c:
        r = c.execute(
            select(t.players, t.sessions.c.used.label("s_used"), t.sessions.c.revoked.label("s_revoked"))
            .join(t.sessions, t.sessions.c.player_id == t.players.c.id)
            .where(t.sessions.c.token_hash == session_hash)
        ).first()
    if r is None:
        return None
    p = dict(r._mapping)
    p["token_hash"] = session_hash
    p["used"], p["revoked"] = p.pop("s_used"), p.pop("s_revoked")
    p["session"] = True
    return p


def touch_session(store: Store, session_hash: str, **values: Any) -> None:
    with store._begin() as c:
        c.execute(update(t.sessions).where(t.sessions.c.token_hash == session_hash).values(**values))


def _end_sessions(store: Store, pid: str, keep: str | None) -> int:
    with store._begin() as c:
        q = update(t.sessions).where(t.sessions.c.player_id == pid, t.sessions.c.revoked.is_(None))
        if keep is not None:
            q = q.where(t.sessions.c.token_hash != keep)
        return int(c.execute(q.values(revoked=time.time())).rowcount or 0)


# --- limits ----------------------------------------------------------------------------------------
def _hashed(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class Failures:
    """Failed log-ins per key (a name's key, an address) in the last `window` seconds, counted in the
    store (`schema.login_failures`), so that every server process on it shares one count: with N
    processes an attacker still has `limit` guesses, not N times as many.

    An attempt is counted before it is tried (`hold`): its rows are written and committed first, then
    the recent rows counted, so of attempts in flight at once (in one process or several) the later
    ones see the earlier and no more than `limit` are ever tried. An attempt that succeeds takes its
    rows back (`release`); a failed one leaves them; one refused leaves nothing (waiting out the limit
    is enough). Rows older than the window are pruned, at most once a minute per process."""

    PRUNE_EVERY = 60.0

    def __init__(self, store: Store, limit: int = LOGIN_FAILURES, window: float = LOGIN_WINDOW) -> None:
        self.store, self.limit, self.window = store, limit, window
        self._pruned = 0.0

    def hold(self, keys: list[str]) -> list[tuple[str, float]]:
        """Count an attempt against each of `keys`; `rate_limited` (with the seconds to wait) when a
        key had `limit` failures already. Answers the rows written, for `release`."""
        now = time.time()
        rows = [(_hashed(k), now) for k in keys]
        self._write(rows, now)
        lf = t.login_failures
        with self.store.engine.connect() as c:
            found = c.execute(
                select(lf.c.key, lf.c.at)
                .where(lf.c.key.in_([k for k, _ in rows]), lf.c.at > now - self.window)
                .order_by(lf.c.at)
            ).all()
        seen: dict[str, list[float]] = {}
        for key, at in found:
            seen.setdefault(str(key), []).append(cast(float, at))
        for ats in seen.values():
            if len(ats) > self.limit:  # this attempt's row and `limit` before it
                self.release(rows)
                # The count falls under the limit once the failure `limit` places back ages out.
                wait = int(ats[len(ats) - 1 - self.limit] + self.window - now) + 1
                raise ServerError(
                    "rate_limited", f"too many failed log-ins: try again in {wait} seconds", "password"
                )
        return rows

    def release(self, rows: list[tuple[str, float]], clear: str | None = None) -> None:
        """Take back an attempt's rows (it succeeded, or was refused before it was tried); `clear`:
        a key whose failures all end with it (a name, once its password is given)."""
        lf = t.login_failures
        with self.store._begin() as c:
            for key, at in rows:
                c.execute(delete(lf).where(lf.c.key == key, lf.c.at == at))
            if clear is not None:
                c.execute(delete(lf).where(lf.c.key == _hashed(clear)))

    def _write(self, rows: list[tuple[str, float]], now: float) -> None:
        lf = t.login_failures
        with self.store._begin() as c:
            if now - self._pruned >= self.PRUNE_EVERY:
                self._pruned = now
                c.execute(delete(lf).where(lf.c.at <= now - self.window))
            c.execute(insert(lf), [{"key": key, "at": at} for key, at in rows])


@dataclass
class _Attempt:
    """What an attempt under the log-in limits came to: `failed` keeps its rows (a failure);
    `clear`, a key whose failures end with its success."""

    failed: bool = False
    clear: str | None = None


# --- the service's part ----------------------------------------------------------------------------
def _public(p: dict[str, Any]) -> dict[str, Any]:
    return {"id": p["id"], "name": p["name"]}


class Accounts:
    """Sign-up, log-in, log-out, the account of a request, password change (module docstring).
    `service` is the server's `Service` (its store, its token checks)."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.store: Store = service.store
        self.failures = Failures(self.store)

    @contextlib.asynccontextmanager
    async def _attempt(self, keys: list[str]) -> AsyncIterator[_Attempt]:
        """An attempt counted against `keys` (`Failures.hold`) while it runs; unless it is marked
        failed, its count is taken back when it ends, however it ends."""
        rows = await asyncio.to_thread(self.failures.hold, keys)
        attempt = _Attempt()
        try:
            yield attempt
        finally:
            if not attempt.failed:
                await asyncio.to_thread(self.failures.release, rows, attempt.clear)

    def _answer(self, p: dict[str, Any], session: str) -> dict[str, Any]:
        return {"player": _public(p), "account": True, "csrf": csrf_of(session)}

    async def sign_up(
        self, token: str | None, name: Any, password: Any, address: str | None
    ) -> tuple[dict[str, Any], str]:
        """A new account, or (with an anonymous player's token) that player made an account: it
        keeps its id, its games and its seats. Answers the account and the new session's secret."""
        shown = name_of(name, "name", default="")
        if not shown:
            raise ServerError("invalid_input", "name: the account's name", "name")
        pw = password_of(password, "password")
        key = name_key(shown)
        if not any(c.isalnum() for c in key):
            raise ServerError("invalid_input", "name: at least one letter or digit", "name")
        owner = await self.service.player(token) if token else None
        if token and owner is None:
            raise ServerError("bad_token", "the player token is not known", "token")
        session = new_token()
        pid = owner["id"] if owner else uuid.uuid4().hex
        # A name taken counts against the address as a failed log-in does: probing for taken names
        # is slowed down.
        async with self._attempt([f"signup:{address}"]) as attempt:
            pw_hash = await asyncio.to_thread(_hasher.hash, pw)
            try:
                await asyncio.to_thread(
                    _make_account,
                    self.store,
                    pid,
                    shown,
                    key,
                    pw_hash,
                    None if owner else token_hash(new_token()),
                    token_hash(session),
                )
            except IntegrityError:
                attempt.failed = True
                raise ServerError(
                    "name_taken", f"the name {shown!r} (or one that looks like it) has an account", "name"
                ) from None
        log.info(json.dumps({"event": "signed_up", "player": pid, "claimed": owner is not None}))
        return self._answer({"id": pid, "name": shown}, session), session

    async def log_in(self, name: Any, password: Any, address: str | None) -> tuple[dict[str, Any], str]:
        shown = name_of(name, "name", default="")
        if not isinstance(password, str) or not password:
            raise ServerError("invalid_input", "password: the account's password", "password")
        key = name_key(shown)
        async with self._attempt([f"name:{key}", f"addr:{address}"]) as attempt:
            p = await asyncio.to_thread(_account_by_key, self.store, key) if key else None
            ok = await asyncio.to_thread(
                self._verify, p["password_hash"] if p else None, password[:MAX_PASSWORD]
            )
            if p is None or not ok:
                attempt.failed = True
                raise ServerError("bad_login", "no account has this name and password", "password")
            attempt.clear = f"name:{key}"
        session = new_token()
        rehash = None
        if _hasher.check_needs_rehash(p["password_hash"]):
            rehash = await asyncio.to_thread(_hasher.hash, password)
        await asyncio.to_thread(_add_session, self.store, p["id"], token_hash(session), rehash)
        log.info(json.dumps({"event": "logged_in", "player": p["id"]}))
        return self._answer(p, session), session

    @staticmethod
    def _verify(pw_hash: str | None, password: str) -> bool:
        """In a worker thread; `None` (no such account) is checked against the dummy hash."""
        try:
            if pw_hash is None:
                _hasher.verify(_dummy_hash(), password)
                return False
            return bool(_hasher.verify(pw_hash, password))
        except (VerificationError, InvalidHashError):
            return False

    async def me(self, token: str | None) -> dict[str, Any]:
        p = await self.service.player(token) if token else None
        if p is None:
            raise ServerError("bad_token", "log in, or send a player token", "token")
        out: dict[str, Any] = {"player": _public(p), "account": p.get("name_key") is not None}
        if out["account"]:
            out.update(
                {"email": p.get("email"), "digest": bool(p.get("digest")), "lang": p.get("lang") or "en"}
            )
        if p.get("session") and token:
            out["csrf"] = csrf_of(token)
        return out

    async def set_email(self, token: str | None, email: Any, digest: Any, lang: Any) -> dict[str, Any]:
        """The account's address for the daily digest (None: none), whether to send it, and its
        language (digest.py)."""
        p = await self.service.player(token) if token else None
        if p is None or p.get("name_key") is None:
            raise ServerError("bad_token", "log in to set an e-mail address", "token")
        if email is not None and (
            not isinstance(email, str) or not _EMAIL.fullmatch(email) or len(email) > 254
        ):
            raise ServerError("invalid_input", "email: an address such as ann@example.org, or null", "email")
        if not isinstance(digest, bool):
            raise ServerError("invalid_input", "digest: true or false", "digest")
        if lang not in LANGS:
            raise ServerError("invalid_input", f"lang: one of {list(LANGS)}", "lang")
        if digest and email is None:
            raise ServerError("invalid_input", "digest: an e-mail address is needed to send one", "digest")

        def write() -> None:
            with self.store._begin() as c:
                values = {"email": email, "digest": digest, "lang": lang}
                c.execute(update(t.players).where(t.players.c.id == p["id"]).values(**values))

        await asyncio.to_thread(write)
        return {"player": _public(p), "email": email, "digest": digest, "lang": lang}

    async def log_out(self, session: str | None) -> dict[str, Any]:
        """End this browser's session (again: the same answer)."""
        p = await asyncio.to_thread(player_by_session, self.store, token_hash(session)) if session else None
        if p is None:
            raise ServerError("bad_token", "this browser is not logged in", "token")
        if p["revoked"] is None:
            await asyncio.to_thread(touch_session, self.store, p["token_hash"], revoked=time.time())
            self.service.sessions.forget(p["id"])
        log.info(json.dumps({"event": "logged_out", "player": p["id"], "session": True}))
        return {"player": _public(p), "logged_out": True}

    async def change_password(
        self, token: str | None, old: Any, new: Any, address: str | None
    ) -> dict[str, Any]:
        p = await self.service.player(token) if token else None
        if p is None or p.get("name_key") is None:
            raise ServerError("bad_token", "log in to change the password", "token")
        if not isinstance(old, str):
            raise ServerError("invalid_input", "password: the present password", "password")
        pw = password_of(new, "new_password")
        async with self._attempt([f"name:{p['name_key']}", f"addr:{address}"]) as attempt:
            full = await asyncio.to_thread(_player_by_id, self.store, p["id"])
            assert full is not None
            if not await asyncio.to_thread(self._verify, full["password_hash"], old[:MAX_PASSWORD]):
                attempt.failed = True
                raise ServerError("bad_login", "the present password is not this", "password")
        new_hash = await asyncio.to_thread(_hasher.hash, pw)

        def write() -> int:
            with self.store._begin() as c:
                c.execute(update(t.players).where(t.players.c.id == p["id"]).values(password_hash=new_hash))
            return _end_sessions(self.store, p["id"], keep=p["token_hash"] if p.get("session") else None)

        ended = await asyncio.to_thread(write)
        self.service.sessions.forget(p["id"])
        log.info(json.dumps({"event": "password_changed", "player": p["id"], "sessions_ended": ended}))
        return {"player": _public(p), "sessions_ended": ended}
