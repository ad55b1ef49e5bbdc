"""The accounts of `bench server --ratings on` (issue 29's load check): one account per simulated
player, signed up before the clock starts, and afterwards what the server says the rated games did
(`GET /api/players/{id}/ratings`)."""

from __future__ import annotations

import asyncio
import secrets
import time
from dataclasses import dataclass

import httpx

# The server's cookie names and CSRF header (smallworld/server/accounts.py), spelled out here: the
# benchmark is a client and imports nothing of the server.
SESSION_COOKIE, CSRF_HEADER = "sw_session", "X-CSRF-Token"
PASSWORD = "bench-load-check-password"
# Letters only, none of i, l, o: account names are compared folded (i, l and 1 are one letter, o and
# 0 another; smallworld/server/namekey.py), so digits would make look-alike names of distinct ones.
_LETTERS = "abcdefghjkmnpqrstuvwxyz"


@dataclass(frozen=True)
class Account:
    """A signed-up player: its id, and the session its requests and sockets carry."""

    id: str
    name: str
    session: str
    csrf: str

    @property
    def cookie(self) -> str:
        return f"{SESSION_COOKIE}={self.session}"

    @property
    def headers(self) -> dict[str, str]:
        """A logged-in browser's post: the session cookie and its CSRF token."""
        return {"Cookie": self.cookie, CSRF_HEADER: self.csrf}


def _spelled(n: int) -> str:
    out = ""
    while True:
        n, r = divmod(n, len(_LETTERS))
        out = _LETTERS[r] + out
        if n == 0:
            return out


async def sign_up(url: str, tables: int, players: int, at_once: int = 4) -> list[list[Account]]:
    """`tables` tables of `players` new accounts (names unique to this call), signed up `at_once` at
    a time (each is an argon2 hash on the server)."""
    tag = "".join(secrets.choice(_LETTERS) for _ in range(6))
    gate = asyncio.Semaphore(at_once)

    async def one(n: int) -> Account:
        name = f"bench {tag} {_spelled(n)}"
        # A client for each: a browser of its own, whose cookie jar is never used again (the timed
        # requests carry each account's cookie themselves: `Account.headers`).
        async with gate, httpx.AsyncClient(timeout=120) as http:
            r = await http.post(url + "/api/accounts", json={"name": name, "password": PASSWORD})
        if r.status_code != 200:
            raise RuntimeError(f"signing up {name!r}: {r.status_code} {r.text}")
        session = r.cookies.get(SESSION_COOKIE)
        if not session:
            raise RuntimeError(f"signing up {name!r}: no session cookie")
        body = r.json()
        return Account(str(body["player"]["id"]), name, session, str(body["csrf"]))

    made = await asyncio.gather(*(one(n) for n in range(tables * players)))
    return [list(made[i * players : (i + 1) * players]) for i in range(tables)]


def rating_counts(
    url: str, accounts: list[Account], expected: int, pool: str, wait: float = 60.0
) -> dict[str, int]:
    """What the server rated, read from each account's ratings: `ratings_updated` (one per player
    of each rated game: the sum of the accounts' rated games in `pool`) and `rated_games` (distinct
    games in their histories). A game is rated just after its end, off the acting path: this waits
    (up to `wait` s) for `expected` updates, then answers what there is."""
    deadline = time.monotonic() + wait
    with httpx.Client(timeout=60) as http:
        while True:
            updated, games = 0, set[str]()
            for a in accounts:
                r = http.get(f"{url}/api/players/{a.id}/ratings")
                r.raise_for_status()
                for entry in r.json()["ratings"]:
                    if entry["pool"] != pool:
                        continue
                    updated += int(entry["games"])
                    games.update(str(h["game"]) for h in entry["history"])
            if updated >= expected or time.monotonic() > deadline:
                return {"ratings_updated": updated, "rated_games": len(games)}
            time.sleep(0.5)
