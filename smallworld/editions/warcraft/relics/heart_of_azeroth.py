"""Heart of Azeroth (§10.2, §6.13 step 6, AMB-18).

At the end of each of their turns the owner puts the Heart in one of their Active regions (a prompt
`heart REGION` when they hold several; after the Aegis of Aggramar, §6.13 step 6), then every
opponent whose Active race occupies at least one region adjacent to it pays the owner 1 VC
([EN]/[DE]; [PT]'s "1 VC per adjacent race" is not used). AMB-18: an opponent with 0 VC pays
nothing, and each opponent pays at most once per turn. Immunity does not matter: the rule only counts
the regions around the Heart (AMB-36). In the team variant an ally is an opponent too (§4: any other
player).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.editions.warcraft.relics._common import Placed
from smallworld.engine.model.protocol import EventSpec, Field, FieldType, region_field, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

PRICE = 1


class Heart(Placed):
    id = "heart_of_azeroth"
    verb = "heart"
    turn_end_step = 6  # §6.13 step 6

    @classmethod
    def extra_events(cls) -> tuple[EventSpec, ...]:
        return (
            EventSpec(
                "heart_of_azeroth",
                "opponents next to the Heart paid its owner 1 VC each",
                (
                    seat_field("the Heart's owner"),
                    region_field("where the Heart lies"),
                    Field("payers", FieldType.SEATS, "the seats that paid"),
                ),
            ),
        )

    def placed(self, st: State, seat: int, region: int) -> None:
        around = st.game.map.adj[region]
        payers = []
        for other, s in enumerate(st.seats):
            near = other != seat and s.active and around & st.occupied_mask(s.active)
            paid = st.pay(other, seat, PRICE) if near else 0
            if paid:  # 0 VC: nothing to pay (AMB-18)
                st.event("payment", seat=other, payee=seat, coins=paid, why=self.id)
                payers.append(other)
        if payers:
            st.event("heart_of_azeroth", seat=seat, region=region, payers=payers)


UNIT = Heart()
