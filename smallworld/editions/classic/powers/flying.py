"""Flying (§8, CL-AMB-05): any land region may be conquered, with no need for adjacency, the first
conquest included (option `flying_first_conquest`: 'border' keeps the first conquest on the border);
never a Sea or Lake (unless Seafaring too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.options import OptionSpec

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Flying(Unit):
    id = "flying"
    kind = "power"
    section = "§8"
    options = (
        OptionSpec(
            "flying_first_conquest",
            "anywhere",
            "CL-AMB-05 (classic §5.2): a Flying race's first conquest may be any land region, or only a "
            "border region like every other race ('border').",
            choices=("anywhere", "border"),
            unit="flying",
        ),
    )

    def extra_targets(self, st: State, seat: int, first: bool) -> int:
        if first and st.game.options.flying_first_conquest == "border":
            return 0
        m = st.game.map
        return ((1 << m.n) - 1) & ~m.water


UNIT = Flying()
