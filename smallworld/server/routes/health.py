"""The process's health (`/healthz`) and its metrics (`/metrics`, Prometheus)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from smallworld.server.models import Health
from smallworld.server.refusals import RETRY_AFTER
from smallworld.server.routes.base import api_router
from smallworld.server.routes.deps import ServiceDep

router = api_router("health")
HEALTH_TIMEOUT = 5.0  # seconds `/healthz` waits for the store before it says `down`


@router.get(
    "/healthz", response_model=Health, responses={503: {"model": Health, "description": "the store is out"}}
)
async def healthz(svc: ServiceDep) -> Response:
    """200 while the process can serve its games (`status`: `ok`, or `degraded` while Redis is
    down: its own sockets are served, other processes' moves arrive late); 503 while the store
    cannot be reached."""
    out: dict[str, Any] = {"ok": True, "node": svc.node, "games_live": len(svc.live), "store": "up"}
    out.update(svc.broker.health())
    out["bot_decisions_waiting"] = svc.bots.waiting()
    try:
        await asyncio.wait_for(asyncio.to_thread(svc.store.ping), HEALTH_TIMEOUT)
    except Exception as e:
        out.update(ok=False, status="down", store="down", store_error=f"{type(e).__name__}: {e}"[:300])
        return JSONResponse(out, status_code=503, headers={"Retry-After": str(RETRY_AFTER)})
    out["status"] = "degraded" if out.get("redis") == "down" else "ok"
    return JSONResponse(out)


@router.get("/metrics", response_class=Response, responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}})
async def prometheus(request: Request) -> Response:
    metrics = request.app.state.service.metrics
    return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)
