"""Ratmen (§7): no power; their strength is their many tokens (banner 8)."""

from __future__ import annotations

from smallworld.engine.model.hooks import Unit


class Ratmen(Unit):
    id = "ratmen"
    kind = "race"
    section = "§7"


UNIT = Ratmen()
