"""The OpenAPI description of the HTTP endpoints (`/openapi.json`, shown at `/docs`). Bodies and
parameters are read by the app itself (`app.py`, `inputs.py`), so that every refusal has the
server's error format; this module only describes them: the request bodies, the integer
parameters, the bearer tokens, and the one error shape every refusal has (no framework's 422)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from smallworld.engine.edition import known_ids
from smallworld.server.bots import LEVELS
from smallworld.server.errors import STATUS
from smallworld.server.inputs import MAX_NAME, MAX_TITLE

_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}
_INT = {"type": "integer"}
_LEVEL = {"type": "string", "enum": list(LEVELS)}
_ACTION = {
    "type": "object",
    "properties": {"kind": {"type": "string"}, "region": {"type": ["string", "integer"]}, "arg": {}},
    "required": ["kind"],
    "additionalProperties": False,
}
_SEAT = {
    "type": "object",
    "properties": {
        "kind": {"type": "string", "enum": ["creator", "invite", "open", "bot"]},
        "level": _LEVEL,
        "name": _NAME,
    },
    "required": ["kind"],
}
_CLOCK = {
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "kind": {"const": "live"},
                "bank_s": {"type": "number", "minimum": 0.05, "maximum": 86400},
                "increment_s": {"type": "number", "minimum": 0, "maximum": 3600},
            },
            "required": ["kind"],
        },
        {
            "type": "object",
            "properties": {
                "kind": {"const": "turn"},
                "deadline_s": {"type": "number", "minimum": 0.05, "maximum": 30 * 86400},
            },
            "required": ["kind"],
        },
    ]
}
_CREATE = {
    "type": "object",
    "properties": {
        "players": {"type": "integer", "minimum": 2, "maximum": 5},
        "seats": {"type": "array", "items": _SEAT, "minItems": 2, "maxItems": 5},
        "edition": {"type": "string", "enum": known_ids()},
        "variant": {"type": "string", "enum": ["standard", "team"]},
        "options": {"type": "object"},
        "clock": _CLOCK,
        "name": _NAME,
        "title": {"type": "string", "maxLength": MAX_TITLE},
    },
    "required": ["seats"],
    "additionalProperties": False,
}

# (method, path) -> its request body's schema.
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/players"): {"type": "object", "properties": {"name": _NAME}},
    ("post", "/api/games"): _CREATE,
    ("post", "/api/games/{gid}/join"): {
        "type": "object",
        "properties": {"invite": {"type": "string"}, "seat": _INT, "name": _NAME},
    },
    ("post", "/api/games/{gid}/act"): {
        "type": "object",
        "properties": {"seat": _INT, "ply": _INT, "action": _ACTION},
        "required": ["seat", "ply", "action"],
    },
    ("post", "/api/games/{gid}/seats/{seat}/bot"): {"type": "object", "properties": {"level": _LEVEL}},
}
_GAME_ID = {"type": "string", "pattern": "^[0-9a-f]{16}$"}
_GAME = {"name": "gid", "in": "path", "required": True, "schema": _GAME_ID}
_SEAT_PATH = {"name": "seat", "in": "path", "required": True, "schema": _INT}
_AS_SEAT = {"name": "seat", "in": "query", "required": False, "schema": _INT}
_WEB = {"name": "client", "in": "query", "required": False, "schema": {"type": "string", "enum": ["web"]}}
_SINCE = {"name": "since", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 0}}
PARAMETERS: dict[str, list[dict[str, Any]]] = {
    "/api/games/{gid}": [_GAME],
    "/api/games/{gid}/board": [_GAME],
    "/api/games/{gid}/join": [_GAME],
    "/api/games/{gid}/view": [_GAME, _AS_SEAT, _WEB],
    "/api/games/{gid}/moves": [_GAME, _AS_SEAT, _SINCE, _WEB],
    "/api/games/{gid}/act": [_GAME],
    "/api/games/{gid}/replay": [_GAME],
    "/api/games/{gid}/seats/{seat}/bot": [_GAME, _SEAT_PATH],
    "/api/games/{gid}/seats/{seat}/take": [_GAME, _SEAT_PATH],
    "/api/games/{gid}/seats/{seat}/leave": [_GAME, _SEAT_PATH],
}
# Endpoints that read a seat or player token (`Authorization: Bearer`); optional on each.
TOKENS = (
    {"/api/me/games", "/api/games/{gid}/view", "/api/games/{gid}/moves"}
    | {path for (_, path) in BODIES if path != "/api/players"}
    | {"/api/games/{gid}/seats/{seat}/take", "/api/games/{gid}/seats/{seat}/leave", "/api/players/logout"}
)
ERROR = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "enum": sorted(STATUS)},
        "message": {"type": "string"},
        "field": {"type": "string"},
        "rule": {"type": "string"},
    },
    "required": ["code", "message"],
}


def install(app: FastAPI) -> None:
    """Serve the description above as the app's `/openapi.json`."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = describe(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def describe(app: FastAPI) -> dict[str, Any]:
    spec = get_openapi(title=app.title, version=app.version, routes=app.routes)
    spec.setdefault("components", {})
    spec["components"].pop("schemas", None)  # FastAPI's validation errors: never answered
    spec["components"]["schemas"] = {"Error": ERROR}
    spec["components"]["securitySchemes"] = {"token": {"type": "http", "scheme": "bearer"}}
    error = {
        "description": "a refusal (docs/server.md, Errors)",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }
    for path, item in spec["paths"].items():
        for method, op in item.items():
            op["responses"].pop("422", None)
            op["responses"]["default"] = error
            if path in PARAMETERS:
                op["parameters"] = [p for p in PARAMETERS[path] if p["in"] == "path" or method == "get"]
            body = BODIES.get((method, path))
            if body is not None:
                op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
            if path in TOKENS:
                op["security"] = [{"token": []}, {}]
    return spec
