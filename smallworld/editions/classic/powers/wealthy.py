"""Wealthy (§8, CL-AMB-16): +7 VC once, at the end of the first turn of the race with this badge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.hooks import Unit
from smallworld.engine.protocol import Field, FieldType

if TYPE_CHECKING:
    from smallworld.engine.state import State

BONUS = 7


class Wealthy(Unit):
    id = "wealthy"
    kind = "power"
    section = "§8"
    seat_fields = (Field("paid", FieldType.UNIT, "the race whose +7 was paid", optional=True),)

    def score(self, st: State, seat: int) -> int:
        data = st.seat_data(seat, self.id)
        race = st.seats[seat].active
        if data.get("paid") == race:
            return 0
        data["paid"] = race
        return BONUS


UNIT = Wealthy()
