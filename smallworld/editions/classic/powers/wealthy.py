"""Wealthy (§8, CL-AMB-16): +7 VC once, at the end of the first turn of the race with this badge."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smallworld.engine.model.hooks import Unit
from smallworld.engine.model.protocol import Field, FieldType

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

BONUS = 7


class Wealthy(Unit):
    id = "wealthy"
    kind = "power"
    section = "§8"
    seat_fields = (Field("paid", FieldType.UNIT, "the race whose +7 was paid", optional=True),)
    turn_fields = (Field("now", FieldType.BOOL, "this turn pays the +7", optional=True),)

    def turn_end(self, st: State, seat: int) -> None:
        # Recorded before scoring, so `score` itself changes nothing (hints ask it too).
        data = st.seat_data(seat, self.id)
        race = st.seats[seat].active
        if data.get("paid") != race:
            data["paid"] = race
            st.turn_data(self.id)["now"] = True

    def score(self, st: State, seat: int) -> int:
        if st.turn.data.get(self.id, {}).get("now"):
            return BONUS
        paid = st.seats[seat].ext.get(self.id, {}).get("paid")
        return BONUS if paid != st.seats[seat].active else 0  # a hint before the end of the turn


UNIT = Wealthy()
