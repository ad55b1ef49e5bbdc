"""Spirit Healer (§10.3, §6.12, §1.2, §14 vector 12): the Active race occupying it takes 1 extra token
from the tray at the start of its redeployment, if the tray has one left, and places it with the
others (once per own turn: redeployment happens once). An empty tray gives nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.protocol import EventSpec, Field, FieldType, seat_field

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class SpiritHealer(Unit):
    id = "spirit_healer"
    kind = "relic"
    section = "§10.3"
    event_specs = (
        EventSpec(
            "spirit_healer",
            "the Spirit Healer gave 1 extra token from the tray",
            (seat_field(), Field("race", FieldType.UNIT, "the race")),
        ),
    )

    def redeploy_start(self, st: State, seat: int) -> None:
        s = st.seats[seat]
        race = s.active
        if race is None or st.tray.get(race, 0) <= 0:
            return
        st.tray[race] -= 1
        s.hand += 1
        st.event(self.id, seat=seat, race=race)


UNIT = SpiritHealer()
