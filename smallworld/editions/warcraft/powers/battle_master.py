"""Battle Master (§9.2): +1 VC for each conquest of a non-empty region, paid at once (AMB-09).

"Non-empty" is judged before the conquest (§4: race tokens of any race, Murlocs included, and the
pieces that stand for tokens). Taking a region of one's own In-Decline race earns nothing (AMB-43).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import ConquestInfo, Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class BattleMaster(Unit):
    id = "battle_master"
    kind = "power"
    section = "§9.2"

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        if info.was_nonempty and not info.own_declined:
            st.gain(seat, 1, self.id)


UNIT = BattleMaster()
