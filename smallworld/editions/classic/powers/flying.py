"""Flying (§8, CL-AMB-05): any land region may be conquered, with no need for adjacency, the first
conquest included; never a Sea or Lake (unless Seafaring too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State


class Flying(Unit):
    id = "flying"
    kind = "power"
    section = "§8"

    def extra_targets(self, st: State, seat: int, first: bool) -> int:
        m = st.game.map
        return ((1 << m.n) - 1) & ~m.water


UNIT = Flying()
