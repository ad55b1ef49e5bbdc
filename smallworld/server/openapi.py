"""The OpenAPI description of the HTTP endpoints (`/openapi.json`, shown at `/docs`): FastAPI's own,
made from the routes and their models (`models.py`), less what the server never answers: FastAPI's
422 validation body (a request model's refusal is the server's `invalid_input`, in the one error
shape every refusal has). A bearer token is optional wherever it is taken (without one: a new
player, a spectator)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi


def install(app: FastAPI) -> None:
    """Serve the description above as the app's `/openapi.json`."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = describe(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def describe(app: FastAPI) -> dict[str, Any]:
    spec = get_openapi(title=app.title, version=app.version, routes=app.routes)
    schemas = spec.get("components", {}).get("schemas", {})
    for never in ("HTTPValidationError", "ValidationError"):
        schemas.pop(never, None)
    for item in spec["paths"].values():
        for op in item.values():
            op["responses"].pop("422", None)
            if op.get("security"):
                op["security"].append({})
    return spec
