"""Kobolds (§8.9, §6.5): any Cavern region may be attacked as if it were adjacent, also as the
first conquest; so a Cavern never costs travel, even when it is an Entry region."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Kobolds(Unit):
    id = "kobolds"
    kind = "race"
    section = "§8.9"

    def extra_targets(self, st: State, seat: int, first: bool) -> int:
        m = st.game.map
        # Treating a Cavern as adjacent does not lift the Sea/Lake ban, which only the Naga escape.
        return m.feature("Cavern") & ~m.water

    def waives_travel(self, st: State, seat: int, region: int, first: bool) -> bool:
        return bool((st.game.map.feature("Cavern") >> region) & 1)


UNIT = Kobolds()
