"""Aegis of Aggramar (§10.2, §6.5, §6.7, §6.13 step 5, AMB-19, AMB-36).

At the end of each of their turns the owner (the player whose Active race occupies the Aegis's
region) puts it in one of their Active regions (a prompt `aegis REGION` when they hold several),
before the Heart of Azeroth is placed (§6.13 steps 5-6). That region is immune to every conquest
attempt and every hostile effect of another player unless that player first pays the owner 2 VC,
for each attempt or effect (a failed die attempt is not refunded): conquests of every kind (Ashes,
Doomhammer, Champion, airborne assault), Portal swaps, Intimidating, bomb placements and explosions,
Military Objective placements, Ethereal steals (AMB-36). The dues are the Aegis's
`defender_payments` for every effect (`dues_on`): the engine asks them before a conquest, hostile
effects ask them (`conquest.hostile_effect`) and so do placements (`conquest.pay_placement`).
Counts that merely include the region (the Heart, the Well) are no effect on it.

AMB-19: the Aegis only protects while an Active race occupies its region (the engine makes a marker
nobody's in an In-Decline, Murloc or empty region), so it never protects an In-Decline race.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from smallworld.editions.warcraft.relics._common import Placed

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "aegis_of_aggramar"
PRICE = 2


class Aegis(Placed):
    id = ID
    verb = "aegis"
    turn_end_step = 5  # §6.13 step 5

    def defender_payments(
        self, st: State, attacker: int, region: int, owner: int
    ) -> Iterable[tuple[int | None, int, str]]:
        if attacker == owner or st.marker_region(ID) != region:
            return ()
        return ((owner, PRICE, self.id),)


UNIT = Aegis()
