"""Accounts: sign up (or make the anonymous player of this browser an account), log in and out,
the account of this browser, password change (`accounts.py`; docs/server.md, Accounts)."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import Request, Response
from pydantic import WithJsonSchema

from smallworld.server.accounts import (
    CSRF_COOKIE,
    MAX_PASSWORD,
    MIN_PASSWORD,
    SESSION_COOKIE,
    Accounts,
    csrf_of,
)
from smallworld.server.errors import ServerError
from smallworld.server.inputs import MAX_NAME
from smallworld.server.models import Answer, Body, Player
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import AddressDep, TokenDep

router = api_router("accounts")


_NAME = WithJsonSchema({"type": "string", "minLength": 1, "maxLength": MAX_NAME})
_PASSWORD = WithJsonSchema({"type": "string", "minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD})


class SignUp(Body):
    """An account's name (unique: no other account's may look like it) and password."""

    name: Annotated[Any, _NAME] = None
    password: Annotated[Any, _PASSWORD] = None


class LogIn(Body):
    name: Annotated[Any, _NAME] = None
    password: Annotated[Any, WithJsonSchema({"type": "string"})] = None


class NewPassword(Body):
    """The present password and the new one."""

    password: Annotated[Any, WithJsonSchema({"type": "string"})] = None
    new_password: Annotated[Any, _PASSWORD] = None


class AccountAnswer(Answer):
    player: Player
    account: bool
    csrf: str | None = None
    email: str | None = None
    digest: bool | None = None
    lang: str | None = None


class EmailSettings(Body):
    """The daily digest's address (null: none), whether to send it, and its language."""

    email: Annotated[Any, WithJsonSchema({"type": ["string", "null"], "maxLength": 254})] = None
    digest: Annotated[Any, WithJsonSchema({"type": "boolean"})] = False
    lang: Annotated[Any, WithJsonSchema({"type": "string", "enum": ["en", "pt", "de"]})] = "en"


class EmailSet(Answer):
    player: Player
    email: str | None
    digest: bool
    lang: str


class LoggedOutAnswer(Answer):
    player: Player
    logged_out: bool


class PasswordChanged(Answer):
    player: Player
    sessions_ended: int


def _accounts(request: Request) -> Accounts:
    acc: Accounts | None = getattr(request.app.state, "accounts", None)
    if acc is None:
        acc = request.app.state.accounts = Accounts(request.app.state.service)
    return acc


def _same_site(request: Request) -> None:
    """Sign-up and log-in only from this site's own pages (or from a program, which sends no
    `Origin`): a page of another site cannot log a visitor into an account of its choosing."""
    refused = ServerError("csrf", "a request from another site's page is refused", "Origin")
    if request.headers.get("sec-fetch-site") == "cross-site":
        raise refused
    origin = request.headers.get("origin")
    if origin is not None and (origin == "null" or urlsplit(origin).netloc != request.headers.get("host")):
        raise refused


def _set_session(request: Request, response: Response, session: str) -> None:
    secure = request.url.scheme == "https"
    age = int(request.app.state.service.token_idle)
    response.set_cookie(
        SESSION_COOKIE, session, max_age=age, path="/", secure=secure, httponly=True, samesite="lax"
    )
    response.set_cookie(CSRF_COOKIE, csrf_of(session), max_age=age, path="/", secure=secure, samesite="lax")


@router.post("/api/accounts", response_model=AccountAnswer)
async def sign_up(
    body: SignUp, request: Request, response: Response, token: TokenDep, address: AddressDep
) -> dict[str, Any]:
    """A new account; with the player token of an anonymous player (`Authorization`), that player
    becomes the account and keeps its games. The answer logs this browser in (cookies)."""
    _same_site(request)
    answer, session = await _accounts(request).sign_up(token, body.name, body.password, address)
    _set_session(request, response, session)
    return answer


@router.post("/api/session", response_model=AccountAnswer)
async def log_in(body: LogIn, request: Request, response: Response, address: AddressDep) -> dict[str, Any]:
    """Log in: a new session for this browser (cookies); `bad_login` when no account has this name
    and password, `rate_limited` (with the seconds to wait) after 5 failures in 15 minutes for the
    name or the address, counted by every server process on the database together."""
    _same_site(request)
    answer, session = await _accounts(request).log_in(body.name, body.password, address)
    _set_session(request, response, session)
    return answer


@router.post("/api/session/logout", response_model=LoggedOutAnswer)
async def log_out(request: Request, response: Response, token: TokenDep) -> dict[str, Any]:
    """End this browser's session (the CSRF token is needed, as for any post a session makes)."""
    answer = await _accounts(request).log_out(request.cookies.get(SESSION_COOKIE) if token else None)
    response.delete_cookie(SESSION_COOKIE, path="/")
    response.delete_cookie(CSRF_COOKIE, path="/")
    return answer


@router.get("/api/account", response_model=AccountAnswer)
async def me(request: Request, token: TokenDep) -> dict[str, Any]:
    """The player of this browser's session (or of the player token sent), whether it is an account,
    and the session's CSRF token."""
    return await _accounts(request).me(token)


@router.post("/api/account/password", response_model=PasswordChanged)
async def change_password(
    body: NewPassword, request: Request, token: TokenDep, address: AddressDep
) -> dict[str, Any]:
    """A new password; every other session of the account ends."""
    return await _accounts(request).change_password(token, body.password, body.new_password, address)


@router.post("/api/account/email", response_model=EmailSet)
async def set_email(body: EmailSettings, request: Request, token: TokenDep) -> dict[str, Any]:
    """The address for the daily digest of games where it is your turn (docs/players.md), whether to
    send it (opt-in), and its language."""
    return await _accounts(request).set_email(token, body.email, body.digest, body.lang)
