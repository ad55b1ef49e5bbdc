"""What every route has in common: its body read by the server itself, and the one error shape."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute

from smallworld.server import inputs
from smallworld.server.errors import ServerError
from smallworld.server.models import Error

# Every operation's refusals (the status is the code's: docs/server.md, Errors).
REFUSALS: dict[int | str, dict[str, Any]] = {
    "default": {"model": Error, "description": "a refusal (docs/server.md, Errors)"}
}


async def read_json(request: Request, max_body: int) -> tuple[bytes, Any]:
    """The body, at most `max_body` bytes (`too_large`), and its JSON, checked (`inputs.parse`:
    `malformed_json`, or `invalid_input` for what no field may hold); no body reads as null."""
    refused = ServerError("too_large", f"the request is over {max_body} bytes")
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > max_body:
        raise refused
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > max_body:
            raise refused
    return raw, inputs.parse(raw or b"null", "body")


class _Read(Request):
    """A request whose body is read and parsed already; it says it is JSON whatever the client's
    `Content-Type` (the server reads every body as JSON)."""

    def __init__(self, request: Request, raw: bytes, data: Any) -> None:
        headers = [(k, v) for k, v in request.scope["headers"] if k != b"content-type"]
        headers.append((b"content-type", b"application/json"))
        super().__init__({**request.scope, "headers": headers}, request.receive)
        self._raw, self._data = raw, data

    async def body(self) -> bytes:
        return self._raw

    async def json(self) -> Any:
        return self._data


class JSONRoute(APIRoute):
    """A route whose body (when it takes one) the server reads and parses itself before FastAPI
    validates it against the route's request model, so that a body too large, not JSON, too deep
    or holding what no string may hold is refused in the server's words; and whose answer holds
    the keys the service's answer holds (no absent optional key is added as null)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        kwargs["response_model_exclude_unset"] = True
        super().__init__(path, endpoint, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()
        if self.body_field is None:
            return handle

        async def read_then_handle(request: Request) -> Response:
            raw, data = await read_json(request, request.app.state.limits.max_body)
            return await handle(_Read(request, raw, data))

        return read_then_handle


def api_router(tag: str) -> APIRouter:
    return APIRouter(tags=[tag], route_class=JSONRoute, responses=REFUSALS)
