"""Game variants: the standard game and the team variant (§11)."""

from __future__ import annotations

from smallworld.engine.errors import PositionError
from smallworld.engine.variants.base import Variant
from smallworld.engine.variants.standard import Standard
from smallworld.engine.variants.team import Team

VARIANTS: dict[str, type[Variant]] = {"standard": Standard, "team": Team}


def get_variant(name: str) -> Variant:
    if name not in VARIANTS:
        raise PositionError("settings.variant", f"must be one of {sorted(VARIANTS)}, got {name!r}")
    return VARIANTS[name]()
