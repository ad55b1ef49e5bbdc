"""Draenei (§8.2, AMB-12): Holy Light.

In each opponent's turn, the first Draenei token that would be discarded (conquest, bomb,
Intimidating, any power) goes to hand instead and is redeployed with the withdrawn tokens.
Resolutions (AMB-12): automatic; Active race only; never in the Draenei player's own turn; not used
up when another rule (Chapel, Champion, Beast) already prevents that loss; if the race has no region
left, the saved token stays in hand (the engine keeps withdrawn tokens in hand then, §6.9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Cause, Unit
from smallworld.engine.model.protocol import EventSpec, Field, FieldType, region_field, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "draenei"
HOLY_LIGHT = "holy_light"  # the event


class Draenei(Unit):
    id = "draenei"
    kind = "race"
    section = "§8.2"
    # §6.9 order (AMB-12): Chapel > Champion > Beast > Holy Light. Asked after every other
    # exception, whatever priority those units keep, so they settle the loss first and Holy Light
    # stays unspent for a later loss in the same turn.
    loss_priority = 900
    turn_fields = (Field("used", FieldType.BOOL, "the Holy Light of this turn is spent", optional=True),)
    event_specs = (
        EventSpec(
            HOLY_LIGHT,
            "Holy Light saved a Draenei token",
            (
                seat_field("the Draenei player"),
                region_field(),
                Field("cause", FieldType.CHOICE, "what would have taken it", choices=tuple(Cause)),
            ),
        ),
    )

    def prevent_loss(self, st: State, owner: int, region: int, cause: str) -> bool:
        s = st.seats[owner]
        if s.active != self.id or owner == st.turn_seat or st.turn.data.get(ID, {}).get("used"):
            return False
        if st.tokens[region] + s.hand == 0:
            return False  # nothing would be discarded: keep the Holy Light for a real loss
        st.turn_data(ID)["used"] = True
        st.event(HOLY_LIGHT, seat=owner, region=region, cause=cause)
        return True


UNIT = Draenei()
