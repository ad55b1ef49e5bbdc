"""Tritons (§7, CL-AMB-23): coastal regions (bordering a Sea or Lake) cost 1 token fewer
(minimum 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Tritons(Unit):
    id = "tritons"
    kind = "race"
    section = "§7"

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        m = st.game.map
        return 1 if m.adj[region] & m.water else 0


UNIT = Tritons()
