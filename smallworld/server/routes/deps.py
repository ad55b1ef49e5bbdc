"""The routes' dependencies: the service, the token a request carries, the game it names, the seat
it reads as, the client's address."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Query, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from smallworld.server.accounts import CSRF_HEADER, SESSION_COOKIE, SessionToken, csrf_ok
from smallworld.server.errors import ServerError
from smallworld.server.limits import bearer
from smallworld.server.models import IntParam
from smallworld.server.service import Live, Service


def service(request: Request) -> Service:
    svc: Service = request.app.state.service
    return svc


ServiceDep = Annotated[Service, Depends(service)]

# Described as the bearer scheme `token` (optional wherever it is taken); read as the limits read it.
_scheme = HTTPBearer(
    scheme_name="token", description="a seat or player token (docs/server.md, Tokens)", auto_error=False
)


async def token(
    request: Request, _: Annotated[HTTPAuthorizationCredentials | None, Security(_scheme)]
) -> str | None:
    """The seat or player token of `Authorization: Bearer TOKEN`; without one, the session of the
    cookie `sw_session` (a logged-in browser, `accounts.py`), whose posts must carry its CSRF token;
    None: none."""
    sent = bearer(request.headers)
    if sent is not None:
        return sent
    session = request.cookies.get(SESSION_COOKIE)
    if not session:
        return None
    if request.method not in ("GET", "HEAD") and not csrf_ok(session, request.headers.get(CSRF_HEADER)):
        raise ServerError(
            "csrf", "a post made by a logged-in browser needs its X-CSRF-Token header", "X-CSRF-Token"
        )
    return SessionToken(session)


TokenDep = Annotated[str | None, Depends(token)]

# A game's id: 16 hexadecimal digits (anything else is `not_found`, without a lookup).
GameId = Annotated[str, Path(description="a game's id", json_schema_extra={"pattern": "^[0-9a-f]{16}$"})]


async def game(gid: GameId, svc: ServiceDep) -> Live:
    """The game of the path (`not_found`: none)."""
    return await svc.get(gid)


GameDep = Annotated[Live, Depends(game)]


async def reader(
    live: GameDep,
    svc: ServiceDep,
    token: TokenDep,
    seat: Annotated[
        IntParam | None, Query(description="the seat to read as (default: the seat token's)")
    ] = None,
) -> int | None:
    """The seat a request reads the game as: `seat` when the token may act for it, else the seat of
    a seat token, else none (a spectator)."""
    return await svc.seat_of(live, token) if seat is None else await svc.authorize(live, seat, token)


ReaderDep = Annotated[int | None, Depends(reader)]


def address(request: Request) -> str | None:
    return request.client.host if request.client else None


AddressDep = Annotated[str | None, Depends(address)]
SeatPath = Annotated[IntParam, Path(description="a seat's number")]
Client = Annotated[
    str | None, Query(description="web: the web client's extras", json_schema_extra={"enum": ["web"]})
]
