"""Light's Hope Chapel (§10.3, §6.9, AMB-12, AMB-21, AMB-44).

The Active race occupying the Chapel loses no race token when attacked: the token that would be
discarded goes to hand with the withdrawn ones. This covers conquests, bomb explosions and
Intimidating (the defender hook is asked whatever the cause), and comes first among the loss
exceptions (AMB-12: Chapel > Champion > Beast > Holy Light).

AMB-21: by default it protects every region of the race ([EN]/[PT]); the rule option
`chapel_protects: "region"` protects only the Chapel region itself ([DE]).

AMB-44: when the Chapel region itself is conquered, the defender still occupies it while the engine
asks for loss exceptions, so it is spared one last time; later attacks in the same turn meet a race
that no longer holds the Chapel and lose tokens as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Cause, Unit
from smallworld.engine.model.options import OptionSpec
from smallworld.engine.model.protocol import EventSpec, Field, FieldType, region_field, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "lights_hope_chapel"


class LightsHopeChapel(Unit):
    id = ID
    kind = "relic"
    section = "§10.3"
    loss_priority = 10
    event_specs = (
        EventSpec(
            ID,
            "Light's Hope Chapel spared a race token",
            (
                seat_field("the spared race's owner"),
                region_field(),
                Field("cause", FieldType.CHOICE, "what would have taken it", choices=tuple(Cause)),
            ),
        ),
    )
    options = (
        OptionSpec(
            "chapel_protects",
            "race",
            "AMB-21 (§10.3): Light's Hope Chapel spares the losses of the whole race holding it ([EN]/[PT]), "
            "or only when the Chapel region itself is attacked ('region', [DE]).",
            choices=("race", "region"),
            unit="lights_hope_chapel",
        ),
    )

    def prevent_loss(self, st: State, owner: int, region: int, cause: str) -> bool:
        if st.game.options.chapel_protects == "region" and st.marker_region(ID) != region:
            return False
        st.event(ID, seat=owner, region=region, cause=cause)
        return True


UNIT = LightsHopeChapel()
