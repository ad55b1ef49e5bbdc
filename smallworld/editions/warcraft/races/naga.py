"""Naga (§8.10, §6.5, §6.6): the only race that may conquer Sea and Lake regions.

Their first conquest may be any Sea or Lake, for 2 tokens plus the usual additions (it is not an
Entry region, so no travel cost); later Seas and Lakes follow the normal targeting of §6.5 (adjacent
to a Naga region). Held Seas and Lakes score 1 VC each like any region (§6.14), and on decline they
keep 1 token in each like every other region (§6.16 step 3, done by the engine), so In-Decline Naga
in a Sea can be reached by no other race's conquest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Naga(Unit):
    id = "naga"
    kind = "race"
    section = "§8.10"
    holds_water = True

    def extra_targets(self, st: State, seat: int, first: bool) -> int:
        m = st.game.map
        if first:
            return m.water
        return m.water & m.adjacent_to(st.occupied_mask(st.seats[seat].active))


UNIT = Naga()
