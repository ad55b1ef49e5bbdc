"""A game whose seats the server fills itself (quick games, tournaments): every seat taken from the
start, so it is `playing` at once; stored and started as `Service.create` stores and starts one."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from smallworld.engine.api.game import Game
from smallworld.engine.model.keyed_rng import KEYED
from smallworld.engine.model.settings import Settings
from smallworld.server.store import NewSeat


async def create_seated(
    service: Any,
    gid: str,
    settings_in: dict[str, Any],
    clock: dict[str, Any],
    seats: list[NewSeat],
    meta: dict[str, Any] | None = None,
) -> None:
    """A rated game of `seats` (accounts' and bots'), with the server's secret seed."""
    seed = secrets.randbits(128)
    game = Game(Settings.from_json({**settings_in, "seed": seed, "rng": KEYED}))
    public = service._public_settings(game)
    full = {"clock": clock, "creator": None, "title": "", "rated": True, **(meta or {})}
    status, created, rows = await asyncio.to_thread(service.store.create_game, gid, public, seed, full, seats)
    live = service._hold(service._live(gid, public, seed, status, full, rows, created))
    service._after_change(live)
