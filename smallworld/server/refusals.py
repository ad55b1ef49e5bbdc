"""Every refusal answered in the server's one error format (docs/server.md, Errors): its own
`ServerError`s, the engine's errors, the framework's (no such path, a method a path does not take),
a request model's (`invalid_input` naming the field, not FastAPI's 422 body), an outage of the
store or of Redis (`unavailable`, 503) and a fault of the server's own (`internal_error`, logged)."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException

from smallworld.engine.model.errors import SmallworldError
from smallworld.server.errors import ServerError, status_of
from smallworld.server.inputs import Invalid, field_name
from smallworld.server.metrics import Metrics
from smallworld.server.resilience import OUTAGES, is_outage, unavailable

log = logging.getLogger("smallworld.server")
# Seconds a client is told to wait before trying again while the store is out (`Retry-After`).
RETRY_AFTER = 2


def answer(e: ServerError | SmallworldError) -> JSONResponse:
    return JSONResponse(e.to_json(), status_code=status_of(e))


def invalid(errors: Sequence[Any], where: str = "body") -> ServerError:
    """The refusal of a request model's first error (a model checks its fields in order): the rule
    the value broke (`inputs.Invalid`) at its field; `where` names the whole."""
    first = errors[0] if errors else {}
    loc = tuple(first.get("loc", ()))
    if loc and loc[0] in ("body", "query", "path", "header"):
        loc = loc[1:]
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, Invalid):
        if cause.field is not None:
            return ServerError("invalid_input", cause.rule, cause.field)
        field = field_name(loc + ((cause.at,) if cause.at else ()), where)
        return ServerError("invalid_input", f"{field}: {cause.rule}", field)
    if first.get("type") == "missing" and not loc:  # no body at all
        return ServerError("invalid_input", "the request must be a JSON object", where)
    field = field_name(loc, where)
    if first.get("type") == "missing":
        return ServerError("invalid_input", f"{field}: required", field)
    return ServerError("invalid_input", f"{field}: {first.get('msg', 'invalid')}", field)


def from_validation(e: ValidationError, where: str = "body") -> ServerError:
    return invalid(e.errors(include_url=False), where)


def _framework(e: HTTPException) -> ServerError:
    if e.status_code == 404:
        return ServerError("not_found", "no such path")
    if e.status_code == 405:
        return ServerError("method_not_allowed", f"this path does not take that method ({e.detail})")
    return ServerError("invalid_input", str(e.detail))


def install(app: FastAPI, metrics: Metrics) -> None:
    """The app's exception handlers."""

    async def refused(request: Request, e: Exception) -> Response:
        assert isinstance(e, ServerError | SmallworldError)
        return answer(e)

    async def framework(request: Request, e: Exception) -> Response:
        assert isinstance(e, HTTPException)
        return answer(_framework(e))

    async def model(request: Request, e: Exception) -> Response:
        assert isinstance(e, RequestValidationError)
        return answer(invalid(e.errors()))

    async def bug(request: Request, e: Exception) -> Response:
        log.error("unexpected error in %s %s", request.method, request.url.path, exc_info=e)
        return answer(ServerError("internal_error", "the server failed; the fault is logged"))

    async def outage(request: Request, e: Exception) -> Response:
        # The store (or Redis) cannot be reached: `unavailable` (503), which a client retries.
        if not is_outage(e):
            return await bug(request, e)
        log.warning(json.dumps({"event": "unavailable", "path": request.url.path, "error": repr(e)}))
        metrics.unavailable.inc()
        return JSONResponse(
            unavailable(e).to_json(), status_code=503, headers={"Retry-After": str(RETRY_AFTER)}
        )

    app.add_exception_handler(ServerError, refused)
    app.add_exception_handler(SmallworldError, refused)
    app.add_exception_handler(HTTPException, framework)
    app.add_exception_handler(RequestValidationError, model)
    app.add_exception_handler(Exception, bug)
    for kind in OUTAGES:
        app.add_exception_handler(kind, outage)
